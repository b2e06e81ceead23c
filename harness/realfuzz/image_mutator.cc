// SPDX-License-Identifier: GPL-2.0-only
// This file implements the structure-aware mutation of SquashFS images.
#include "harness/realfuzz/image_mutator.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <span>

#include "harness/realfuzz/image_fields.h"

namespace squashlab {

uint64_t ImageMutator::Next() {
  // splitmix64: small, fast, and the same everywhere.
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t ImageMutator::FieldValue(uint64_t old, size_t width,
                                  const std::vector<uint64_t>& values) {
  const uint64_t mask = width >= 8 ? ~0ULL : (1ULL << (8 * width)) - 1;
  const uint64_t top = 1ULL << (8 * width - 1);
  switch (Below(9)) {
    case 0:
      return 0;
    case 1:
      return mask;
    case 2:
      return Below(2) ? top : top - 1;
    case 3:
      return (old + 1 + Below(16)) & mask;
    case 4:
      return (old - 1 - Below(16)) & mask;
    case 5:
      return old ^ (1ULL << Below(8 * width));
    case 6:
      return values.empty() ? old : values[Below(values.size())] & mask;
    case 7: {  // a count or position of the image, just past it
      uint64_t v = values.empty() ? old : values[Below(values.size())];
      return (v + Below(3)) & mask;
    }
    default:
      return (old * 2 + Below(2)) & mask;
  }
}

size_t ImageMutator::ByteChange(uint8_t* data, size_t size,
                                std::vector<std::string>* what) {
  char line[96];
  if (size == 0) return size;
  const size_t at = Below(size);
  switch (Below(5)) {
    case 0:
      data[at] ^= static_cast<uint8_t>(1u << Below(8));
      std::snprintf(line, sizeof line, "bit flip at %zu", at);
      break;
    case 1:
      data[at] = static_cast<uint8_t>(Next());
      std::snprintf(line, sizeof line, "byte at %zu = 0x%02x", at, data[at]);
      break;
    case 2: {
      static const uint32_t kInteresting[] = {
          0,      1,      0x7f,   0x80,   0xff,       0x7fff,
          0x8000, 0xffff, 0x1000, 0x2000, 0x7fffffff, 0xffffffff};
      const size_t width = size_t{1} << Below(3);
      if (at + width > size) return size;
      const uint32_t v = kInteresting[Below(std::size(kInteresting))];
      for (size_t i = 0; i < width; i++) data[at + i] = uint8_t(v >> (8 * i));
      std::snprintf(line, sizeof line, "%zu bytes at %zu = 0x%x", width, at, v);
      break;
    }
    case 3: {
      const size_t from = Below(size);
      const size_t n =
          std::min<size_t>(1 + Below(64), size - std::max(at, from));
      std::memmove(data + at, data + from, n);
      std::snprintf(line, sizeof line, "%zu bytes from %zu copied to %zu", n,
                    from, at);
      break;
    }
    default:
      if (at < 96) return size;  // keep the superblock whole
      std::snprintf(line, sizeof line, "cut at %zu (of %zu)", at, size);
      size = at;
      break;
  }
  if (what) what->push_back(line);
  return size;
}

size_t ImageMutator::Mutate(uint8_t* data, size_t size, size_t max_size,
                            std::vector<std::string>* what) {
  if (size > max_size) size = max_size;
  const int changes = 1 + static_cast<int>(Below(4));
  for (int c = 0; c < changes; c++) {
    ImageFields map = ParseImageFields(std::span<const uint8_t>(data, size));
    if (map.fields.empty() || Below(3) == 0) {
      size = ByteChange(data, size, what);
      continue;
    }
    const ImageField& f = map.fields[Below(map.fields.size())];
    std::span<uint8_t> img(data, size);
    const uint64_t old = f.Read(img);
    uint64_t v = FieldValue(old, f.at.size(), map.values);
    if (f.kind == FieldKind::kMetadataLength && Below(3) == 0)
      v = old ^ 0x8000;  // the uncompressed bit
    if (f.kind == FieldKind::kBlockLength && Below(3) == 0)
      v = old ^ (1u << 24);
    f.Write(img, v);
    if (what) {
      char line[128];
      std::snprintf(line, sizeof line, "%s at %zu: 0x%llx -> 0x%llx",
                    f.name.c_str(), f.at[0],
                    static_cast<unsigned long long>(old),
                    static_cast<unsigned long long>(v));
      what->push_back(line);
    }
  }
  return size;
}

void ImageMutator::Mutate(std::vector<uint8_t>* image, size_t max_size,
                          std::vector<std::string>* what) {
  size_t n = Mutate(image->data(), image->size(),
                    std::min(max_size, image->size()), what);
  image->resize(n);
}

}  // namespace squashlab
