// SPDX-License-Identifier: GPL-2.0-only
// This file declares the model's slab arena as a command sizes it
// (model/kernel/slab_arena.h): its size in MiB, the environment variable
// that sets it, and what happens when it cannot be reserved or fills up.
#ifndef SQUASHLAB_HARNESS_ARENA_H_
#define SQUASHLAB_HARNESS_ARENA_H_

#include <cstddef>

namespace squashlab {

// "SQUASHLAB_ARENA_MB": the arena's size in MiB when no command sets it.
const char* ArenaSizeEnv();
size_t ArenaDefaultMiB();
size_t ArenaMaxMiB();
// Before the first run; false when the arena is already reserved.
bool SetArenaSizeMiB(size_t mib);
// Called with one line when the arena cannot be reserved or fills up;
// without one the process aborts.
void SetArenaFailureHandler(void (*handler)(const char* message));

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_ARENA_H_
