// SPDX-License-Identifier: GPL-2.0-only
// This file declares the loading of a user's kernel tree as read path
// `linux-src`: its fs/squashfs compiled with the system C compiler against
// the header layer (model/linux/source_build.h; cached by content) and
// registered, so that verify explores it and repro replays its tokens.
#ifndef SQUASHLAB_HARNESS_SOURCE_TREE_H_
#define SQUASHLAB_HARNESS_SOURCE_TREE_H_

#include <ostream>
#include <string>

#include "reader/status.h"

namespace squashlab {

struct LoadedSourceTree {
  std::string dir;        // the fs/squashfs directory used
  bool cached = false;    // every module came from the cache
  bool by_mount = false;  // threads= chooses the strategy (6.2+)
};

// DIR is a fs/squashfs directory or a kernel tree's root. The compiler's
// output goes to `log` as it printed it; a failed build returns an error
// naming what the header layer lacks when that is the cause. `kcsan`:
// built as a KCSAN kernel is (model/linux/source_build.h).
StatusOr<LoadedSourceTree> LoadSourceTree(const std::string& dir,
                                          std::ostream* log,
                                          bool kcsan = false);

// Whether a replay token's scenario runs a KCSAN kernel (its tree must be
// loaded with kcsan to replay it); false for a token that does not parse.
bool TokenIsKcsan(const std::string& token);

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_SOURCE_TREE_H_
