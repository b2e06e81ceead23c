// SPDX-License-Identifier: GPL-2.0-only
// This file gives what is built on the harness the model's seeded
// generator (model/base/rng.h: Rng, Rng::Mix), so that content generated
// above the harness comes from the same generator as the runs' own draws.
#ifndef SQUASHLAB_HARNESS_RNG_H_
#define SQUASHLAB_HARNESS_RNG_H_

#include "model/base/rng.h"

#endif  // SQUASHLAB_HARNESS_RNG_H_
