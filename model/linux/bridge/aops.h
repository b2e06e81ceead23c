// SPDX-License-Identifier: GPL-2.0-only
// This file implements the declaration of the model-side operations of a
// real file system's mappings (aops.cc).
#ifndef SQUASHLAB_MODEL_LINUX_BRIDGE_AOPS_H_
#define SQUASHLAB_MODEL_LINUX_BRIDGE_AOPS_H_

#include "model/kernel/fs.h"

namespace squashlab::linux_bridge {

// ->readpage and ->readahead calling the C mapping's ->read_folio and
// ->readahead; installed on the model mapping of every real inode.
const address_space_operations* BridgeAops();

}  // namespace squashlab::linux_bridge

#endif  // SQUASHLAB_MODEL_LINUX_BRIDGE_AOPS_H_
