// SPDX-License-Identifier: GPL-2.0-only
// This file implements the VFS calls of the header layer: inodes (the
// hash, I_NEW, iput, the model page cache behind each inode's i_data),
// dentries as far as lookup and the root need them, the super_block of
// get_tree_bdev, mount options through fs_parse, and the calls the
// directory, symlink and export code only needs to link.
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <utility>

#include "model/kernel/block_device.h"
#include "model/kernel/filemap.h"
#include "model/kernel/fs.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/linux/bridge/aops.h"
#include "model/linux/bridge/registry.h"
#include "model/linux/bridge/run_state.h"

using squashlab::Kernel;
using squashlab::linux_bridge::Run;

extern "C" {
void* kmem_cache_alloc(struct kmem_cache* c, gfp_t flags);
int sl_fs_param_is_enum(struct p_log*, const struct fs_parameter_spec*,
                        struct fs_parameter*, struct fs_parse_result*);
int sl_fs_param_is_string(struct p_log*, const struct fs_parameter_spec*,
                          struct fs_parameter*, struct fs_parse_result*);
void iput(struct inode* i);
}

namespace {

constexpr unsigned long kINew = 1UL << 3;

// inode_init_always: the VFS fields, and the model page cache the MM reads
// through (its operations call the inode's C a_ops).
void InitInode(struct super_block* sb, struct inode* i) {
  Kernel& k = Kernel::Current();
  i->i_sb = sb;
  i->i_mapping = &i->i_data;
  i->i_data.host = i;
  i->i_data.gfp_mask = 0xd0;  // GFP_HIGHUSER_MOVABLE's sleeping bits
  i->i_count.counter = 1;
  i->i_state = 0;
  auto* mi = k.New<squashlab::inode>();
  mi->i_mapping = squashlab::new_address_space("squashfs inode");
  mi->i_mapping->host = mi;
  mi->i_mapping->a_ops = squashlab::linux_bridge::BridgeAops();
  i->sl_model = mi;
  i->i_data.sl_model = mi->i_mapping;
  Run().RegisterMapping(mi->i_mapping, &i->i_data);
  Run().inodes().push_back(i);
}

struct inode* AllocInode(struct super_block* sb) {
  struct inode* i = sb->s_op->alloc_inode(sb);
  if (i == nullptr) return nullptr;
  InitInode(sb, i);
  return i;
}

// The hash entry of `i`. It is hashed under the number iget_locked was
// given, which fill_super's read of the inode may have replaced in i_ino
// (squashfs_read_inode sets i_ino from the inode on disk; a corrupt image
// makes the two differ): found by pointer, as the kernel's sb->s_inodes
// list finds every inode at unmount whatever its number.
std::map<std::pair<struct super_block*, unsigned long>, struct inode*>::iterator
Hashed(struct inode* i) {
  auto& hash = Run().inode_hash();
  auto it = hash.find({i->i_sb, i->i_ino});
  if (it != hash.end() && it->second == i) return it;
  for (it = hash.begin(); it != hash.end(); ++it)
    if (it->second == i) return it;
  return hash.end();
}

void SyncModelInode(struct inode* i) {
  auto* mi = static_cast<squashlab::inode*>(i->sl_model);
  mi->i_size = static_cast<uint64_t>(i->i_size);
  mi->i_ino = i->i_ino;
}

}  // namespace

extern "C" {

void inode_init_once(struct inode* i) { std::memset(i, 0, sizeof *i); }
void init_special_inode(struct inode* i, umode_t mode, kabi::dev_t rdev) {
  i->i_mode = mode;
  i->i_rdev = rdev;
}
void* alloc_inode_sb(struct super_block*, struct kmem_cache* c, gfp_t g) {
  return kmem_cache_alloc(c, g);
}
struct inode* new_inode(struct super_block* sb) {
  return AllocInode(sb);
}

// fs/inode.c iget_locked: an inode found in the hash is returned once its
// reader has finished with it (wait_on_inode: I_NEW clear); one that
// reader failed (iget_failed unhashed it) is dropped and looked up again.
// The allocation of a new one may sleep: the hash is looked up again after
// it, and an inode another task hashed meanwhile wins (the new one is
// destroyed), as iget_locked does under inode_hash_lock.
struct inode* iget_locked(struct super_block* sb, unsigned long ino) {
  auto& hash = Run().inode_hash();
  for (;;) {
    auto it = hash.find({sb, ino});
    if (it == hash.end()) {
      struct inode* i = AllocInode(sb);
      if (i == nullptr) return nullptr;
      if (hash.find({sb, ino}) != hash.end()) {
        iput(i);  // unhashed, its only reference: destroyed
        continue;
      }
      i->i_ino = ino;
      i->i_state = kINew;
      hash[{sb, ino}] = i;
      return i;
    }
    struct inode* found = it->second;
    found->i_count.counter++;
    if (found->i_state & kINew) {
      Kernel& k = Kernel::Current();
      k.Point("wait_on_inode", ino);
      k.Sleep(
          Run().inode_wait(), [found] { return (found->i_state & kINew) == 0; },
          "wait_on_inode", ino);
    }
    if (Hashed(found) != hash.end()) return found;
    iput(found);
  }
}
void insert_inode_hash(struct inode* i) {
  Run().inode_hash()[{i->i_sb, i->i_ino}] = i;
  SyncModelInode(i);
}
void unlock_new_inode(struct inode* i) {
  i->i_state &= ~kINew;
  SyncModelInode(i);
  Kernel::Current().Wake(Run().inode_wait());
}
void make_bad_inode(struct inode* i) { i->i_mode = 0; }
void iget_failed(struct inode* i) {
  make_bad_inode(i);
  auto it = Hashed(i);
  if (it != Run().inode_hash().end()) Run().inode_hash().erase(it);
  unlock_new_inode(i);
  iput(i);
}
// An unhashed inode goes at its last reference; hashed ones stay cached
// until the super_block is killed.
void iput(struct inode* i) {
  if (i == nullptr) return;
  if (--i->i_count.counter > 0) return;
  if (Hashed(i) != Run().inode_hash().end()) return;
  auto& all = Run().inodes();
  for (auto& x : all)
    if (x == i) x = nullptr;
  if (i->i_sb->s_op->free_inode) i->i_sb->s_op->free_inode(i);
}

int sb_min_blocksize(struct super_block* sb, int size) {
  unsigned lbs = static_cast<squashlab::block_device*>(sb->s_bdev->sl_model)
                     ->logical_block_size;
  unsigned bs =
      static_cast<unsigned>(size) > lbs ? static_cast<unsigned>(size) : lbs;
  sb->s_blocksize = bs;
  sb->s_blocksize_bits = static_cast<unsigned char>(__builtin_ctz(bs));
  return static_cast<int>(bs);
}
int sync_filesystem(struct super_block*) { return 0; }

int register_filesystem(struct file_system_type* fs) {
  squashlab::linux_bridge::RegisterFilesystem(fs);
  return 0;
}
int unregister_filesystem(struct file_system_type*) { return 0; }

// generic_shutdown_super: the dcache's references go, unreferenced inodes
// are evicted (truncate_inode_pages_final locks every cached page first: a
// page left locked makes umount sleep forever), ->put_super runs, and an
// inode still referenced after it is "VFS: Busy inodes after unmount".
void kill_block_super(struct super_block* sb) {
  Kernel& k = Kernel::Current();
  for (struct inode* i : Run().inodes()) {
    if (i == nullptr || i->i_sb != sb) continue;
    auto* m = static_cast<squashlab::address_space*>(i->i_data.sl_model);
    for (const auto& [index, p] : m->page_tree) {
      if (!squashlab::PageLocked(p)) continue;
      k.Record(squashlab::Check::kHungTask,
               "INFO: task umount blocked for more than 120 seconds.",
               "INFO: task umount blocked for more than 120 seconds.\n"
               "in folio_lock from truncate_inode_pages_final (evict): the "
               "page stays locked and no task will unlock it\n" +
                   squashlab::dump_page(p));
      return;
    }
  }
  auto& hash = Run().inode_hash();
  for (struct inode*& i : Run().inodes()) {
    if (i == nullptr || i->i_sb != sb) continue;
    auto it = Hashed(i);
    if (it == hash.end()) continue;  // not the dcache's
    struct inode* gone = i;
    i = nullptr;
    hash.erase(it);
    if (sb->s_op->free_inode) sb->s_op->free_inode(gone);
  }
  if (sb->s_op->put_super) sb->s_op->put_super(sb);
  for (struct inode* i : Run().inodes()) {
    if (i == nullptr || i->i_sb != sb) continue;
    k.Warn(
        squashlab::ReportKind::kLeak, "VFS: Busy inodes after unmount of sda",
        "VFS: Busy inodes after unmount of sda (squashfs). Self-destruct "
        "in 5 seconds.  Have a nice day...\ninode " +
            std::to_string(i->i_ino) + " count " +
            std::to_string(i->i_count.counter) + " mode " +
            std::to_string(i->i_mode) + " state " + std::to_string(i->i_state));
    return;
  }
  k.NoteSuperBlockGone();
}

extern const struct file_operations generic_ro_fops = {};
extern const struct inode_operations page_symlink_inode_operations = {};
kabi::loff_t generic_file_llseek(struct file*, kabi::loff_t off, int) {
  return off;
}
long generic_read_dir(struct file*, char*, size_t, kabi::loff_t*) {
  return -EISDIR;
}
const char* page_get_link(struct dentry*, struct inode*, void*) {
  return nullptr;
}
int generic_getattr(void*, const void*, void*, u32, unsigned int) { return 0; }
int generic_encode_ino32_fh(struct inode*, __u32*, int*, struct inode*) {
  return 255;  // FILEID_INVALID: file handles are not modelled
}

struct dentry* d_make_root(struct inode* root) {
  if (root == nullptr) return nullptr;
  auto* d = Kernel::Current().New<struct dentry>();
  d->d_inode = root;
  d->d_sb = root->i_sb;
  d->d_parent = d;
  return d;
}
struct dentry* d_splice_alias(struct inode* i, struct dentry* d) {
  if (reinterpret_cast<uintptr_t>(i) >= static_cast<uintptr_t>(-4095))
    return reinterpret_cast<struct dentry*>(i);
  d->d_inode = i;
  return nullptr;
}
// fs/dcache.c d_obtain_alias: an ERR_PTR inode passes through, NULL is
// -ESTALE (squashfs_export_iget hands over squashfs_iget's result as is).
struct dentry* d_obtain_alias(struct inode* i) {
  if (i == nullptr) return reinterpret_cast<struct dentry*>(-ESTALE);
  if (reinterpret_cast<uintptr_t>(i) >= static_cast<uintptr_t>(-4095))
    return reinterpret_cast<struct dentry*>(i);
  return d_make_root(i);
}

// The walker runs as root (a fuzzer's executor does): the trusted xattrs
// are listed (fs/squashfs/xattr.c squashfs_trusted_xattr_handler_list).
bool capable(int) { return true; }

void seq_printf(struct seq_file*, const char*, ...) {}
void seq_puts(struct seq_file*, const char*) {}

void sl_errorf(struct fs_context*, const char* fmt, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  Run().Log(std::string("squashfs: ") + buf);
}

int sl_fs_param_is_enum(struct p_log*, const struct fs_parameter_spec*,
                        struct fs_parameter*, struct fs_parse_result*) {
  return 0;
}
int sl_fs_param_is_string(struct p_log*, const struct fs_parameter_spec*,
                          struct fs_parameter*, struct fs_parse_result*) {
  return 0;
}

// fs/fs_parser.c's fs_parse for the two kinds squashfs declares.
int fs_parse(struct fs_context* fc, const struct fs_parameter_spec* desc,
             struct fs_parameter* param, struct fs_parse_result* result) {
  for (const auto* p = desc; p->name != nullptr; p++) {
    if (std::strcmp(p->name, param->key) != 0) continue;
    if (p->type == sl_fs_param_is_string) return p->opt;
    if (p->type == sl_fs_param_is_enum) {
      const auto* table = static_cast<const struct constant_table*>(p->data);
      for (const auto* c = table; c->name != nullptr; c++) {
        if (std::strcmp(c->name, param->string) == 0) {
          result->uint_32 = static_cast<unsigned>(c->value);
          return p->opt;
        }
      }
      sl_errorf(fc, "Bad value for '%s'", param->key);
      return -EINVAL;
    }
  }
  sl_errorf(fc, "Unknown parameter '%s'", param->key);
  return -519;  // ENOPARAM
}

int get_tree_bdev(struct fs_context* fc,
                  int (*fill_super)(struct super_block*, struct fs_context*)) {
  auto* req = static_cast<squashlab::linux_bridge::MountRequest*>(fc->sl_model);
  auto* sb = Kernel::Current().New<struct super_block>();
  sb->s_bdev = req->bdev;
  sb->s_type = fc->fs_type;
  sb->s_flags = fc->sb_flags;
  std::snprintf(sb->s_id, sizeof sb->s_id, "%s", "sda");
  int err = fill_super(sb, fc);
  if (err) {
    if (sb->s_fs_info && sb->s_op && sb->s_op->put_super)
      sb->s_op->put_super(sb);
    return err;
  }
  fc->root = sb->s_root;
  req->sb = sb;
  return 0;
}

}  // extern "C"
