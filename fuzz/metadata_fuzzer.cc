// SPDX-License-Identifier: GPL-2.0-only
// This file implements the metadata block reader fuzz target. Input:
// compressor (1 byte), read count n (1 byte), n reads of (offset: 4 bytes,
// length: 2 bytes), then a metadata region as stored in an image. It walks
// the block chain from the region start, then performs the reads, which
// cross block boundaries.
#include <cstdint>
#include <vector>

#include "fuzz/fuzz_input.h"
#include "reader/image_bytes.h"
#include "reader/metadata_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace squashlab;
  fuzz::FuzzInput in(data, size);
  auto codec = NewDecompressor(fuzz::PickCompressor(in.U8()));
  FUZZ_CHECK(codec.ok());
  const int nreads = in.U8() % 16;
  std::vector<std::pair<uint32_t, uint16_t>> reads;
  for (int i = 0; i < nreads; ++i) {
    uint32_t off = in.U32();
    reads.emplace_back(off, in.U16());
  }
  auto bytes = ImageBytes::FromBuffer(in.Rest());
  const uint64_t limit = bytes->size();
  MetadataReader reader(bytes.get(), codec->get(), 0, limit);
  uint64_t pos = 0;
  uint64_t blocks = 0;
  std::vector<uint64_t> starts;
  while (pos < limit) {
    auto block = reader.ReadBlock(pos);
    if (!block.ok()) break;
    const MetadataReader::Block* b = *block;
    FUZZ_CHECK(!b->data.empty() && b->data.size() <= kMetadataBlockSize);
    FUZZ_CHECK(b->next > pos + 2 && b->next <= limit);
    // A cached block must come back identical.
    auto again = reader.ReadBlock(pos);
    FUZZ_CHECK(again.ok() && (*again)->data == b->data);
    starts.push_back(pos);
    pos = b->next;
    ++blocks;
  }
  FUZZ_CHECK(reader.blocks_decoded() == blocks);
  for (const auto& [off, len] : reads) {
    // Mostly start at a real block; sometimes anywhere.
    const uint64_t block = starts.empty() || (off & 0x80)
                               ? off % (limit + 1)
                               : starts[off % starts.size()];
    MetaPos p{block, (off >> 8) % (kMetadataBlockSize + 1)};
    const MetaPos before = p;
    auto v = reader.ReadVector(&p, len);
    if (v.ok()) {
      FUZZ_CHECK(v->size() == len);
      FUZZ_CHECK(p.block >= before.block);
    }
  }
  return 0;
}
