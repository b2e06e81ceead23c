// SPDX-License-Identifier: GPL-2.0-only
// This file declares the reports of the seed thread — the kernel's own
// printouts that Phillip Lougher posted against the 2013 asynchronous
// readpage patch (docs/DESIGN.md, "References") — and which failure class
// titles stand for each: the verdict tells which of them a root cause
// explains.
#ifndef SQUASHLAB_CLI_LAB_SEED_OOPSES_H_
#define SQUASHLAB_CLI_LAB_SEED_OOPSES_H_

#include <string>
#include <vector>

namespace squashlab::cli {

struct SeedOops {
  std::string name;     // "oops 1", "oops 2": the thread's numbering
  std::string printed;  // what the thread's kernel printed, shortened
  // A class title containing this stands for the report.
  std::string title_part;
};

// In the order the thread shows them.
const std::vector<SeedOops>& SeedOopses();

// The seed reports `title` stands for (usually none or one).
std::vector<const SeedOops*> SeedOopsesOf(const std::string& title);

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_LAB_SEED_OOPSES_H_
