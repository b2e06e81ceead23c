// SPDX-License-Identifier: GPL-2.0-only
// This file implements the generator of model/README.md's contract table:
// it prints the registry (contracts.h) as markdown.
#include <cstdio>

#include "model/kernel/checkers/contracts.h"

int main() {
  std::fputs(squashlab::ContractsMarkdownTable().c_str(), stdout);
  return 0;
}
