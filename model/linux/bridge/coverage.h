// SPDX-License-Identifier: GPL-2.0-only
// This file implements the coverage of real kernel code a campaign reached:
// every function of the code under test that passed through a call site of
// the header layer (SL_AT: each call that can sleep, lock or report), by
// name. Off until enabled; one set per process.
#ifndef SQUASHLAB_MODEL_LINUX_BRIDGE_COVERAGE_H_
#define SQUASHLAB_MODEL_LINUX_BRIDGE_COVERAGE_H_

#include <cstddef>
#include <string>
#include <vector>

namespace squashlab::linux_bridge {

void EnableCoverage(bool on);
// Records the call site's `file` and `func` (string literals of the
// module: __FILE__, __func__) when enabled.
void CoverSite(const char* file, const char* func);
// How many distinct (file, function) sites so far: grows when a run
// reaches a function no run reached before.
size_t CoveredSites();
// The functions recorded so far, "file.c function", sorted; calls from
// the header layer's inline wrappers (.h files) are left out.
std::vector<std::string> CoveredFunctions();

}  // namespace squashlab::linux_bridge

#endif  // SQUASHLAB_MODEL_LINUX_BRIDGE_COVERAGE_H_
