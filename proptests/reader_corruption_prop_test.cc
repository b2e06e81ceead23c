// SPDX-License-Identifier: GPL-2.0-only
// Property: any single-byte or single-field corruption of a valid image
// (from every codec's test image) ends in a clean error or a complete scan —
// never a crash, a hang, or an allocation larger than a bound fixed by the
// format (the block size), whatever the corrupted counts say. test.sh runs it
// again under ASan+UBSan.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>

#include "proptests/allocation_meter.h"
#include "reader/full_scan.h"
#include "reader/image.h"
#include "testdata/expected_tree.h"

namespace squashlab::proptests {
namespace {

const std::vector<uint8_t>& Load(const std::string& name) {
  static std::map<std::string, std::vector<uint8_t>> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  return cache[name] = testdata::ImageBytesOf(name);
}

struct Corruption {
  std::string image;
  uint64_t offset = 0;
  int width = 1;  // 1: xor a byte; 2/4/8: overwrite a field
  uint64_t value = 0;
};

void showValue(const Corruption& c, std::ostream& os) {
  os << c.image << " offset " << c.offset << (c.width == 1 ? " xor " : " set u")
     << (c.width == 1 ? 0 : c.width * 8) << " " << c.value;
}

rc::Gen<Corruption> GenCorruption() {
  return rc::gen::exec([] {
    Corruption c;
    c.image = *rc::gen::element<std::string>(
        "tree_gzip", "tree_lzma", "tree_lzo", "tree_lz4", "tree_xz",
        "tree_zstd", "tree_raw", "tree_4k_nofrag");
    const auto& bytes = Load(c.image);
    // Half the cases aim at the superblock and tables, where counts live.
    const uint64_t tables = DecodeLe64(bytes.data() + 64);
    const bool in_tables = *rc::gen::arbitrary<bool>();
    c.width = *rc::gen::element(1, 2, 4, 8);
    const uint64_t lo = in_tables ? tables : 0;
    c.offset = *rc::gen::inRange<uint64_t>(lo, bytes.size() - 8);
    if (*rc::gen::inRange(0, 6) == 0)
      c.offset = *rc::gen::inRange<uint64_t>(0, 96);
    c.value =
        c.width == 1
            ? *rc::gen::inRange<uint64_t>(1, 256)
            : *rc::gen::oneOf(rc::gen::element<uint64_t>(
                                  0, ~0ull, 0x7fffffff, 0xFFFFFF1F, 1ull << 40),
                              rc::gen::arbitrary<uint64_t>());
    return c;
  });
}

RC_GTEST_PROP(ReaderRobustness, AnyCorruptionEndsCleanlyWithBoundedAllocation,
              ()) {
  const Corruption c = *GenCorruption();
  std::vector<uint8_t> bytes = Load(c.image);
  if (c.width == 1) {
    bytes[c.offset] ^= static_cast<uint8_t>(c.value);
  } else {
    for (int i = 0; i < c.width; ++i)
      bytes[c.offset + i] = static_cast<uint8_t>(c.value >> (8 * i));
  }
  Status result;
  size_t largest = 0;
  {
    AllocationMeter meter;
    auto img = Image::OpenBytes(std::move(bytes));
    if (img.ok()) {
      ScanStats stats;
      ScanLimits limits;
      limits.max_file_bytes = 1 << 20;
      result = ScanImage(img->get(), limits, &stats);
    } else {
      result = img.status();
    }
    largest = AllocationMeter::largest();
  }
  RC_TAG(result.ok() ? "scanned" : "rejected");
  // The image bytes themselves were allocated before the meter; inside it
  // the largest legitimate buffer is one block (at most 1 MiB) per stream.
  RC_ASSERT(largest > 0u);  // the meter sees the reader's own buffers
  RC_ASSERT(largest <= size_t{4} << 20);
}

}  // namespace
}  // namespace squashlab::proptests
