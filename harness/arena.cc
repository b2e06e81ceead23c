// SPDX-License-Identifier: GPL-2.0-only
// This file implements the arena's settings over model/kernel's SlabArena.
#include "harness/arena.h"

#include "model/kernel/slab_arena.h"

namespace squashlab {

const char* ArenaSizeEnv() { return SlabArena::kSizeEnv; }
size_t ArenaDefaultMiB() { return SlabArena::kDefaultBytes >> 20; }
size_t ArenaMaxMiB() { return SlabArena::kMaxMiB; }
bool SetArenaSizeMiB(size_t mib) { return SlabArena::SetSizeMiB(mib); }
void SetArenaFailureHandler(void (*handler)(const char* message)) {
  SlabArena::SetFailureHandler(handler);
}

}  // namespace squashlab
