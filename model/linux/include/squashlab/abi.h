/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * This file implements the kernel structures fs/squashfs reads and writes
 * by field, shared by the C side (the real kernel files, compiled against
 * this header layer) and the C++ bridge that backs them with the model's
 * kernel objects. It parses as C (gnu11) and as C++20 with the same layout;
 * it declares no functions and no macros the model's headers also define.
 * Fields named sl_* are the bridge's: they point at the model's object.
 */
#ifndef SQUASHLAB_LINUX_ABI_H_
#define SQUASHLAB_LINUX_ABI_H_

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

/* In C++ the types live in namespace kabi: they would clash with the C
 * library's (loff_t, dev_t) otherwise. Layouts are the same. */
#ifdef __cplusplus
namespace kabi {
#endif

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef unsigned long long u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef long long s64;
typedef uint8_t __u8;
typedef uint16_t __u16;
typedef uint32_t __u32;
typedef unsigned long long __u64;
typedef int32_t __s32;
typedef uint16_t __le16;
typedef uint32_t __le32;
typedef uint64_t __le64;
typedef uint16_t __be16;
typedef uint32_t __be32;
typedef uint64_t __be64;
typedef long long loff_t;
typedef long ssize_t;
typedef unsigned long pgoff_t;
typedef u64 sector_t;
typedef u64 blkcnt_t;
typedef unsigned int gfp_t;
typedef unsigned short umode_t;
typedef u32 dev_t;
typedef unsigned int uid_t;
typedef unsigned int gid_t;
typedef u32 blk_opf_t;
typedef u8 blk_status_t;

typedef struct {
  int counter;
} atomic_t;
typedef struct {
  long counter;
} atomic_long_t;
typedef struct {
  uid_t val;
} kuid_t;
typedef struct {
  gid_t val;
} kgid_t;

struct list_head {
  struct list_head *next, *prev;
};
struct hlist_node {
  struct hlist_node *next, **pprev;
};

/* Locks and wait queues: a handle on the model's object (made by *_init);
 * for a lock defined statically (DEFINE_MUTEX), its key's address + 1. */
struct sl_lock_key {
  const char *name;
  const char *file;
  int line;
};
struct mutex {
  void *sl_obj;
};
typedef struct spinlock {
  void *sl_obj;
} spinlock_t;
typedef struct wait_queue_head {
  void *sl_obj;
} wait_queue_head_t;
typedef struct {
  void *sl_obj;
} local_lock_t;

struct timespec64 {
  s64 tv_sec;
  long tv_nsec;
};

struct address_space;
struct file;
struct folio;
struct inode;
struct super_block;
struct readahead_control;
struct bio;
struct dentry;
struct kstatfs;
struct seq_file;
struct fs_context;
struct module;

/* The struct page fields fs/squashfs reads. The bridge keeps one per model
 * page and refreshes mapping and index whenever it hands the page over. */
struct page {
  unsigned long flags;
  struct address_space *mapping;
  pgoff_t index;
  void *sl_model;
};

/* An order-0 folio is its page. */
struct folio {
  union {
    struct {
      unsigned long flags;
      struct address_space *mapping;
      pgoff_t index;
      void *sl_model;
    };
    struct page page;
  };
};

struct address_space_operations {
  int (*read_folio)(struct file *, struct folio *);
  void (*readahead)(struct readahead_control *);
  int (*writepage)(struct page *, void *);
  bool (*dirty_folio)(struct address_space *, struct folio *);
  int (*bmap)(struct address_space *, sector_t);
};

struct address_space {
  struct inode *host;
  const struct address_space_operations *a_ops;
  gfp_t gfp_mask;
  unsigned long nrpages;
  void *sl_model; /* the model's address_space */
};

struct inode_operations {
  struct dentry *(*lookup)(struct inode *, struct dentry *, unsigned int);
  const char *(*get_link)(struct dentry *, struct inode *, void *);
  long (*listxattr)(struct dentry *, char *, size_t);
  int (*getattr)(void *, const void *, void *, u32, unsigned int);
};

struct dir_context;
struct file_operations {
  struct module *owner;
  loff_t (*llseek)(struct file *, loff_t, int);
  long (*read)(struct file *, char *, size_t, loff_t *);
  long (*read_iter)(void *, void *);
  int (*iterate_shared)(struct file *, struct dir_context *);
  int (*mmap)(struct file *, void *);
  long (*splice_read)(struct file *, loff_t *, void *, size_t, unsigned int);
};

struct inode {
  umode_t i_mode;
  unsigned short i_opflags;
  kuid_t i_uid;
  kgid_t i_gid;
  unsigned int i_flags;
  const struct inode_operations *i_op;
  struct super_block *i_sb;
  struct address_space *i_mapping;
  unsigned long i_ino;
  unsigned int i_nlink;
  dev_t i_rdev;
  loff_t i_size;
  struct timespec64 i_atime, i_mtime, i_ctime;
  blkcnt_t i_blocks;
  unsigned long i_state;
  atomic_t i_count;
  const struct file_operations *i_fop;
  struct address_space i_data;
  const char *i_link;
  void *i_private;
  void *sl_model; /* the model's inode (a file the workloads read) */
};

struct file_ra_state {
  pgoff_t start;
  unsigned int size;
  unsigned int async_size;
  unsigned int ra_pages;
  unsigned int mmap_miss;
  loff_t prev_pos;
};

struct file {
  struct inode *f_inode;
  struct address_space *f_mapping;
  struct file_ra_state f_ra;
  loff_t f_pos;
  unsigned int f_mode;
  void *sl_model;
};

struct readahead_control {
  struct file *file;
  struct address_space *mapping;
  struct file_ra_state *ra;
  pgoff_t _index;
  unsigned int _nr_pages;
  unsigned int _batch_count;
  void *sl_model; /* the bridge's batch state */
};

struct super_operations {
  struct inode *(*alloc_inode)(struct super_block *);
  void (*destroy_inode)(struct inode *);
  void (*free_inode)(struct inode *);
  void (*put_super)(struct super_block *);
  int (*statfs)(struct dentry *, struct kstatfs *);
  int (*show_options)(struct seq_file *, struct dentry *);
  void (*evict_inode)(struct inode *);
  int (*drop_inode)(struct inode *);
};

struct file_system_type {
  const char *name;
  int fs_flags;
  int (*init_fs_context)(struct fs_context *);
  const struct fs_parameter_spec *parameters;
  void (*kill_sb)(struct super_block *);
  struct module *owner;
  struct file_system_type *next;
};

struct block_device {
  dev_t bd_dev;
  u64 sl_nr_bytes; /* the medium's size */
  void *sl_model;  /* the model's block_device */
};

/* include/linux/xattr.h: a name space's handler (fs/squashfs's user,
 * trusted and security ones); the walk resolves a name to it by prefix
 * and calls ->get, as fs/xattr.c does. */
struct xattr_handler {
  const char *name;
  const char *prefix;
  int flags;
  bool (*list)(struct dentry *);
  int (*get)(const struct xattr_handler *, struct dentry *, struct inode *,
             const char *, void *, size_t);
};

struct super_block {
  dev_t s_dev;
  unsigned char s_blocksize_bits;
  unsigned long s_blocksize;
  loff_t s_maxbytes;
  struct file_system_type *s_type;
  const struct super_operations *s_op;
  const struct export_operations *s_export_op;
  unsigned long s_flags;
  unsigned long s_iflags;
  unsigned long s_magic;
  struct dentry *s_root;
  const struct xattr_handler *const *s_xattr;
  struct block_device *s_bdev;
  void *s_fs_info;
  s64 s_time_min;
  s64 s_time_max;
  char s_id[32];
  void *sl_model; /* the bridge's per-mount state */
};

struct qstr {
  u32 hash;
  u32 len;
  const unsigned char *name;
};

struct dentry {
  struct inode *d_inode;
  struct super_block *d_sb;
  struct qstr d_name;
  struct dentry *d_parent;
};

typedef struct {
  int val[2];
} __kernel_fsid_t;

struct kstatfs {
  long f_type;
  long f_bsize;
  u64 f_blocks;
  u64 f_bfree;
  u64 f_bavail;
  u64 f_files;
  u64 f_ffree;
  __kernel_fsid_t f_fsid;
  long f_namelen;
  long f_frsize;
  long f_flags;
};

/* Bios. */
struct bio_vec {
  struct page *bv_page;
  unsigned int bv_len;
  unsigned int bv_offset;
};

struct bvec_iter {
  sector_t bi_sector;
  unsigned int bi_size;
  unsigned int bi_idx;
  unsigned int bi_bvec_done;
};

struct bvec_iter_all {
  struct bio_vec bv;
  int idx;
  unsigned int done;
};

typedef void(bio_end_io_t)(struct bio *);

struct bio_set {
  int sl_unused;
};

struct bio {
  struct bio *bi_next;
  struct block_device *bi_bdev;
  blk_opf_t bi_opf;
  unsigned short bi_flags;
  blk_status_t bi_status;
  atomic_t __bi_remaining;
  struct bvec_iter bi_iter;
  bio_end_io_t *bi_end_io;
  void *bi_private;
  unsigned short bi_vcnt;
  unsigned short bi_max_vecs;
  atomic_t __bi_cnt;
  struct bio_vec *bi_io_vec;
  struct bio_set *bi_pool;
  struct bio *sl_parent_clone; /* bio_alloc_clone: whose vectors */
  void *sl_model;
  struct bio_vec bi_inline_vecs[];
};

/* Mount. */
struct fs_parameter_spec;
struct fs_parameter;
struct fs_context_operations {
  void (*free)(struct fs_context *);
  int (*parse_param)(struct fs_context *, struct fs_parameter *);
  int (*get_tree)(struct fs_context *);
  int (*reconfigure)(struct fs_context *);
};

struct fs_context {
  const struct fs_context_operations *ops;
  struct file_system_type *fs_type;
  void *fs_private;
  void *sget_key;
  struct dentry *root;
  const char *source;
  unsigned int sb_flags;
  unsigned int sb_flags_mask;
  unsigned int purpose;
  void *sl_model; /* the bridge's mount request */
};

/* Mount options (include/linux/fs_parser.h shapes). */
struct fs_parameter_spec;
struct p_log;
struct fs_parameter;
struct fs_parse_result;
typedef int fs_param_type(struct p_log *, const struct fs_parameter_spec *,
                          struct fs_parameter *, struct fs_parse_result *);

struct constant_table {
  const char *name;
  int value;
};

struct fs_parameter_spec {
  const char *name;
  fs_param_type *type;
  u8 opt;
  unsigned short flags;
  const void *data;
};

enum fs_value_type {
  fs_value_is_undefined,
  fs_value_is_flag,
  fs_value_is_string,
  fs_value_is_blob,
  fs_value_is_filename,
  fs_value_is_file,
};

struct fs_parameter {
  const char *key;
  enum fs_value_type type;
  char *string;
  size_t size;
  int dirfd;
};

struct fs_parse_result {
  bool negated;
  union {
    bool boolean;
    int int_32;
    unsigned int uint_32;
    u64 uint_64;
  };
};

/* Directories (include/linux/fs.h): getdents' callback state. */
struct dir_context;
typedef bool (*filldir_t)(struct dir_context *, const char *, int, loff_t, u64,
                          unsigned);
struct dir_context {
  filldir_t actor;
  loff_t pos;
};

/* File handles (include/linux/exportfs.h). */
struct fid {
  union {
    struct {
      u32 ino;
      u32 gen;
      u32 parent_ino;
      u32 parent_gen;
    } i32;
    __u32 raw[4];
  };
};
struct export_operations {
  int (*encode_fh)(struct inode *, __u32 *, int *, struct inode *);
  struct dentry *(*fh_to_dentry)(struct super_block *, struct fid *, int, int);
  struct dentry *(*fh_to_parent)(struct super_block *, struct fid *, int, int);
  struct dentry *(*get_parent)(struct dentry *);
};

#ifdef __cplusplus
}  // namespace kabi
using namespace kabi;  // NOLINT: the bridge names the kernel's types as C does
#endif

#endif /* SQUASHLAB_LINUX_ABI_H_ */
