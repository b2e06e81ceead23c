// SPDX-License-Identifier: GPL-2.0-only
// This file implements the seam between the model's MM and a real file
// system's address_space_operations: the model mapping of each real inode
// gets operations that call the C ->read_folio and ->readahead, and the
// readahead_control of a ->readahead call (the window, __readahead_batch,
// readahead_expand) with mm/readahead.c's ownership rules: a batched page's
// reference passes to the file system; the pages it did not take go back to
// the MM, which cleans them up as its read_pages does.
#include "model/linux/bridge/aops.h"

#include <map>
#include <utility>
#include <vector>

#include "model/kernel/filemap.h"
#include "model/kernel/fs.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"
#include "model/linux/bridge/run_state.h"

namespace squashlab::linux_bridge {
namespace {

// The pages of one ->readahead window, by index, and which the file
// system has taken through __readahead_batch.
struct Window {
  std::map<pgoff_t, squashlab::page*> pages;
  std::map<pgoff_t, bool> taken;
};

::address_space* CMappingOf(squashlab::address_space* m) {
  ::address_space* c = Run().CMapping(m);
  if (c == nullptr)
    Kernel::Current().Bug(ReportKind::kAssertion,
                          "BUG: model mapping without a real inode", m->name);
  return c;
}

// The file's readahead window passes to the C file before a call and back
// after it (readahead_expand and read_pages' clean-up move it).
void RaToC(const squashlab::file_ra_state& m, ::file_ra_state* c) {
  c->start = m.start;
  c->size = m.size;
  c->async_size = m.async_size;
  c->ra_pages = m.ra_pages;
  c->mmap_miss = m.mmap_miss;
  c->prev_pos = m.prev_pos;
}

void RaFromC(const ::file_ra_state& c, squashlab::file_ra_state* m) {
  m->start = c.start;
  m->size = c.size;
  m->async_size = c.async_size;
  m->ra_pages = c.ra_pages;
  m->mmap_miss = c.mmap_miss;
  m->prev_pos = c.prev_pos;
}

// include/linux/fs.h: FMODE_RANDOM, which posix_fadvise(POSIX_FADV_RANDOM)
// sets on the file (mm/fadvise.c generic_fadvise).
constexpr unsigned kFmodeRandom = 0x1000u;

::file* CFileSynced(squashlab::file* f, ::address_space* cm) {
  ::file* c = Run().CFile(f, cm);
  if (c != nullptr) {
    RaToC(f->f_ra, &c->f_ra);
    c->f_mode =
        f->random ? c->f_mode | kFmodeRandom : c->f_mode & ~kFmodeRandom;
  }
  return c;
}

int ReadFolio(squashlab::file* f, squashlab::page* p) {
  ::address_space* cm = CMappingOf(p->mapping);
  ::page* cp = Run().Shadow(p);
  ::file* cf = CFileSynced(f, cm);
  int ret = cm->a_ops->read_folio(cf, reinterpret_cast<::folio*>(cp));
  if (cf != nullptr) RaFromC(cf->f_ra, &f->f_ra);
  return ret;
}

// One contiguous run of a model readahead batch through the C ->readahead;
// the pages it did not take (readahead_expand's among them) go to `left`,
// still locked and holding the MM's reference.
void ReadaheadRun(::address_space* cm, ::file* cf, ::file_ra_state* ra,
                  const std::vector<squashlab::page*>& run,
                  std::vector<squashlab::page*>* left) {
  Window w;
  for (squashlab::page* p : run) w.pages[p->index] = p;
  ::readahead_control rac{};
  rac.file = cf;
  rac.mapping = cm;
  rac.ra = ra;
  rac._index = run.front()->index;
  rac._nr_pages = static_cast<unsigned>(run.size());
  rac._batch_count = 0;
  rac.sl_model = &w;
  cm->a_ops->readahead(&rac);
  for (auto& [index, p] : w.pages)
    if (!w.taken[index]) left->push_back(p);
}

void Readahead(squashlab::readahead_control* mrac) {
  if (mrac->pages.empty()) return;
  ::address_space* cm = CMappingOf(mrac->mapping);
  if (cm->a_ops->readahead == nullptr) {
    // mm/readahead.c read_pages without ->readahead (a symlink's
    // squashfs_symlink_aops): each page to ->read_folio, the MM's
    // reference dropped as readahead_folio does.
    for (squashlab::page* p : mrac->pages) {
      ReadFolio(mrac->file, p);
      squashlab::put_page(p);
    }
    mrac->pages.clear();
    return;
  }
  ::file* cf = CFileSynced(mrac->file, cm);
  ::file_ra_state ra{};
  if (cf == nullptr && mrac->ra != nullptr) RaToC(*mrac->ra, &ra);
  ::file_ra_state* cra = cf ? &cf->f_ra : &ra;
  std::vector<squashlab::page*> left, run;
  for (squashlab::page* p : mrac->pages) {
    if (!run.empty() && p->index != run.back()->index + 1) {
      ReadaheadRun(cm, cf, cra, run, &left);
      run.clear();
    }
    run.push_back(p);
  }
  if (!run.empty()) ReadaheadRun(cm, cf, cra, run, &left);
  mrac->pages = std::move(left);  // the MM cleans these up (read_pages)
  if (mrac->ra != nullptr) RaFromC(*cra, mrac->ra);
}

const squashlab::address_space_operations kBridgeOps = [] {
  squashlab::address_space_operations ops;
  ops.readpage = ReadFolio;
  ops.readahead = Readahead;
  return ops;
}();

Window& W(::readahead_control* rac) {
  Kernel::Current().CheckPtr(rac, "readahead_control");
  return *static_cast<Window*>(rac->sl_model);
}

}  // namespace

const squashlab::address_space_operations* BridgeAops() { return &kBridgeOps; }

}  // namespace squashlab::linux_bridge

using squashlab::Kernel;
using squashlab::ReportKind;
using squashlab::linux_bridge::Run;
using squashlab::linux_bridge::W;

extern "C" {

unsigned int __readahead_batch(struct readahead_control* rac,
                               struct page** array, unsigned int array_sz) {
  auto& w = W(rac);
  Kernel& k = Kernel::Current();
  if (rac->_batch_count > rac->_nr_pages)
    k.Bug(ReportKind::kPageBug, "kernel BUG at include/linux/pagemap.h!",
          "__readahead_batch: _batch_count > _nr_pages");
  rac->_nr_pages -= rac->_batch_count;
  rac->_index += rac->_batch_count;
  rac->_batch_count = 0;
  unsigned int i = 0;
  for (pgoff_t idx = rac->_index;
       idx < rac->_index + rac->_nr_pages && i < array_sz; idx++) {
    auto it = w.pages.find(idx);
    if (it == w.pages.end()) break;
    if (!squashlab::PageLocked(it->second))
      k.DebugBug(ReportKind::kPageBug,
                 "VM_BUG_ON_PAGE(!PageLocked(page)) in __readahead_batch",
                 squashlab::dump_page(it->second));
    w.taken[idx] = true;
    array[i++] = Run().Shadow(it->second);
    rac->_batch_count++;
  }
  k.Point("__readahead_batch", i);
  return i;
}

struct page* readahead_page(struct readahead_control* rac) {
  struct page* p = nullptr;
  return __readahead_batch(rac, &p, 1) ? p : nullptr;
}

struct folio* readahead_folio(struct readahead_control* rac) {
  struct page* p = readahead_page(rac);
  if (p != nullptr)
    squashlab::put_page(
        squashlab::linux_bridge::ModelPage(p, "readahead_folio"));
  return reinterpret_cast<struct folio*>(p);
}

// mm/readahead.c's readahead_expand: grows the window backwards, then
// forwards, with new locked pages, stopping at the first index already
// cached.
void readahead_expand(struct readahead_control* rac, kabi::loff_t new_start,
                      size_t new_len) {
  auto& w = W(rac);
  auto* mapping =
      static_cast<squashlab::address_space*>(rac->mapping->sl_model);
  Kernel::Current().Point("readahead_expand", 0);
  auto add = [&](pgoff_t index) -> bool {
    if (squashlab::page_cache_has(mapping, index)) return false;
    squashlab::page* p = squashlab::page_cache_alloc_readahead(mapping);
    if (p == nullptr) return false;
    if (squashlab::add_to_page_cache_lru(p, mapping, index,
                                         squashlab::GFP_KERNEL) < 0) {
      squashlab::put_page(p);
      return false;
    }
    w.pages[index] = p;
    return true;
  };
  pgoff_t new_index = static_cast<pgoff_t>(new_start) / squashlab::PAGE_SIZE;
  while (rac->_index > new_index) {
    if (!add(rac->_index - 1)) return;
    rac->_nr_pages++;
    rac->_index--;
  }
  new_len += new_start - static_cast<kabi::loff_t>(rac->_index) *
                             static_cast<kabi::loff_t>(squashlab::PAGE_SIZE);
  size_t new_nr = (new_len + squashlab::PAGE_SIZE - 1) / squashlab::PAGE_SIZE;
  while (rac->_nr_pages < new_nr) {
    if (!add(rac->_index + rac->_nr_pages)) return;
    rac->_nr_pages++;
    if (rac->ra) {
      rac->ra->size++;
      rac->ra->async_size++;
    }
  }
}

}  // extern "C"
