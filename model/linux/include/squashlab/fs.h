/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * This file implements the VFS part of the kernel headers fs/squashfs uses
 * (include/linux/fs.h, fs_context.h, fs_parser.h, dcache.h, exportfs.h,
 * seq_file.h, xattr.h, statfs): inodes and their hash, the super_block,
 * the mount through an fs_context, and what the directory and export code
 * needs to compile. The read path's inodes carry a model page cache.
 */
#ifndef SQUASHLAB_LINUX_FS_H_
#define SQUASHLAB_LINUX_FS_H_

#include <squashlab/mm.h>
#include <squashlab/sched.h>

#define S_IFMT 00170000
#define S_IFSOCK 0140000
#define S_IFLNK 0120000
#define S_IFREG 0100000
#define S_IFBLK 0060000
#define S_IFDIR 0040000
#define S_IFCHR 0020000
#define S_IFIFO 0010000
#define S_ISDIR(m) (((m)&S_IFMT) == S_IFDIR)
#define S_ISREG(m) (((m)&S_IFMT) == S_IFREG)
#define S_ISLNK(m) (((m)&S_IFMT) == S_IFLNK)
#define DT_UNKNOWN 0
#define DT_FIFO 1
#define DT_CHR 2
#define DT_DIR 4
#define DT_BLK 6
#define DT_REG 8
#define DT_LNK 10
#define DT_SOCK 12
#define I_NEW (1UL << 3)
#define SB_RDONLY 1UL
#define SB_SILENT 32768UL
#define FS_REQUIRES_DEV 1
#define FS_ALLOW_IDMAP 32
#define FMODE_RANDOM 0x1000u

static inline loff_t i_size_read(const struct inode *i) { return i->i_size; }
static inline void i_size_write(struct inode *i, loff_t s) { i->i_size = s; }
static inline struct inode *file_inode(const struct file *f) {
  return f->f_inode;
}
static inline struct inode *d_inode(const struct dentry *d) {
  return d->d_inode;
}
static inline void set_nlink(struct inode *i, unsigned int n) {
  i->i_nlink = n;
}
static inline void i_uid_write(struct inode *i, uid_t u) { i->i_uid.val = u; }
static inline void i_gid_write(struct inode *i, gid_t g) { i->i_gid.val = g; }
static inline struct timespec64 inode_set_atime(struct inode *i, s64 s,
                                                long ns) {
  i->i_atime.tv_sec = s;
  i->i_atime.tv_nsec = ns;
  return i->i_atime;
}
static inline struct timespec64 inode_set_mtime(struct inode *i, s64 s,
                                                long ns) {
  i->i_mtime.tv_sec = s;
  i->i_mtime.tv_nsec = ns;
  return i->i_mtime;
}
static inline struct timespec64 inode_set_ctime(struct inode *i, s64 s,
                                                long ns) {
  i->i_ctime.tv_sec = s;
  i->i_ctime.tv_nsec = ns;
  return i->i_ctime;
}
static inline s64 inode_get_mtime_sec(const struct inode *i) {
  return i->i_mtime.tv_sec;
}
static inline void inode_nohighmem(struct inode *i) { (void)i; }
static inline dev_t new_decode_dev(u32 dev) {
  unsigned major = (dev & 0xfff00) >> 8;
  unsigned minor = (dev & 0xff) | ((dev >> 12) & 0xfff00);
  return (major << 20) | minor;
}
static inline u32 huge_encode_dev(dev_t dev) { return dev; }
void init_special_inode(struct inode *i, umode_t mode, dev_t rdev);
void inode_init_once(struct inode *i);
struct inode *new_inode(struct super_block *sb);
struct inode *iget_locked(struct super_block *sb, unsigned long ino);
void unlock_new_inode(struct inode *i);
void iget_failed(struct inode *i);
void iput(struct inode *i);
void make_bad_inode(struct inode *i);
void insert_inode_hash(struct inode *i);
void *alloc_inode_sb(struct super_block *sb, struct kmem_cache *c, gfp_t g);
int sb_min_blocksize(struct super_block *sb, int size);
int sync_filesystem(struct super_block *sb);
int register_filesystem(struct file_system_type *fs);
int unregister_filesystem(struct file_system_type *fs);
void kill_block_super(struct super_block *sb);
#define iget_locked(sb, ino) SL_AT(iget_locked(sb, ino))
#define new_inode(sb) SL_AT(new_inode(sb))
#define iput(i) SL_AT(iput(i))

extern const struct file_operations generic_ro_fops;
loff_t generic_file_llseek(struct file *f, loff_t off, int whence);
long generic_read_dir(struct file *f, char *buf, size_t n, loff_t *pos);
const char *page_get_link(struct dentry *d, struct inode *i, void *done);
extern const struct inode_operations page_symlink_inode_operations;
int generic_getattr(void *, const void *, void *, u32, unsigned int);

/* Directories. */
/* struct dir_context: abi.h (the walk of a mount calls ->iterate_shared). */
static inline bool dir_emit(struct dir_context *ctx, const char *name,
                            int namelen, u64 ino, unsigned type) {
  return ctx->actor(ctx, name, namelen, ctx->pos, ino, type);
}
static inline bool dir_emit_dots(struct file *f, struct dir_context *ctx) {
  (void)f;
  (void)ctx;
  return true;
}
struct dentry *d_make_root(struct inode *root);
struct dentry *d_splice_alias(struct inode *i, struct dentry *d);
struct dentry *d_obtain_alias(struct inode *i);

/* Export. */
/* struct fid, struct export_operations: abi.h (file-handle lookups). */
#define FILEID_INO32_GEN 1
#define FILEID_INO32_GEN_PARENT 2

int generic_encode_ino32_fh(struct inode *i, __u32 *fh, int *max_len,
                            struct inode *parent);

/* statfs and mount options. */
static inline __kernel_fsid_t u64_to_fsid(u64 v) {
  __kernel_fsid_t f;
  f.val[0] = (int)(u32)v;
  f.val[1] = (int)(u32)(v >> 32);
  return f;
}
void seq_printf(struct seq_file *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void seq_puts(struct seq_file *m, const char *s);
/* xattrs: the handler is abi.h's; capable() is the walker's, root's
 * (include/linux/capability.h, uapi/linux/capability.h). */
#define CAP_SYS_ADMIN 21
bool capable(int cap);
#define XATTR_USER_PREFIX "user."
#define XATTR_TRUSTED_PREFIX "trusted."
#define XATTR_SECURITY_PREFIX "security."

/* fs_context (include/linux/fs_context.h, fs_parser.h). */
int get_tree_bdev(struct fs_context *fc,
                  int (*fill_super)(struct super_block *, struct fs_context *));
int fs_parse(struct fs_context *fc, const struct fs_parameter_spec *desc,
             struct fs_parameter *param, struct fs_parse_result *result);
int sl_fs_param_is_enum(struct p_log *, const struct fs_parameter_spec *,
                        struct fs_parameter *, struct fs_parse_result *);
int sl_fs_param_is_string(struct p_log *, const struct fs_parameter_spec *,
                          struct fs_parameter *, struct fs_parse_result *);
#define fs_param_is_enum sl_fs_param_is_enum
#define fs_param_is_string sl_fs_param_is_string
#define fsparam_enum(NAME, OPT, TABLE)                              \
  {                                                                 \
    .name = NAME, .type = fs_param_is_enum, .opt = OPT, .flags = 0, \
    .data = TABLE                                                   \
  }
#define fsparam_string(NAME, OPT)                                     \
  {                                                                   \
    .name = NAME, .type = fs_param_is_string, .opt = OPT, .flags = 0, \
    .data = NULL                                                      \
  }
void sl_errorf(struct fs_context *fc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
#define errorf(fc, fmt, ...) sl_errorf(fc, fmt, ##__VA_ARGS__)
#define invalf(fc, fmt, ...) (sl_errorf(fc, fmt, ##__VA_ARGS__), -EINVAL)

#endif /* SQUASHLAB_LINUX_FS_H_ */
