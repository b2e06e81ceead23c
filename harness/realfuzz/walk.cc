// SPDX-License-Identifier: GPL-2.0-only
// This file implements the walk of one image by real kernel code.
#include "harness/realfuzz/walk.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <set>

#include "harness/linux_mount.h"
#include "model/kernel/filemap.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/kernel/ram_disk.h"
#include "model/linux/module.h"
#include "model/linux/vfs_walk.h"
#include "model/mm/file_read.h"
#include "model/mm/filemap_read.h"

namespace squashlab {
namespace {

class Walker {
 public:
  Walker(kabi::super_block* sb, const WalkLimits& limits)
      : sb_(sb), limits_(limits) {}

  void Run() {
    kabi::inode* root = LinuxRootInode(sb_);
    if (root == nullptr) return;
    seen_.insert(root);
    Visit(root, 0);
    if (LinuxExportable(sb_)) ExportLookups();
  }

 private:
  void Visit(kabi::inode* i, int depth) {
    const unsigned mode = LinuxInodeMode(i);
    visited_.push_back(i);
    Xattrs(i);
    if (S_ISDIR(mode)) {
      if (depth < limits_.depth) Directory(i, depth);
    } else if (S_ISREG(mode)) {
      Regular(i);
    } else if (S_ISLNK(mode)) {
      Symlink(i);
    }
  }

  // getdents, then open (lookup) of every name it listed.
  void Directory(kabi::inode* dir, int depth) {
    std::vector<LinuxDirent> entries;
    if (LinuxReadDir(dir, limits_.entries_per_dir, &entries) < 0) return;
    for (const LinuxDirent& e : entries) {
      if (e.name == "." || e.name == "..") continue;
      if (seen_.size() >= limits_.inodes) return;
      int err = 0;
      kabi::inode* child = LinuxLookupIn(dir, e.name, &err);
      if (child == nullptr || !seen_.insert(child).second) continue;
      Visit(child, depth + 1);
    }
  }

  // Reads [pos, pos + len) within the file's and the walk's byte budget;
  // what reached the user is checked for bytes no one wrote.
  bool Read(file* f, uint64_t pos, size_t len, uint64_t* budget,
            const char* copy = "_copy_to_iter") {
    len = static_cast<size_t>(std::min<uint64_t>(len, *budget));
    len = static_cast<size_t>(std::min<uint64_t>(len, total_left_));
    if (len == 0) return false;
    buf_.resize(std::max(buf_.size(), len));
    int64_t ppos = static_cast<int64_t>(pos);
    long got = mm_file_read(f, buf_.data(), len, &ppos);
    *budget -= len;
    total_left_ -= len;
    if (got > 0) CheckInitialised(f, pos, static_cast<size_t>(got), copy);
    return got > 0;
  }

  // mm/kmsan (kmsan_copy_to_user): a run of kUninitRun bytes that still
  // hold a fresh page's pattern at their offsets was never written.
  void CheckInitialised(file* f, uint64_t pos, size_t n, const char* copy) {
    constexpr size_t kUninitRun = 16;
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
      const uint64_t at = pos + i;
      run = buf_[i] == UninitPagePattern(at % PAGE_SIZE) ? run + 1 : 0;
      if (run < kUninitRun) continue;
      const uint64_t first = at + 1 - kUninitRun;
      char body[256];
      std::snprintf(body, sizeof body,
                    "BUG: KMSAN: kernel-infoleak in %s\n"
                    "Bytes %llu-%llu of %zu are uninitialized\n"
                    "Uninit was created at:\n __alloc_pages (page index "
                    "%llu of inode %lu, never written since)\n",
                    copy, static_cast<unsigned long long>(first - pos),
                    static_cast<unsigned long long>(at - pos), n,
                    static_cast<unsigned long long>(first >> PAGE_SHIFT),
                    f->f_mapping->host ? f->f_mapping->host->i_ino : 0UL);
      std::string text = body;
      auto it = f->f_mapping->page_tree.find(first >> PAGE_SHIFT);
      if (it != f->f_mapping->page_tree.end()) text += dump_page(it->second);
      Kernel::Current().Bug(
          Check::kKmsanInfoleak,
          std::string("BUG: KMSAN: kernel-infoleak in ") + copy, text);
    }
  }

  // cat in 4 KiB, then 64 KiB reads from the start, odd-sized reads at odd
  // offsets, and the last page as mmap shows it (zeros past EOF).
  void Regular(kabi::inode* i) {
    inode* mi = LinuxModelInode(i);
    const int64_t isize = LinuxInodeSize(i);
    if (mi == nullptr || isize <= 0) return;
    const uint64_t size = static_cast<uint64_t>(isize);
    uint64_t budget = limits_.file_bytes;
    file* f = open_file(mi, 32);
    for (uint64_t pos = 0; pos < size; pos += 4096)
      if (!Read(f, pos, 4096, &budget) || pos >= budget) break;
    file* g = open_file(mi, 4);
    for (uint64_t pos = 0; pos < size; pos += 65536)
      if (!Read(g, pos, 65536, &budget)) break;
    file* h = open_file(mi, 0);
    for (uint64_t pos = 1; pos < size; pos = pos * 3 + 4093)
      if (!Read(h, pos, 1000, &budget)) break;
    const uint64_t last = (size - 1) & ~static_cast<uint64_t>(PAGE_SIZE - 1);
    file* t = open_file(mi, 32);
    if (Read(t, last, PAGE_SIZE, &budget) && size % PAGE_SIZE != 0)
      CheckZeroPastEof(t, size);
  }

  // The bytes past EOF of the last page: what a mapping of the file shows.
  void CheckZeroPastEof(file* f, uint64_t size) {
    size_t at = 0;
    unsigned char byte = 0;
    const pgoff_t last = (size - 1) >> PAGE_SHIFT;
    if (!OracleNonzeroTail(f->f_mapping, last, size % PAGE_SIZE, &at, &byte))
      return;
    char body[200];
    std::snprintf(body, sizeof body,
                  "the last page (index %llu) holds 0x%02x at offset %zu, "
                  "past EOF (i_size %llu): a mapping of the file shows it "
                  "where zeros belong",
                  static_cast<unsigned long long>(last), byte, at,
                  static_cast<unsigned long long>(size));
    Kernel::Current().Bug(Check::kWrongData,
                          "squashlab: the last page is not zero past EOF",
                          body);
  }

  // getfattr -d -m -: listxattr, then getxattr of every name listed (and
  // of one name no list shows), each the size first, then the bytes;
  // the VFS's limits (XATTR_LIST_MAX, XATTR_SIZE_MAX: 64 KiB).
  void Xattrs(kabi::inode* i) {
    std::vector<std::string> names;
    if (LinuxListXattr(i, 65536, &names) < 0) return;
    names.push_back("user.squashlab.absent");
    size_t left = limits_.xattrs_per_inode;
    for (const std::string& name : names) {
      if (left-- == 0) break;
      std::string value;
      LinuxGetXattr(i, name, 65536, &value);
    }
  }

  // readlink: page_get_link reads the target's first page.
  void Symlink(kabi::inode* i) {
    inode* mi = LinuxModelInode(i);
    if (mi == nullptr) return;
    uint64_t budget = PAGE_SIZE;
    Read(open_file(mi, 0), 0, PAGE_SIZE, &budget, "_copy_to_user");
  }

  // An NFS server's file handles: each inode by its number, each
  // directory's parent.
  void ExportLookups() {
    for (kabi::inode* i : visited_) {
      int err = 0;
      LinuxFhToInode(sb_, static_cast<uint32_t>(LinuxInodeNumber(i)), &err);
      if (S_ISDIR(LinuxInodeMode(i))) LinuxGetParent(i, &err);
    }
  }

  kabi::super_block* sb_;
  WalkLimits limits_;
  uint64_t total_left_ = limits_.total_bytes;
  std::set<kabi::inode*> seen_;
  std::vector<kabi::inode*> visited_;
  std::vector<char> buf_;
};

}  // namespace

StatusOr<WalkTarget> MakeWalkTarget(const std::string& variant,
                                    const std::string& decomp) {
  if (!IsLinuxVariant(variant))
    return Status::InvalidArgument(variant + " is not real kernel code");
  WalkTarget t;
  t.variant = variant;
  t.decomp = decomp;
  auto m = LinuxModuleFor(variant, decomp, &t.mount_options);
  if (!m.ok()) return m.status();
  t.module = *m;
  return t;
}

Scenario MakeWalkScenario(const WalkTarget& target,
                          std::shared_ptr<const std::vector<uint8_t>> image,
                          const WalkLimits& limits) {
  Scenario sc;
  sc.name = "walk/" + target.variant + "/" + target.decomp;
  sc.config.ncpus = 2;
  sc.config.max_steps = limits.max_steps;
  sc.config.debug = true;
  sc.config.kmsan = true;
  sc.config.mm_era = LinuxMmEra(target.variant);
  sc.irq_starts_commute = true;
  sc.setup = [target, image, limits](Kernel& k) {
    std::vector<unsigned char> bytes(image->begin(), image->end());
    bytes.resize((bytes.size() + 4095) / 4096 * 4096, 0);
    const uint64_t nr_bytes = bytes.size();
    auto* disk = k.New<RamDisk>(std::move(bytes), "sda");
    disk->bdev()->logical_block_size = 512;
    TaskSpec spec;
    spec.name = "syz-executor";
    spec.context = TaskContext::kProcess;
    spec.body = [&k, disk, nr_bytes, target, limits] {
      int err = 0;
      kabi::super_block* sb = LinuxMount(k, *target.module, disk->bdev(),
                                         nr_bytes, target.mount_options, &err);
      if (sb == nullptr) return;  // refused: the kernel says so, no oops
      k.AtQuiescence([sb] { LinuxUnmount(sb); });
      Walker(sb, limits).Run();
    };
    k.Spawn(std::move(spec));
  };
  return sc;
}

}  // namespace squashlab
