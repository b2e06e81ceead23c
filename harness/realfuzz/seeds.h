// SPDX-License-Identifier: GPL-2.0-only
// This file implements the seed images of `squashlab fuzz`: small images
// whose every table the mutator can reach — made by mksquashfs from a tiny
// tree (every inode type an unprivileged user can make: directories,
// files of whole blocks and tails, an empty and a sparse file, short and
// long symlinks, a fifo) with its metadata stored uncompressed (-noI -noD
// -noF -noX) under a few option sets — and the lab's embedded image (gzip
// metadata, 8K blocks). Made afresh in a temporary directory each time
// (about a tenth of a second).
#ifndef SQUASHLAB_HARNESS_REALFUZZ_SEEDS_H_
#define SQUASHLAB_HARNESS_REALFUZZ_SEEDS_H_

#include <string>
#include <vector>

#include "harness/realfuzz/seed_image.h"
#include "reader/status.h"

namespace squashlab {

// The default seeds (seeds.cc; the one with xattrs only where the
// temporary directory takes user.* xattrs); an error if mksquashfs is
// missing or fails.
StatusOr<std::vector<SeedImage>> DefaultFuzzSeeds();
// Image files and directories of them (every regular file inside).
StatusOr<std::vector<SeedImage>> LoadSeedImages(
    const std::vector<std::string>& paths);

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_REALFUZZ_SEEDS_H_
