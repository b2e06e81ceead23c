// SPDX-License-Identifier: GPL-2.0-only
// This file implements the whole-image fuzz target: open the bytes as an
// image, walk every directory and read every file, symlink and xattr
// (ScanImage, with caps so that a valid huge image is not a finding), then
// resolve paths, export-table entries and file ranges at odd offsets.
#include <cstdint>
#include <vector>

#include "fuzz/fuzz_input.h"
#include "reader/full_scan.h"
#include "reader/image.h"

namespace squashlab::fuzz {
namespace {

constexpr uint64_t kMaxInodes = 20000;
constexpr uint64_t kMaxFileBytes = 1u << 20;

void ReadRanges(Image* image) {
  auto root = image->Root();
  if (!root.ok()) return;
  auto entries = image->ReadDir(*root);
  if (!entries.ok()) return;
  std::vector<uint8_t> buf(70000);
  size_t files = 0;
  for (const DirEntry& e : *entries) {
    // Lookup by path must agree with the listing it came from.
    auto by_path = image->Lookup("/" + e.name);
    auto by_entry = image->ReadInode(e);
    FUZZ_CHECK(by_path.ok() == by_entry.ok() || !by_entry.ok());
    if (by_path.ok() && by_entry.ok())
      FUZZ_CHECK(by_path->ref == by_entry->ref);
    if (!by_entry.ok() || by_entry->type != InodeType::kFile || ++files > 8)
      continue;
    const uint64_t size = by_entry->file_size;
    for (uint64_t off :
         {uint64_t{0}, size / 3, size > 5 ? size - 5 : 0, size, size + 7}) {
      auto n = image->ReadFile(*by_entry, off, buf);
      if (!n.ok()) break;
      const uint64_t want =
          off >= size ? 0 : std::min<uint64_t>(buf.size(), size - off);
      FUZZ_CHECK(*n == want);
    }
  }
}

}  // namespace
}  // namespace squashlab::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace squashlab;
  auto image = Image::OpenBytes(std::vector<uint8_t>(data, data + size));
  if (!image.ok()) return 0;
  ScanLimits limits;
  limits.max_inodes = fuzz::kMaxInodes;
  limits.max_file_bytes = fuzz::kMaxFileBytes;
  limits.max_total_bytes = 16 * fuzz::kMaxFileBytes;  // hard-link amplification
  ScanStats stats;
  Status st = ScanImage(image->get(), limits, &stats);
  FUZZ_CHECK(stats.inodes <= fuzz::kMaxInodes + 1);
  FUZZ_CHECK(stats.file_bytes <=
             limits.max_total_bytes + image->get()->superblock().block_size);
  (void)st;
  fuzz::ReadRanges(image->get());
  const uint32_t n = image->get()->superblock().inode_count;
  for (uint32_t i : {0u, 1u, 2u, n / 2, n, n + 1})
    (void)image->get()->ExportLookup(i);
  return 0;
}
