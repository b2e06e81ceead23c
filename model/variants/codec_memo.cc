// SPDX-License-Identifier: GPL-2.0-only
// This file implements the memo of decoded blocks: a hash of the input
// picks the bucket, the stored input decides.
#include "model/variants/codec_memo.h"

#include <cstring>
#include <functional>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace squashlab {
namespace {

struct Entry {
  CompressorId codec;
  size_t room;
  std::vector<uint8_t> in, out;
};

struct Memo {
  std::mutex mu;
  std::unordered_multimap<size_t, Entry> entries;
  size_t bytes = 0;
};

Memo& TheMemo() {
  static Memo* m = new Memo;  // never destroyed: runs may end at exit
  return *m;
}

size_t Key(CompressorId codec, ByteSpan in) {
  std::string_view v(reinterpret_cast<const char*>(in.data()), in.size());
  return std::hash<std::string_view>()(v) ^ static_cast<size_t>(codec);
}

}  // namespace

long CodecMemo::Find(CompressorId codec, ByteSpan in, std::span<uint8_t> out) {
  Memo& m = TheMemo();
  size_t key = Key(codec, in);
  std::lock_guard<std::mutex> l(m.mu);
  auto [lo, hi] = m.entries.equal_range(key);
  for (auto it = lo; it != hi; ++it) {
    const Entry& e = it->second;
    if (e.codec != codec || e.room != out.size() || e.in.size() != in.size() ||
        std::memcmp(e.in.data(), in.data(), in.size()) != 0)
      continue;
    std::memcpy(out.data(), e.out.data(), e.out.size());
    return static_cast<long>(e.out.size());
  }
  return -1;
}

void CodecMemo::Add(CompressorId codec, ByteSpan in, size_t room,
                    std::span<const uint8_t> out) {
  Memo& m = TheMemo();
  size_t key = Key(codec, in);
  std::lock_guard<std::mutex> l(m.mu);
  if (m.bytes + in.size() + out.size() > kMaxBytes) return;
  Entry e{codec, room, {in.begin(), in.end()}, {out.begin(), out.end()}};
  m.bytes += in.size() + out.size();
  m.entries.emplace(key, std::move(e));
}

}  // namespace squashlab
