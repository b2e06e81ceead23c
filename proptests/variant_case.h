// SPDX-License-Identifier: GPL-2.0-only
// This file implements VariantCase: one generated case of the variants
// property — an image (the embedded one, a testdata image, or one generated
// and packed by mksquashfs), a decompressor strategy, a named workload plus
// generated readers (file, dd block size, offsets, readahead window), a
// device (the RAM disk, or an hw_emul part's profile and logical block
// size), a fault plan (a named plan or one generated over hw_emul's
// grammar), an exploration strategy and a seed. RunVariant runs one read
// path over the case and snapshots, at quiescence, every uptodate page of
// every file's page cache, checking each against the oracle
// (harness/page_cache_check.h); ComparePages
// compares the snapshots of several variants of one case.
#ifndef SQUASHLAB_PROPTESTS_VARIANT_CASE_H_
#define SQUASHLAB_PROPTESTS_VARIANT_CASE_H_

#include <rapidcheck.h>

#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "harness/page_cache_check.h"
#include "harness/scenario_spec.h"
#include "proptests/image_gen.h"

namespace squashlab::proptests {

// A reader spawned beside the named workload.
struct ExtraReader {
  size_t file = 0;      // index into the image's files, modulo their number
  bool random = false;  // random 512-aligned reads instead of a sequential dd
  size_t bs = 4096;     // dd's block size, or each random read's length
  int start_permille = 0;  // dd: where it starts, in thousandths of the file
  int length_pages =
      0;  // dd: how far it reads (0: to the end); random: reads - 1
  unsigned ra_pages = 32;  // the open file's readahead window (0: none)
};

struct VariantCase {
  std::string image =
      "default";        // "default", "generated" or a testdata image name
  ImageSpec generated;  // when image == "generated"
  ScenarioSpec spec;    // spec.variant is set by each run
  std::vector<ExtraReader> readers;
  std::string strategy = "pct";  // "pct" or "random"
  uint64_t seed = 1;
};

void showValue(const VariantCase& c, std::ostream& os);

// The image a case runs over (cached).
StatusOr<std::shared_ptr<const ImageModel>> ImageOf(const VariantCase& c);

rc::Gen<VariantCase> GenVariantCase();

struct VariantRun {
  std::string report;  // "" when the run was clean and every page matched
  PageSnapshot pages;
};

// For tests of the checker itself: a hook that runs at quiescence before
// the page check (e.g. to flip one byte of one uptodate page).
struct RunHooks {
  bool corrupt_one_page = false;
};

VariantRun RunVariant(const VariantCase& c, const std::string& variant,
                      RunHooks hooks = {});

struct Comparison {
  std::string diff;     // "" when every page held by several variants agrees
  size_t shared = 0;    // pages held uptodate by two or more variants
  size_t unshared = 0;  // pages only one variant held (readahead differs)
};

// Pages present in several runs must be byte-identical; the diff names the
// variant that differs, from which one, where.
Comparison ComparePages(
    const std::vector<std::pair<std::string, const PageSnapshot*>>& runs);

}  // namespace squashlab::proptests

#endif  // SQUASHLAB_PROPTESTS_VARIANT_CASE_H_
