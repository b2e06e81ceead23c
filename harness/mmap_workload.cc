// SPDX-License-Identifier: GPL-2.0-only
// This file implements the mapping readers of the `mmap` workload: a task
// maps a file and loads its pages through the page fault path in one order,
// checking each byte it sees against the oracle (workloads.h).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "harness/image_model.h"
#include "harness/workloads.h"
#include "model/base/rng.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/mm/filemap_fault.h"
#include "model/mm/filemap_read.h"

namespace squashlab {
namespace {

// The pages of a file of `size` bytes a mapping reader loads, in order.
std::vector<uint64_t> PagesToLoad(MmapOrder order, uint64_t size, uint64_t span,
                                  int count, uint64_t seed) {
  const uint64_t pages = (size + PAGE_SIZE - 1) / PAGE_SIZE;
  std::vector<uint64_t> out;
  if (pages == 0) return out;
  if (order == MmapOrder::kLastPage) return {pages - 1};
  if (order == MmapOrder::kRandom) {
    Rng rng(seed);
    for (int i = 0; i < count; i++) out.push_back(rng.Below(pages));
    return out;
  }
  // The first and last `span` bytes, or the whole file.
  const uint64_t span_pages = (span + PAGE_SIZE - 1) / PAGE_SIZE;
  for (uint64_t p = 0; p < pages; p++)
    if (pages <= 2 * span_pages || p < span_pages || p >= pages - span_pages)
      out.push_back(p);
  if (order == MmapOrder::kBackward) std::reverse(out.begin(), out.end());
  return out;
}

// One page loaded through the mapping and checked: the file's bytes, then
// zeros to the end of the page. False when the load took a SIGBUS.
bool CheckedLoad(vm_area_struct* vma, const FileModel* oracle, uint64_t index,
                 bool eio_allowed, std::vector<char>& buf) {
  Kernel& k = Kernel::Current();
  const uint64_t size = oracle->content.size();
  const uint64_t pos = index * PAGE_SIZE;
  buf.assign(PAGE_SIZE, 0);
  size_t done = 0;
  const vm_fault_t ret = mmap_load(vma, pos, buf.data(), PAGE_SIZE, &done);
  if (ret != 0) {
    if (eio_allowed) return false;
    k.Bug(Check::kWrongData,
          "squashlab: page fault on a valid page returned SIGBUS",
          "load from mmap(" + oracle->name + ") at offset " +
              std::to_string(pos) + " (page " + std::to_string(index) +
              ", i_size " + std::to_string(size) + "): " +
              (ret & VM_FAULT_OOM ? "VM_FAULT_OOM" : "VM_FAULT_SIGBUS"));
    return false;
  }
  const size_t in_file =
      static_cast<size_t>(std::min<uint64_t>(PAGE_SIZE, size - pos));
  if (std::memcmp(buf.data(), oracle->content.data() + pos, in_file) != 0) {
    for (size_t i = 0; i < in_file; i++) {
      if (buf[i] == oracle->content[pos + i]) continue;
      char body[240];
      std::snprintf(body, sizeof body,
                    "load from mmap(%s) at offset %llu: byte 0x%02x, the "
                    "image holds 0x%02x (page %llu)",
                    oracle->name.c_str(),
                    static_cast<unsigned long long>(pos + i),
                    static_cast<unsigned char>(buf[i]),
                    static_cast<unsigned char>(oracle->content[pos + i]),
                    static_cast<unsigned long long>(index));
      k.Bug(Check::kWrongData, "squashlab: read returned wrong bytes", body);
      break;
    }
  }
  for (size_t i = in_file; i < PAGE_SIZE; i++) {
    if (buf[i] == 0) continue;
    char body[260];
    std::snprintf(body, sizeof body,
                  "%s: the last page (index %llu) holds 0x%02x at offset %zu, "
                  "past EOF (i_size %llu): loaded through a mapping of the "
                  "file, where zeros belong",
                  oracle->name.c_str(), static_cast<unsigned long long>(index),
                  static_cast<unsigned char>(buf[i]), i,
                  static_cast<unsigned long long>(size));
    k.Bug(Check::kWrongData, "squashlab: the last page is not zero past EOF",
          body);
    break;
  }
  return true;
}

}  // namespace

void spawn_mmap_reader(Kernel& k, inode* ino, const FileModel* oracle,
                       MmapOrder order, bool madv_random, uint64_t span,
                       const ReaderOptions& opt, int count, uint64_t salt) {
  const uint64_t seed = Rng::Mix(k.config().seed, salt);
  TaskSpec s;
  s.name = opt.comm;
  s.context = TaskContext::kProcess;
  s.cpu = opt.cpu;
  s.body = [ino, oracle, order, madv_random, span, opt, count, seed] {
    const uint64_t size = oracle->content.size();
    if (size == 0) return;
    file* f = open_file(ino, opt.ra_pages);
    vm_area_struct* vma = mmap_file(f, 0, size, madv_random ? VM_RAND_READ : 0);
    std::vector<char> buf;
    for (uint64_t index : PagesToLoad(order, size, span, count, seed))
      if (!CheckedLoad(vma, oracle, index, opt.eio_allowed, buf)) break;
    munmap(vma);
  };
  k.Spawn(std::move(s));
}

}  // namespace squashlab
