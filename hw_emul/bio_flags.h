// SPDX-License-Identifier: GPL-2.0-only
// This file implements the request flags hw_emul reads from bio::bi_rw
// beyond model/bio.h's READ, WRITE and READA, with the kernel's names.
#ifndef SQUASHLAB_HW_EMUL_BIO_FLAGS_H_
#define SQUASHLAB_HW_EMUL_BIO_FLAGS_H_

#include "model/kernel/bio.h"

namespace squashlab {

// A synchronous request: someone waits on it (READ_SYNC in the kernel).
inline constexpr int REQ_SYNC = 1 << 4;
inline constexpr int READ_SYNC = READ | REQ_SYNC;

}  // namespace squashlab

#endif  // SQUASHLAB_HW_EMUL_BIO_FLAGS_H_
