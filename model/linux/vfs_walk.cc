// SPDX-License-Identifier: GPL-2.0-only
// This file implements the VFS calls of a user's walk over real kernel code.
#include "model/linux/vfs_walk.h"

#include <cerrno>
#include <cstring>

#include "model/kernel/kernel.h"
#include "model/linux/bridge/coverage.h"
#include "model/linux/include/squashlab/abi.h"

namespace squashlab {
namespace {

bool IsErrPtr(const void* p) {
  return reinterpret_cast<uintptr_t>(p) >= static_cast<uintptr_t>(-4095);
}
int PtrErr(const void* p) {
  return static_cast<int>(reinterpret_cast<intptr_t>(p));
}

// fs/readdir.c's getdents callback state: the entries so far.
struct WalkDirContext {
  ::dir_context ctx;  // first: the actor gets its address
  std::vector<LinuxDirent>* out;
  size_t max;
};

bool CollectEntry(::dir_context* ctx, const char* name, int len, kabi::loff_t,
                  kabi::u64 ino, unsigned type) {
  auto* w = reinterpret_cast<WalkDirContext*>(ctx);
  if (w->out->size() >= w->max) return false;
  if (len < 0) len = 0;
  w->out->push_back(
      LinuxDirent{std::string(name, static_cast<size_t>(len)), ino, type});
  return true;
}

// An open directory at `pos` (*f) and the dir_context that collects its
// entries into `out`, up to `max` in all.
WalkDirContext* OpenDirWalk(kabi::inode* dir, kabi::loff_t pos,
                            std::vector<LinuxDirent>* out, size_t max,
                            ::file** f) {
  Kernel& k = Kernel::Current();
  *f = k.New<::file>();
  (*f)->f_inode = dir;
  (*f)->f_mapping = dir->i_mapping;
  (*f)->f_pos = pos;
  auto* w = k.New<WalkDirContext>();
  w->ctx.actor = CollectEntry;
  w->ctx.pos = pos;
  w->out = out;
  w->max = max;
  return w;
}

::dentry* NewDentry(::super_block* sb, const std::string& name) {
  Kernel& k = Kernel::Current();
  auto* copy = k.New<std::string>(name);
  auto* d = k.New<::dentry>();
  d->d_name.len = static_cast<kabi::u32>(copy->size());
  d->d_name.name = reinterpret_cast<const unsigned char*>(copy->c_str());
  d->d_sb = sb;
  return d;
}

kabi::inode* FromDentry(::dentry* res, int* err) {
  if (res == nullptr) {
    *err = -ESTALE;
    return nullptr;
  }
  if (IsErrPtr(res)) {
    *err = PtrErr(res);
    return nullptr;
  }
  *err = 0;
  return res->d_inode;
}

}  // namespace

kabi::inode* LinuxRootInode(kabi::super_block* sb) {
  return sb->s_root ? sb->s_root->d_inode : nullptr;
}

int LinuxReadDir(kabi::inode* dir, size_t max, std::vector<LinuxDirent>* out) {
  if (dir->i_fop == nullptr || dir->i_fop->iterate_shared == nullptr)
    return -ENOTDIR;
  ::file* f = nullptr;
  WalkDirContext* w = OpenDirWalk(dir, 0, out, max, &f);
  // getdents calls ->iterate_shared until it emits nothing more.
  for (int round = 0; round < 64; round++) {
    const size_t before = out->size();
    const kabi::loff_t pos = w->ctx.pos;
    int err = dir->i_fop->iterate_shared(f, &w->ctx);
    if (err < 0) return err;
    if (out->size() == before || out->size() >= max || w->ctx.pos == pos) break;
  }
  return 0;
}

int LinuxGetdents(kabi::inode* dir, int64_t* pos, size_t room,
                  std::vector<LinuxDirent>* out) {
  if (dir->i_fop == nullptr || dir->i_fop->iterate_shared == nullptr)
    return -ENOTDIR;
  ::file* f = nullptr;
  WalkDirContext* w = OpenDirWalk(dir, *pos, out, out->size() + room, &f);
  const int err = dir->i_fop->iterate_shared(f, &w->ctx);
  *pos = w->ctx.pos;  // file->f_pos = ctx->pos
  return err < 0 ? err : 0;
}

kabi::inode* LinuxLookupIn(kabi::inode* dir, const std::string& name,
                           int* err) {
  if (dir->i_op == nullptr || dir->i_op->lookup == nullptr) {
    *err = -ENOTDIR;
    return nullptr;
  }
  ::dentry* d = NewDentry(dir->i_sb, name);
  ::dentry* res = dir->i_op->lookup(dir, d, 0);
  if (IsErrPtr(res)) {
    *err = PtrErr(res);
    return nullptr;
  }
  kabi::inode* i = res ? res->d_inode : d->d_inode;
  *err = i ? 0 : -ENOENT;
  return i;
}

int LinuxListXattr(kabi::inode* i, size_t max, std::vector<std::string>* out) {
  if (i->i_op == nullptr || i->i_op->listxattr == nullptr) return -EOPNOTSUPP;
  Kernel& k = Kernel::Current();
  ::dentry* d = NewDentry(i->i_sb, "");
  d->d_inode = i;
  long n = i->i_op->listxattr(d, nullptr, 0);
  if (n <= 0) return static_cast<int>(n);
  if (static_cast<size_t>(n) > max) return -E2BIG;
  // A user buffer: the walk's own memory, as read()'s is.
  auto* buf = k.New<std::vector<char>>(static_cast<size_t>(n));
  long got = i->i_op->listxattr(d, buf->data(), buf->size());
  if (got < 0) return static_cast<int>(got);
  if (static_cast<size_t>(got) > buf->size()) return -ERANGE;
  size_t at = 0;
  while (at < static_cast<size_t>(got)) {
    const char* s = buf->data() + at;
    const size_t len = strnlen(s, static_cast<size_t>(got) - at);
    out->emplace_back(s, len);
    at += len + 1;
  }
  return 0;
}

long LinuxGetXattr(kabi::inode* i, const std::string& name, size_t max,
                   std::string* value) {
  ::super_block* sb = i->i_sb;
  const ::xattr_handler* h = nullptr;
  std::string rest;
  for (const ::xattr_handler* const* p = sb->s_xattr; p && *p; p++) {
    const char* prefix = (*p)->prefix ? (*p)->prefix : (*p)->name;
    if (prefix == nullptr) continue;
    if ((*p)->name != nullptr && name == (*p)->name) {
      h = *p;
      break;
    }
    const size_t n = strlen(prefix);
    if (name.compare(0, n, prefix) == 0 && name.size() > n) {
      h = *p;
      rest = name.substr(n);
      break;
    }
  }
  if (h == nullptr || h->get == nullptr) return -EOPNOTSUPP;
  ::dentry* d = NewDentry(sb, "");
  d->d_inode = i;
  auto* key = Kernel::Current().New<std::string>(rest);
  int n = h->get(h, d, i, key->c_str(), nullptr, 0);
  if (n <= 0) return n;
  if (static_cast<size_t>(n) > max) return -E2BIG;
  auto* buf = Kernel::Current().New<std::vector<char>>(static_cast<size_t>(n));
  int got = h->get(h, d, i, key->c_str(), buf->data(), buf->size());
  if (got < 0) return got;
  if (static_cast<size_t>(got) > buf->size()) return -ERANGE;
  value->assign(buf->data(), static_cast<size_t>(got));
  return got;
}

bool LinuxExportable(kabi::super_block* sb) {
  return sb->s_export_op != nullptr && sb->s_export_op->fh_to_dentry != nullptr;
}

kabi::inode* LinuxFhToInode(kabi::super_block* sb, uint32_t ino, int* err) {
  auto* fid = Kernel::Current().New<::fid>();
  fid->i32.ino = ino;
  fid->i32.gen = 0;
  return FromDentry(
      sb->s_export_op->fh_to_dentry(sb, fid, 2, 1 /* FILEID_INO32_GEN */), err);
}

kabi::inode* LinuxGetParent(kabi::inode* dir, int* err) {
  ::super_block* sb = dir->i_sb;
  if (sb->s_export_op == nullptr || sb->s_export_op->get_parent == nullptr) {
    *err = -ESTALE;
    return nullptr;
  }
  auto* d = Kernel::Current().New<::dentry>();
  d->d_inode = dir;
  d->d_sb = sb;
  d->d_parent = d;
  return FromDentry(sb->s_export_op->get_parent(d), err);
}

unsigned LinuxInodeMode(const kabi::inode* i) { return i->i_mode; }
uint64_t LinuxInodeNumber(const kabi::inode* i) { return i->i_ino; }
int64_t LinuxInodeSize(const kabi::inode* i) { return i->i_size; }
inode* LinuxModelInode(kabi::inode* i) {
  return static_cast<inode*>(i->sl_model);
}

void LinuxCoverageEnable(bool on) { linux_bridge::EnableCoverage(on); }
size_t LinuxCoverageSites() { return linux_bridge::CoveredSites(); }
std::vector<std::string> LinuxFunctionsReached() {
  return linux_bridge::CoveredFunctions();
}

}  // namespace squashlab
