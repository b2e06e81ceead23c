// SPDX-License-Identifier: GPL-2.0-only
// This file implements readahead_expand over the model's page cache
// (fs.h).
#include "model/kernel/fs.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"

namespace squashlab {
namespace {

// A new locked page at index in the cache, or nullptr when the index is
// taken (or the page cannot be added).
page* AddLocked(address_space* mapping, pgoff_t index) {
  if (page_cache_has(mapping, index)) return nullptr;
  page* p = page_cache_alloc_readahead(mapping);
  if (p == nullptr) return nullptr;
  if (add_to_page_cache_lru(p, mapping, index, GFP_KERNEL) < 0) {
    put_page(p);
    return nullptr;
  }
  return p;
}

}  // namespace

void readahead_expand(readahead_control* rac, uint64_t new_start,
                      size_t new_len) {
  Kernel::Current().Point("readahead_expand", 0);
  if (rac->pages.empty()) return;
  pgoff_t new_index = static_cast<pgoff_t>(new_start / PAGE_SIZE);
  while (rac->pages.front()->index > new_index) {
    page* p = AddLocked(rac->mapping, rac->pages.front()->index - 1);
    if (p == nullptr) return;
    rac->pages.insert(rac->pages.begin(), p);
  }
  uint64_t pos = static_cast<uint64_t>(rac->pages.front()->index) * PAGE_SIZE;
  uint64_t len = new_len + new_start - pos;
  size_t new_nr = static_cast<size_t>((len + PAGE_SIZE - 1) / PAGE_SIZE);
  while (rac->pages.size() < new_nr) {
    page* p = AddLocked(rac->mapping, rac->pages.back()->index + 1);
    if (p == nullptr) return;
    rac->pages.push_back(p);
    if (rac->ra != nullptr) {
      rac->ra->size++;
      rac->ra->async_size++;
    }
  }
}

}  // namespace squashlab
