// SPDX-License-Identifier: GPL-2.0-only
// This file implements the directory reader fuzz target, index included.
// Input: compressor (1 byte), inode count (4), the directory inode's
// reference (8), the directory region's size (4), n (1) and n lookup names
// (1-byte length + bytes), then the directory table region followed by the
// inode table region, both as stored in an image. It lists the directory,
// then looks up every listed name and the given names through the index.
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/fuzz_input.h"
#include "reader/directory.h"
#include "reader/image_bytes.h"
#include "reader/inode.h"
#include "reader/metadata_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace squashlab;
  fuzz::FuzzInput in(data, size);
  auto codec = NewDecompressor(fuzz::PickCompressor(in.U8()));
  FUZZ_CHECK(codec.ok());
  const uint32_t inode_count = in.U32();
  const uint64_t ref = in.U64();
  const uint32_t dir_size = in.U32();
  std::vector<std::string> names;
  for (int n = in.U8() % 8; n > 0; --n) names.push_back(in.Bytes(in.U8()));
  auto bytes = ImageBytes::FromBuffer(in.Rest());
  const uint64_t split = std::min<uint64_t>(dir_size, bytes->size());
  MetadataReader dirs(bytes.get(), codec->get(), 0, split);
  MetadataReader inodes(bytes.get(), codec->get(), split, bytes->size());
  auto dir = DecodeInode(&inodes, ref, 1u << 17);
  if (!dir.ok()) return 0;
  DirectoryTables t{&dirs, &inodes, inode_count};
  auto listing = ReadDirectory(t, *dir);
  if (listing.ok()) {
    FUZZ_CHECK(dir->type == InodeType::kDirectory);
    FUZZ_CHECK(listing->size() <=
               dir->dir_file_size);  // an entry takes 9 bytes or more
    for (const DirEntry& e : *listing) {
      FUZZ_CHECK(IsSafeName(e.name) && e.name.size() <= 256);
      FUZZ_CHECK(e.inode_number >= 1 && e.inode_number <= inode_count);
      FUZZ_CHECK((e.inode_ref & 0xffff) < kMetadataBlockSize);
      if (names.size() < 64) names.push_back(e.name);
    }
  }
  for (const std::string& name : names) {
    auto found = LookupName(t, *dir, name);
    if (found.ok()) {
      FUZZ_CHECK(found->name == name);
      FUZZ_CHECK(IsSafeName(found->name));
    }
  }
  return 0;
}
