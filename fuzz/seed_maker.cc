// SPDX-License-Identifier: GPL-2.0-only
// This file implements seed_maker, which cuts the seed corpus of every fuzz
// target out of real mksquashfs images: whole images, superblocks, metadata
// regions, inode tables with the references of real inodes, directories with
// their tables, lookup and xattr tables, and compressed blocks per codec,
// each with the small header its target reads (see fuzz_input.h).
//
// usage: seed_maker OUT_DIR IMAGE.sqfs...   (writes
// OUT_DIR/<target>/<image>-<n>)
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "reader/image.h"

namespace squashlab {
namespace {

using Bytes = std::vector<uint8_t>;

class Writer {
 public:
  explicit Writer(std::string out) : out_(std::move(out)) {}
  void Emit(const std::string& target, const std::string& image,
            const Bytes& b) {
    const std::string dir = out_ + "/" + target;
    std::filesystem::create_directories(dir);
    const std::string path =
        dir + "/" + image + "-" + std::to_string(count_[target]++);
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(b.data()), b.size());
  }

 private:
  std::string out_;
  std::unordered_map<std::string, int> count_;
};

void Put8(Bytes* b, uint8_t v) { b->push_back(v); }
void Put16(Bytes* b, uint16_t v) {
  Put8(b, v & 0xff);
  Put8(b, v >> 8);
}
void Put32(Bytes* b, uint32_t v) {
  Put16(b, v & 0xffff);
  Put16(b, v >> 16);
}
void Put64(Bytes* b, uint64_t v) {
  Put32(b, v & 0xffffffffu);
  Put32(b, v >> 32);
}
void Append(Bytes* b, ByteSpan s) { b->insert(b->end(), s.begin(), s.end()); }

ByteSpan Region(Image* img, uint64_t start, uint64_t end) {
  auto s = img->bytes().Slice(start, end > start ? end - start : 0);
  return s.ok() ? *s : ByteSpan();
}

struct Walked {
  std::vector<Inode> inodes;
  std::vector<std::vector<DirEntry>> listings;  // parallel to directories
  std::vector<Inode> directories;
};

Walked Walk(Image* img) {
  Walked w;
  auto root = img->Root();
  if (!root.ok()) return w;
  std::vector<Inode> todo{*root};
  w.inodes.push_back(*root);
  while (!todo.empty() && w.inodes.size() < 5000) {
    Inode dir = todo.back();
    todo.pop_back();
    auto entries = img->ReadDir(dir);
    if (!entries.ok()) continue;
    w.directories.push_back(dir);
    w.listings.push_back(*entries);
    for (const DirEntry& e : *entries) {
      auto in = img->ReadInode(e);
      if (!in.ok()) continue;
      w.inodes.push_back(*in);
      if (in->type == InodeType::kDirectory) todo.push_back(*in);
    }
  }
  return w;
}

uint8_t CompByte(const Superblock& sb) {
  return static_cast<uint8_t>(sb.compressor) - 1;
}

void EmitTables(Image* img, Writer* w, const std::string& name) {
  const Superblock& sb = img->superblock();
  const ImageBytes& bytes = img->bytes();
  struct T {
    int kind;
    uint64_t start;
    uint64_t count;
    uint32_t entry;
  };
  std::vector<T> tables{{0, sb.id_table_start, sb.id_count, 4}};
  if (sb.fragment_table_start != kInvalidTable)
    tables.push_back({1, sb.fragment_table_start, sb.fragment_count, 16});
  if (sb.export_table_start != kInvalidTable)
    tables.push_back({2, sb.export_table_start, sb.inode_count, 8});
  if (sb.xattr_id_table_start != kInvalidTable) {
    auto head = bytes.Slice(sb.xattr_id_table_start, 16);
    if (head.ok())
      tables.push_back(
          {3, sb.xattr_id_table_start, DecodeLe32(head->data() + 8), 16});
  }
  for (const T& t : tables) {
    const uint64_t array = t.kind == 3 ? t.start + 16 : t.start;
    const uint64_t nblocks =
        (t.count * t.entry + kMetadataBlockSize - 1) / kMetadataBlockSize;
    auto first = bytes.Slice(array, 8);
    if (!first.ok()) continue;
    uint64_t low = nblocks > 0 ? DecodeLe64(first->data()) : array;
    if (t.kind == 3)
      low = DecodeLe64(bytes.Slice(t.start, 8)->data());  // kv_start
    const uint64_t end = array + nblocks * 8;
    Bytes b;
    Put8(&b, CompByte(sb));
    Put8(&b, static_cast<uint8_t>(t.kind));
    Put32(&b, static_cast<uint32_t>(t.count));
    Put32(&b, static_cast<uint32_t>(t.start - low));
    Put32(&b, 0);  // lower bound: the region starts at the table's first block
    Put8(&b, 2);
    Put32(&b, 1);
    Put32(&b, static_cast<uint32_t>(t.count / 2));
    // Pointers are absolute image offsets: rebase them onto the region.
    Bytes region;
    Append(&region, Region(img, low, end));
    auto rebase = [&](uint64_t at) {
      if (at + 8 > region.size()) return;
      const uint64_t v = DecodeLe64(region.data() + at) - low;
      for (int k = 0; k < 8; ++k)
        region[at + k] = static_cast<uint8_t>(v >> (8 * k));
    };
    for (uint64_t i = 0; i < nblocks; ++i) rebase(array - low + i * 8);
    if (t.kind == 3) rebase(t.start - low);
    b.insert(b.end(), region.begin(), region.end());
    w->Emit("tables", name, b);
  }
}

void EmitBlocks(Image* img, const Walked& walked, Writer* w,
                const std::string& name) {
  const Superblock& sb = img->superblock();
  const std::string target =
      std::string("decompress_") + CompressorName(sb.compressor);
  int emitted = 0;
  std::set<uint64_t> seen;  // block starts: many files share one fragment
  auto emit = [&](uint32_t capacity, ByteSpan payload) {
    if (!seen.insert(reinterpret_cast<uintptr_t>(payload.data())).second)
      return;
    Bytes b;
    Put32(&b, capacity);
    Append(&b, payload);
    w->Emit(target, name, b);
    ++emitted;
  };
  // Metadata blocks of the inode and directory tables.
  for (uint64_t pos : {sb.inode_table_start, sb.directory_table_start}) {
    auto head = img->bytes().Slice(pos, 2);
    if (!head.ok()) continue;
    const uint16_t h = DecodeLe16(head->data());
    if (h & 0x8000) continue;
    emit(kMetadataBlockSize, Region(img, pos + 2, pos + 2 + (h & 0x7fff)));
  }
  for (const Inode& in : walked.inodes) {
    if (in.type != InodeType::kFile || emitted >= 12) continue;
    auto layout = img->Layout(in);
    if (!layout.ok()) continue;
    for (const StoredBlock& b : layout->blocks) {
      if (b.compressed && b.stored_size > 0 && emitted < 10)
        emit(sb.block_size, Region(img, b.start, b.start + b.stored_size));
    }
    if (layout->has_tail && layout->fragment.compressed)
      emit(sb.block_size,
           Region(img, layout->fragment.start,
                  layout->fragment.start + layout->fragment.stored_size));
  }
}

void EmitImage(const std::string& path, Writer* w) {
  std::ifstream f(path, std::ios::binary);
  Bytes bytes((std::istreambuf_iterator<char>(f)),
              std::istreambuf_iterator<char>());
  const std::string name = std::filesystem::path(path).stem().string();
  w->Emit("image", name, bytes);
  Bytes sbseed;
  Put64(&sbseed, bytes.size());
  sbseed.insert(sbseed.end(), bytes.begin(),
                bytes.begin() + std::min<size_t>(bytes.size(), 96));
  w->Emit("superblock", name, sbseed);
  auto opened = Image::OpenBytes(bytes);
  if (!opened.ok()) {
    std::fprintf(stderr, "seed_maker: %s: %s\n", path.c_str(),
                 opened.status().ToString().c_str());
    std::exit(1);
  }
  Image* img = opened->get();
  const Superblock& sb = img->superblock();
  const uint8_t comp = CompByte(sb);
  const Walked walked = Walk(img);
  ByteSpan inodes = Region(img, sb.inode_table_start, sb.directory_table_start);
  ByteSpan dirs =
      Region(img, sb.directory_table_start, img->tables().directory_limit);
  for (ByteSpan region : {inodes, dirs}) {
    Bytes b{comp, 3};
    for (uint32_t off : {0u, 5u << 8, 8190u << 8}) {
      Put32(&b, off);
      Put16(&b, 300);
    }
    Append(&b, region);
    w->Emit("metadata", name, b);
  }
  for (size_t first = 0; first < walked.inodes.size() && first < 64;
       first += 16) {
    Bytes b{comp, static_cast<uint8_t>(sb.block_log - 12), 16};
    for (size_t i = first; i < first + 16; ++i)
      Put64(&b, walked.inodes[i % walked.inodes.size()].ref);
    Append(&b, inodes);
    w->Emit("inode", name, b);
  }
  for (size_t d = 0; d < walked.directories.size() && d < 6; ++d) {
    Bytes b{comp};
    Put32(&b, sb.inode_count);
    Put64(&b, walked.directories[d].ref);
    Put32(&b, static_cast<uint32_t>(dirs.size()));
    const auto& listing = walked.listings[d];
    Put8(&b, 2);
    for (const std::string& n :
         {listing.empty() ? std::string("x") : listing.back().name,
          std::string("no_such_name")}) {
      Put8(&b, static_cast<uint8_t>(n.size()));
      b.insert(b.end(), n.begin(), n.end());
    }
    Append(&b, dirs);
    Append(&b, inodes);
    w->Emit("directory", name, b);
  }
  EmitTables(img, w, name);
  EmitBlocks(img, walked, w, name);
}

}  // namespace
}  // namespace squashlab

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: seed_maker OUT_DIR IMAGE.sqfs...\n");
    return 2;
  }
  squashlab::Writer w(argv[1]);
  for (int i = 2; i < argc; ++i) squashlab::EmitImage(argv[i], &w);
  return 0;
}
