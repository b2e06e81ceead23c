// SPDX-License-Identifier: GPL-2.0-only
// This file implements the page-cache check at quiescence.
#include "harness/page_cache_check.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "harness/image_model.h"
#include "harness/mount.h"
#include "model/kernel/filemap.h"
#include "model/kernel/kernel.h"
#include "model/kernel/page.h"

namespace squashlab {
namespace {

// The oracle's bytes of page `index` of a file: zeros past the end.
std::string ExpectedPage(const FileModel& f, unsigned long index) {
  std::string want(PAGE_SIZE, '\0');
  const uint64_t at = uint64_t{index} * PAGE_SIZE;
  if (at < f.content.size())
    f.content.copy(want.data(),
                   std::min<uint64_t>(PAGE_SIZE, f.content.size() - at), at);
  return want;
}

}  // namespace

void CheckUptodatePages(Kernel& k, const SquashfsMount& m,
                        const ImageModel& image, PageSnapshot* snap) {
  for (size_t i = 0; i < image.files.size(); i++) {
    const FileModel& f = image.files[i];
    for (const auto& [index, p] : m.inodes[i]->i_mapping->page_tree) {
      if (!(p->flags.load() & (1UL << PG_uptodate))) {
        snap->error_pages++;
        continue;
      }
      std::string got(p->data, PAGE_SIZE);
      const std::string want = ExpectedPage(f, index);
      auto [g, w] = std::mismatch(got.begin(), got.end(), want.begin());
      if (g != got.end()) {
        char body[240];
        std::snprintf(body, sizeof body,
                      "%s page %lu (file offset %llu): byte 0x%02x, the image "
                      "holds 0x%02x\n",
                      f.name.c_str(), index,
                      static_cast<unsigned long long>(
                          uint64_t{index} * PAGE_SIZE + (g - got.begin())),
                      static_cast<unsigned char>(*g),
                      static_cast<unsigned char>(*w));
        k.Record(Check::kWrongData,
                 "squashlab: uptodate page cache page holds wrong bytes",
                 body + dump_page(p));
        return;
      }
      snap->uptodate.emplace(PageKey{f.name, index}, std::move(got));
    }
  }
}

void CorruptOneUptodatePage(const SquashfsMount& m) {
  for (inode* ino : m.inodes) {
    for (const auto& [index, p] : ino->i_mapping->page_tree) {
      if (p->flags.load() & (1UL << PG_uptodate)) {
        p->data[index % PAGE_SIZE] ^= 0x20;
        return;
      }
    }
  }
}

}  // namespace squashlab
