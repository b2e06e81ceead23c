// SPDX-License-Identifier: GPL-2.0-only
// This file declares the options that choose what is explored, shared by
// `verify` and `campaign`: the cells and their scenarios (--variant,
// --decomp, --workload, --kernel, --image), the fault plan, device and
// seed, and the exhaustive search's bound and reduction; and the slab
// arena's size, shared by every command that runs the model.
#ifndef SQUASHLAB_CLI_LAB_EXPLORATION_OPTIONS_H_
#define SQUASHLAB_CLI_LAB_EXPLORATION_OPTIONS_H_

namespace CLI {
class App;
}

namespace squashlab {
struct VerifyOptions;
}

namespace squashlab::cli {

void AddCellOptions(CLI::App* c, VerifyOptions* opt);
void AddPlanOptions(CLI::App* c, VerifyOptions* opt);   // faults, device, seed
void AddBoundOptions(CLI::App* c, VerifyOptions* opt);  // bound, --no-por
// --detector kcsan, --watchpoints (verify --source: a KCSAN build).
void AddDetectorOptions(CLI::App* c, VerifyOptions* opt);
// --arena-mb; once c is parsed, an arena that cannot be reserved or fills
// up ends the process with one line and the usage exit status.
void AddArenaOption(CLI::App* c);

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_LAB_EXPLORATION_OPTIONS_H_
