// SPDX-License-Identifier: GPL-2.0-only
// This file implements the worker bound of an address-space limit.
#include "reader/thread_limit.h"

#include <sys/resource.h>

#include <algorithm>

namespace squashlab {

int WorkersTheLimitAllows(int wanted) {
  rlimit as{}, stack{};
  if (wanted <= 0 || getrlimit(RLIMIT_AS, &as) != 0 ||
      as.rlim_cur == RLIM_INFINITY)
    return wanted;
  rlim_t per = rlim_t{8} << 20;
  if (getrlimit(RLIMIT_STACK, &stack) == 0 && stack.rlim_cur != RLIM_INFINITY &&
      stack.rlim_cur > 0)
    per = stack.rlim_cur;
  const rlim_t allowed = as.rlim_cur / 4 / per;
  return static_cast<int>(
      std::min<rlim_t>(static_cast<rlim_t>(wanted), allowed));
}

}  // namespace squashlab
