// SPDX-License-Identifier: GPL-2.0-only
// This file implements the bytes of the generated files (cells of a
// splitmix64 stream, so any range can be made without the ones before it)
// and the canonical description of a tree.
#include "harness/images/content.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <sstream>

namespace squashlab::images {
namespace {

// splitmix64's output function.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

constexpr const char* kWords[] = {
    "squash", "block",     "page",  "fragment", "inode",  "table", "read",
    "cache",  "tail",      "zero",  "sparse",   "kernel", "folio", "data",
    "the",    "of",        "and",   "a",        "index",  "meta",  "xattr",
    "link",   "compress",  "lzo",   "xz",       "zstd",   "gzip",  "lz4",
    "file",   "directory", "mount", "image"};

// A fill's cells: each cell holds bytes no other cell of the file holds
// (a block read from the wrong place never compares equal), and repeats
// long runs of the file's own pattern, so that compressing it is fast even
// at gzip -9 or xz -6.
class Cells {
 public:
  explicit Cells(const Entry& e) : fill_(e.fill), seed_(e.seed) {
    if (fill_ == Fill::kBinary) {
      for (size_t k = 0; k < sizeof pattern_; k += 8) {
        uint64_t r = Mix(seed_ + 1 + k);
        std::memcpy(pattern_ + k, &r, 8);
      }
    } else if (fill_ == Fill::kText) {
      for (uint64_t r = Mix(seed_); paragraph_.size() < 600; r = Mix(r))
        paragraph_ += std::string(kWords[r % std::size(kWords)]) + " ";
    }
  }

  size_t size() const { return fill_ == Fill::kText ? 512 : 256; }

  void Make(uint64_t i, uint8_t* cell) const {
    const uint64_t h = Mix(seed_ ^ Mix(i));
    switch (fill_) {
      case Fill::kZero:
        std::memset(cell, 0, 256);
        return;
      case Fill::kRandom:
        for (int w = 0; w < 32; w++) {
          uint64_t r = Mix(h + static_cast<uint64_t>(w));
          std::memcpy(cell + 8 * w, &r, 8);
        }
        return;
      case Fill::kBinary:  // 64 nibbles of its own, then the pattern
        for (int w = 0; w < 4; w++) {
          const uint64_t r = Mix(h + static_cast<uint64_t>(w));
          for (int n = 0; n < 16; n++) cell[16 * w + n] = (r >> (4 * n)) & 15;
        }
        std::memcpy(cell + 64, pattern_, sizeof pattern_);
        return;
      case Fill::kText: {  // "%08x " numbered lines of the paragraph
        std::snprintf(reinterpret_cast<char*>(cell), 10, "%08llx ",
                      static_cast<unsigned long long>(i & 0xffffffffu));
        std::memcpy(cell + 9, paragraph_.data() + h % 64, 502);
        cell[511] = '\n';
        return;
      }
    }
  }

 private:
  Fill fill_;
  uint64_t seed_;
  uint8_t pattern_[192];
  std::string paragraph_;
};

}  // namespace

void FillBytes(const Entry& e, uint64_t offset, uint8_t* out, size_t n) {
  const Cells cells(e);
  const size_t cs = cells.size();
  uint8_t cell[512];
  size_t done = 0;
  while (done < n) {
    const uint64_t pos = offset + done;
    const uint64_t i = pos / cs;
    const size_t in = pos % cs;
    const size_t take = std::min(cs - in, n - done);
    cells.Make(i, cell);
    std::memcpy(out + done, cell + in, take);
    done += take;
  }
  for (uint64_t h : e.holes) {  // [lo, hi) is zero
    const uint64_t lo = std::max<uint64_t>(h * e.hole_size, offset);
    const uint64_t hi = std::min<uint64_t>((h + 1) * e.hole_size, offset + n);
    if (lo < hi) std::memset(out + (lo - offset), 0, hi - lo);
  }
}

std::string DescribeTree(const Tree& tree) {
  std::ostringstream s;
  for (const Entry& e : tree.entries) {
    s << static_cast<int>(e.kind) << ' ' << e.path << ' ' << e.mode << ' '
      << e.uid << ' ' << e.gid << ' ' << e.mtime << ' ' << e.size << ' '
      << static_cast<int>(e.fill) << ' ' << e.seed << ' ' << e.hole_size;
    for (uint64_t h : e.holes) s << " h" << h;
    s << " -> " << e.target;
    for (const XattrPair& x : e.xattrs)
      s << " x" << x.name << '=' << x.value.size() << ':' << x.value;
    s << '\n';
  }
  return s.str();
}

}  // namespace squashlab::images
