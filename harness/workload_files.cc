// SPDX-License-Identifier: GPL-2.0-only
// This file implements the choice of a scenario's files by their shapes.
#include "harness/workload_files.h"

#include <algorithm>
#include <map>

namespace squashlab {
namespace {

// The files, largest first (ties in image order).
std::vector<const FileModel*> BySize(const ImageModel& m) {
  std::vector<const FileModel*> f;
  for (const auto& x : m.files) f.push_back(&x);
  std::stable_sort(f.begin(), f.end(),
                   [](const FileModel* a, const FileModel* b) {
                     return a->content.size() > b->content.size();
                   });
  return f;
}

// Whether another file's tail lies after f's in f's fragment block.
bool TailFollowed(const FileModel& f,
                  const std::map<uint32_t, uint32_t>& last_tail) {
  if (!f.layout.has_tail) return false;
  auto it = last_tail.find(f.layout.fragment_index);
  return it != last_tail.end() && it->second > f.layout.tail_offset;
}

// A file of whole blocks and a fragment tail, followed ones first.
const FileModel* WithTail(const std::vector<const FileModel*>& by_size,
                          const std::map<uint32_t, uint32_t>& last_tail) {
  for (const FileModel* x : by_size)
    if (x->layout.has_tail && !x->layout.blocks.empty() &&
        TailFollowed(*x, last_tail))
      return x;
  for (const FileModel* x : by_size)
    if (x->layout.has_tail && !x->layout.blocks.empty()) return x;
  return by_size.size() > 1 ? by_size[1] : by_size[0];
}

std::pair<const FileModel*, const FileModel*> SharingAFragment(
    const std::vector<const FileModel*>& by_size) {
  std::vector<const FileModel*> tails;
  for (auto it = by_size.rbegin(); it != by_size.rend(); ++it)
    if ((*it)->layout.has_tail) tails.push_back(*it);
  // The first tail (smallest first) whose block another holds, with the
  // next such one.
  std::map<uint32_t, int> in_block;
  for (const FileModel* t : tails) in_block[t->layout.fragment_index]++;
  for (size_t i = 0; i < tails.size(); i++) {
    const uint32_t block = tails[i]->layout.fragment_index;
    if (in_block[block] < 2) continue;
    for (size_t j = i + 1; j < tails.size(); j++)
      if (tails[j]->layout.fragment_index == block) return {tails[i], tails[j]};
  }
  if (tails.size() >= 2) return {tails[0], tails[1]};
  size_t n = by_size.size();
  return {by_size[n - 1], by_size[n > 1 ? n - 2 : 0]};
}

// A file's shape for `every`, as bits: its kinds of block, whether its
// tail is in a fragment, and whether another file's tail follows it there.
int ShapeOf(const FileModel& f, const std::map<uint32_t, uint32_t>& last) {
  const FileLayout& l = f.layout;
  int shape = l.has_tail ? 1 : 0;
  for (const StoredBlock& b : l.blocks) {
    if (b.stored_size == 0)
      shape |= 2;
    else if (!b.compressed)
      shape |= 4;
    else
      shape |= 8;
  }
  if (TailFollowed(f, last)) shape |= 16;
  return shape;
}

// The file whose last chunk spans the most pages (more than one) and
// ends mid-page; else none.
const FileModel* ShortEnd(const std::vector<const FileModel*>& by_size) {
  const FileModel* best = nullptr;
  uint32_t best_len = 0;
  for (const FileModel* x : by_size) {
    const FileLayout& l = x->layout;
    if (l.chunk_count() == 0 || l.file_size % 4096 == 0) continue;
    const uint64_t last = l.chunk_count() - 1;
    if (last < l.blocks.size() && l.blocks[last].stored_size == 0)
      continue;  // sparse: nothing read, nothing zeroed
    const uint32_t len = l.chunk_length(last);
    if (len > 4096 && len > best_len) best = x, best_len = len;
  }
  return best;
}

}  // namespace

std::vector<std::string> WorkloadFiles::Names(const std::string& w) const {
  std::vector<std::string> names;
  auto add = [&names](const FileModel* f) {
    if (std::find(names.begin(), names.end(), f->name) == names.end())
      names.push_back(f->name);
  };
  if (w == "every") {
    for (const FileModel* f : every) add(f);
    return names;
  }
  if (w == "readlink") {
    for (const FileModel* f : symlinks) add(f);
    return names;
  }
  for (const FileModel* f : {largest, tail, fragment_a, fragment_b}) add(f);
  if (w == "dontneed" && short_end != nullptr) add(short_end);
  return names;
}

WorkloadFiles ChooseWorkloadFiles(const ImageModel& image) {
  std::map<uint32_t, uint32_t> last_tail;  // fragment block -> last offset
  for (const FileModel& f : image.files)
    if (f.layout.has_tail) {
      uint32_t& at = last_tail[f.layout.fragment_index];
      at = std::max(at, f.layout.tail_offset);
    }
  WorkloadFiles w;
  const std::vector<const FileModel*> by_size = BySize(image);
  w.largest = by_size[0];
  w.tail = WithTail(by_size, last_tail);
  std::tie(w.fragment_a, w.fragment_b) = SharingAFragment(by_size);
  w.short_end = ShortEnd(by_size);
  std::map<int, int> of_shape;
  for (const FileModel& f : image.files) {
    if (w.every.size() >= 32) break;
    if (of_shape[ShapeOf(f, last_tail)]++ >= 4) continue;
    w.every.push_back(&f);
  }
  for (const FileModel& l : image.symlinks) {
    if (w.symlinks.size() >= 8) break;
    w.symlinks.push_back(&l);
  }
  return w;
}

}  // namespace squashlab
