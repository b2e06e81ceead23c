// SPDX-License-Identifier: GPL-2.0-only
// This file implements GenTree: a RapidCheck generator of source trees with
// odd names, sizes around block boundaries, sparse regions, hard links,
// symlinks, fifos, xattrs, modes, times and, sometimes, a large directory.
#ifndef SQUASHLAB_PROPTESTS_TREE_GEN_H_
#define SQUASHLAB_PROPTESTS_TREE_GEN_H_

#include <rapidcheck.h>

#include "proptests/tree_model.h"

namespace squashlab::proptests {

rc::Gen<TreeModel> GenTree(uint32_t block_size);

}  // namespace squashlab::proptests

#endif  // SQUASHLAB_PROPTESTS_TREE_GEN_H_
