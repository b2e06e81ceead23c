// SPDX-License-Identifier: GPL-2.0-only
// This file declares how the real producers are run: the command line of
// mksquashfs or gensquashfs for a shape, running a command with its output
// captured, and the producer's version (part of the cache key).
#ifndef SQUASHLAB_HARNESS_IMAGES_PRODUCER_H_
#define SQUASHLAB_HARNESS_IMAGES_PRODUCER_H_

#include <string>
#include <vector>

#include "harness/images/shape.h"
#include "reader/status.h"

namespace squashlab::images {

// The producer's argv that packs `src_dir` (or, for pack-file shapes, the
// pack file `pack_file` whose inputs are relative to `src_dir`) into `out`.
std::vector<std::string> ProducerArgs(const Shape& shape,
                                      const std::string& src_dir,
                                      const std::string& pack_file,
                                      const std::string& out);

// Runs argv[0] (looked up in PATH) with a clean environment, stdin from
// /dev/null. A failure names the command and what it printed.
Status RunCommand(const std::vector<std::string>& argv);

// The first line of `mksquashfs -version` or `gensquashfs --version`,
// asked once per process.
StatusOr<std::string> ProducerVersion(Producer p);

}  // namespace squashlab::images

#endif  // SQUASHLAB_HARNESS_IMAGES_PRODUCER_H_
