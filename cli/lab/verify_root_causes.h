// SPDX-License-Identifier: GPL-2.0-only
// This file declares the grouping of a verify job's failure classes by
// root cause (harness/root_cause.h): one group per freed object (its
// allocation and free sites) or per first invalid access, each with the
// distinct classes it explains across the job's cells, the cells that
// found it and the seed thread's reports among its titles.
#ifndef SQUASHLAB_CLI_LAB_VERIFY_ROOT_CAUSES_H_
#define SQUASHLAB_CLI_LAB_VERIFY_ROOT_CAUSES_H_

#include <string>
#include <vector>

#include "cli/lab/seed_oopses.h"
#include "cli/lab/verify_classes.h"

namespace squashlab::cli {

struct RootCauseGroup {
  RootCause cause;                  // as its first class found it
  std::vector<FoundClass> classes;  // distinct by ClassKey, in order found
  std::vector<std::string> cells;   // "variant x decomp", in table order
  std::vector<const SeedOops*> seed_oopses;  // the seed reports explained
  size_t repro = 0;  // the class with the shortest minimised token
};

// The job's root causes, the ones explaining most classes first (ties in
// the order found).
std::vector<RootCauseGroup> GroupByRootCause(const VerifyResult& r);

// The groups' titles, those that differ only in the function after their
// last " in " merged: "BUG: KASAN: use-after-free in a, b".
std::vector<std::string> MergedTitles(const std::vector<FoundClass>& classes);

// The 1-based number of the group whose cause has `key`, 0 if none.
size_t GroupNumber(const std::vector<RootCauseGroup>& groups,
                   const std::string& key);

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_LAB_VERIFY_ROOT_CAUSES_H_
