// SPDX-License-Identifier: GPL-2.0-only
// This file implements the MM tests' file system (fake_page_fs.h).
#include "model/tests/fake_page_fs.h"

#include <algorithm>
#include <cstring>

namespace squashlab {

FakePageFs* g_fake_page_fs = nullptr;

namespace {

void Fill(page* p) {
  if (g_fake_page_fs->failing.count(p->index) == 0) {
    std::memset(page_address(p), static_cast<int>(p->index & 0xff), PAGE_SIZE);
    SetPageUptodate(p);
  }
  unlock_page(p);
}

void FakeReadahead(readahead_control* rac) {
  g_fake_page_fs->batches.emplace_back(rac->pages.front()->index,
                                       rac->pages.size());
  size_t n = std::min(g_fake_page_fs->take, rac->pages.size());
  std::vector<page*> taken(rac->pages.begin(), rac->pages.begin() + n);
  rac->pages.erase(rac->pages.begin(), rac->pages.begin() + n);
  for (page* p : taken) {
    Fill(p);
    put_page(p);
  }
}

}  // namespace

int FakeReadFolio(file*, page* p) {
  g_fake_page_fs->folio_reads.push_back(p->index);
  Fill(p);
  return 0;
}

const address_space_operations kFakePageFsOps = [] {
  address_space_operations ops;
  ops.readpage = FakeReadFolio;
  ops.readahead = FakeReadahead;
  return ops;
}();

inode* NewFakeFile(Kernel& k, unsigned long pages) {
  inode* ino = k.New<inode>();
  ino->i_size = pages * PAGE_SIZE;
  ino->i_mapping = new_address_space("fake");
  ino->i_mapping->host = ino;
  ino->i_mapping->a_ops = &kFakePageFsOps;
  return ino;
}

}  // namespace squashlab
