// SPDX-License-Identifier: GPL-2.0-only
// This file implements the fuzz target of the id, fragment, export and xattr
// tables. Input: compressor (1 byte), kind (1: id, fragment, export, xattr),
// entry count (4; unused for xattr, whose count is in the region), table
// start (4), lower bound (4), n (1) and n entry indices (4 each), then the
// region that holds the table's metadata blocks and its pointer array.
#include <cstdint>
#include <vector>

#include "fuzz/fuzz_input.h"
#include "reader/image_bytes.h"
#include "reader/lookup_table.h"
#include "reader/xattr_table.h"

namespace squashlab::fuzz {
namespace {

constexpr struct {
  const char* name;
  uint32_t entry_size;
} kKinds[] = {{"id", 4}, {"fragment", 16}, {"export", 8}};

void FuzzLookup(const ImageBytes* bytes, Decompressor* d, int kind,
                uint32_t count, uint64_t start, uint64_t lower,
                const std::vector<uint32_t>& indices) {
  auto table = LookupTable::Open(bytes, d, kKinds[kind].name, start, count,
                                 kKinds[kind].entry_size, lower);
  if (!table.ok()) return;
  LookupTable* t = table->get();
  FUZZ_CHECK(t->count() == count);
  FUZZ_CHECK(t->array_end() <= bytes->size());
  FUZZ_CHECK(count == 0 ||
             (t->first_block() >= lower && t->first_block() < start));
  uint8_t entry[16];
  for (uint32_t i : indices) {
    Status s = t->Entry(i, entry);
    if (i >= count) FUZZ_CHECK(!s.ok());
  }
}

void FuzzXattr(const ImageBytes* bytes, Decompressor* d, uint64_t start,
               uint64_t lower, const std::vector<uint32_t>& indices) {
  auto table = XattrTable::Open(bytes, d, start, lower);
  if (!table.ok()) return;
  XattrTable* t = table->get();
  FUZZ_CHECK(t->kv_start() >= lower && t->kv_start() < start);
  std::vector<uint32_t> all(indices);
  for (uint32_t i = 0; i < t->count() && i < 64; ++i) all.push_back(i);
  for (uint32_t i : all) {
    auto xattrs = t->Get(i);
    if (!xattrs.ok()) continue;
    FUZZ_CHECK(i < t->count());
    FUZZ_CHECK(!xattrs->empty());
    for (const Xattr& x : *xattrs) {
      FUZZ_CHECK(x.name.find('.') != std::string::npos);
      FUZZ_CHECK(x.value.size() <= kMaxXattrValueSize);
    }
  }
}

}  // namespace
}  // namespace squashlab::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace squashlab;
  fuzz::FuzzInput in(data, size);
  auto codec = NewDecompressor(fuzz::PickCompressor(in.U8()));
  FUZZ_CHECK(codec.ok());
  const int kind = in.U8() % 4;
  const uint32_t count = in.U32();
  const uint64_t start = in.U32();
  const uint64_t lower = in.U32();
  std::vector<uint32_t> indices{0, count, count - 1, 0xFFFFFFFFu};
  for (int n = in.U8() % 8; n > 0; --n) indices.push_back(in.U32());
  auto bytes = ImageBytes::FromBuffer(in.Rest());
  if (kind == 3) {
    fuzz::FuzzXattr(bytes.get(), codec->get(), start, lower, indices);
  } else {
    fuzz::FuzzLookup(bytes.get(), codec->get(), kind, count, start, lower,
                     indices);
  }
  return 0;
}
