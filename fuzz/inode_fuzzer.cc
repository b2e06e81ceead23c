// SPDX-License-Identifier: GPL-2.0-only
// This file implements the inode decoder fuzz target. Input: compressor
// (1 byte), block_log selector (1 byte), n (1 byte), n inode references
// (8 bytes each), then an inode table as stored in an image. Each decoded
// inode must satisfy DecodeInode's validation; each regular file's block
// list must lay out exactly its size.
#include <cstdint>
#include <vector>

#include "fuzz/fuzz_input.h"
#include "reader/file_layout.h"
#include "reader/image_bytes.h"
#include "reader/inode.h"
#include "reader/metadata_reader.h"

namespace squashlab::fuzz {
namespace {

void CheckInode(const Inode& in, uint32_t block_size) {
  FUZZ_CHECK(in.inode_number != 0);
  FUZZ_CHECK(static_cast<int>(in.type) >= 1 && static_cast<int>(in.type) <= 7);
  FUZZ_CHECK((in.permissions & ~07777) == 0);
  (void)in.mode();
  (void)in.size();
  switch (in.type) {
    case InodeType::kDirectory:
      FUZZ_CHECK(in.dir_file_size >= 3);
      FUZZ_CHECK(in.dir_offset < kMetadataBlockSize);
      break;
    case InodeType::kFile:
      if (in.has_fragment()) {
        FUZZ_CHECK(in.fragment_offset < block_size);
        FUZZ_CHECK(in.file_size % block_size != 0);
        FUZZ_CHECK(in.block_count == in.file_size / block_size);
      } else {
        FUZZ_CHECK(in.block_count == in.file_size / block_size +
                                         (in.file_size % block_size != 0));
      }
      break;
    case InodeType::kSymlink:
      FUZZ_CHECK(!in.symlink_target.empty() &&
                 in.symlink_target.size() <= kMaxSymlinkSize);
      FUZZ_CHECK(in.symlink_target.find('\0') == std::string::npos);
      break;
    default:
      break;
  }
}

void CheckLayout(MetadataReader* table, const Inode& in, uint32_t block_size,
                 uint64_t limit) {
  auto layout = BuildFileLayout(table, nullptr, in, block_size, 0, limit);
  if (!layout.ok()) return;
  FUZZ_CHECK(!in.has_fragment());  // there is no fragment table here
  FUZZ_CHECK(layout->blocks.size() == in.block_count);
  uint64_t total = 0;
  for (uint64_t i = 0; i < layout->chunk_count(); ++i) {
    const uint32_t len = layout->chunk_length(i);
    FUZZ_CHECK(len > 0 && len <= block_size);
    total += len;
    const StoredBlock& b = layout->blocks[i];
    FUZZ_CHECK(b.stored_size <= block_size);
    if (b.stored_size > 0) FUZZ_CHECK(b.start + b.stored_size <= limit);
  }
  FUZZ_CHECK(total == in.file_size);
}

}  // namespace
}  // namespace squashlab::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace squashlab;
  fuzz::FuzzInput in(data, size);
  auto codec = NewDecompressor(fuzz::PickCompressor(in.U8()));
  FUZZ_CHECK(codec.ok());
  const uint32_t block_size = 1u << (12 + in.U8() % 9);
  const int nrefs = in.U8() % 32;
  std::vector<uint64_t> refs;
  for (int i = 0; i < nrefs; ++i) refs.push_back(in.U64());
  if (refs.empty()) refs.push_back(0);
  auto bytes = ImageBytes::FromBuffer(in.Rest());
  MetadataReader table(bytes.get(), codec->get(), 0, bytes->size());
  for (uint64_t ref : refs) {
    auto inode = DecodeInode(&table, ref, block_size);
    if (!inode.ok()) continue;
    FUZZ_CHECK(inode->ref == ref);
    fuzz::CheckInode(*inode, block_size);
    if (inode->type == InodeType::kFile)
      fuzz::CheckLayout(&table, *inode, block_size, bytes->size());
  }
  return 0;
}
