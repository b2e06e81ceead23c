// SPDX-License-Identifier: GPL-2.0-only
// This file declares the page-cache check of a mounted image at
// quiescence: every uptodate page of every file must hold the oracle's
// bytes (zeros past the end of the file); a page that differs is a
// wrong-data report naming the file, the offset and the two bytes, with
// the page's dump. The pages that pass are kept, so that the runs of
// several read paths over one case can be compared page by page.
#ifndef SQUASHLAB_HARNESS_PAGE_CACHE_CHECK_H_
#define SQUASHLAB_HARNESS_PAGE_CACHE_CHECK_H_

#include <cstddef>
#include <map>
#include <string>
#include <utility>

namespace squashlab {

class Kernel;
struct ImageModel;
struct SquashfsMount;

// (file name, page index) -> the page's PAGE_SIZE bytes.
using PageKey = std::pair<std::string, unsigned long>;
struct PageSnapshot {
  std::map<PageKey, std::string> uptodate;
  size_t error_pages = 0;  // in a page cache, not uptodate (PG_error)
};

// Checks m's page caches against `image` and fills *snap; the first page
// that differs is recorded as a report on `k` and ends the check.
// REQUIRES: at quiescence (Kernel::AtQuiescence).
void CheckUptodatePages(Kernel& k, const SquashfsMount& m,
                        const ImageModel& image, PageSnapshot* snap);

// The check's own test: flips one byte of the first uptodate page.
void CorruptOneUptodatePage(const SquashfsMount& m);

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_PAGE_CACHE_CHECK_H_
