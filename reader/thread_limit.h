// SPDX-License-Identifier: GPL-2.0-only
// This file declares the bound an address-space limit puts on a pool of
// worker threads: each worker's stack is address space.
#ifndef SQUASHLAB_READER_THREAD_LIMIT_H_
#define SQUASHLAB_READER_THREAD_LIMIT_H_

namespace squashlab {

// At most `wanted`, and no more workers than a quarter of RLIMIT_AS holds
// stacks for (RLIMIT_STACK's size, 8 MiB by default), so the work's own
// buffers still fit under a limit (ulimit -v, a container's). Unlimited:
// `wanted`.
int WorkersTheLimitAllows(int wanted);

}  // namespace squashlab

#endif  // SQUASHLAB_READER_THREAD_LIMIT_H_
