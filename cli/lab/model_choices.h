// SPDX-License-Identifier: GPL-2.0-only
// This file declares the names the command line accepts for the model's
// choices (read-path variants, decompressor strategies, workloads, CPU
// profiles), taken from the tables that define them.
#ifndef SQUASHLAB_CLI_LAB_MODEL_CHOICES_H_
#define SQUASHLAB_CLI_LAB_MODEL_CHOICES_H_

#include <string>
#include <vector>

namespace squashlab::cli {

std::vector<std::string> VariantNames();  // AllReadPaths()
// VariantNames() and "linux-src" (the tree `verify --source` builds).
std::vector<std::string> VariantNamesWithSource();
std::vector<std::string> DecompNames();         // AllDecompressors()
std::vector<std::string> WorkloadNames();       // Workloads()
std::vector<std::string> BenchScenarioNames();  // BenchScenarios()
// hw_emul profiles with a calibrated CPU (bench's --profile).
std::vector<std::string> BenchProfileNames();

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_LAB_MODEL_CHOICES_H_
