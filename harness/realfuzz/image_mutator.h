// SPDX-License-Identifier: GPL-2.0-only
// This file implements the structure-aware mutation of SquashFS images:
// one to four changes an input, each either a field of the image's map
// (image_fields.h) set to a value worth trying (zero, all ones, the sign
// bit, the value nearby, a count or table position of the image, the
// uncompressed bit flipped) or, one time in three, a byte-level change
// (a bit, a byte, an interesting integer anywhere, a copied chunk, a cut
// tail). The same seed and input give the same output: a finding is
// reproduced from its image alone.
#ifndef SQUASHLAB_HARNESS_REALFUZZ_IMAGE_MUTATOR_H_
#define SQUASHLAB_HARNESS_REALFUZZ_IMAGE_MUTATOR_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace squashlab {

class ImageMutator {
 public:
  explicit ImageMutator(uint64_t seed) : state_(seed * 2 + 1) {}

  // Mutates data[0, size) in place within max_size; returns the new size.
  // `what`, if set, receives one line per change ("inode.uid = 0x400").
  size_t Mutate(uint8_t* data, size_t size, size_t max_size,
                std::vector<std::string>* what = nullptr);
  // The same on a vector (kept within its size, or `max_size`).
  void Mutate(std::vector<uint8_t>* image, size_t max_size,
              std::vector<std::string>* what = nullptr);
  // A number below n (0 for 0), from the same stream.
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : Next() % n; }

 private:
  uint64_t Next();
  uint64_t FieldValue(uint64_t old, size_t width,
                      const std::vector<uint64_t>& values);
  size_t ByteChange(uint8_t* data, size_t size, std::vector<std::string>* what);

  uint64_t state_;
};

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_REALFUZZ_IMAGE_MUTATOR_H_
