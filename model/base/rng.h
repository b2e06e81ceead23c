// SPDX-License-Identifier: GPL-2.0-only
// This file implements Rng: the seeded pseudo-random source of the
// strategies and of fault plans (splitmix64; small, fast, reproducible).
#ifndef SQUASHLAB_MODEL_BASE_RNG_H_
#define SQUASHLAB_MODEL_BASE_RNG_H_

#include <cstdint>

namespace squashlab {

class Rng {
 public:
  explicit Rng(uint64_t seed = 1) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n): Next() % n. REQUIRES: n > 0. The strategies draw
  // among a few runnable tasks on every step: small divisors are spelt
  // out so that they compile to masks and multiplies, not a division.
  uint64_t Below(uint64_t n) {
    const uint64_t x = Next();
    switch (n) {
      case 1:
        return 0;
      case 2:
        return x % 2;
      case 3:
        return x % 3;
      case 4:
        return x % 4;
      default:
        return x % n;
    }
  }
  // Derives the seed of run `index` from a base seed.
  static uint64_t Mix(uint64_t base, uint64_t index) {
    Rng r(base ^ (index * 0xd1342543de82ef95ULL));
    return r.Next();
  }

 private:
  uint64_t state_;
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_BASE_RNG_H_
