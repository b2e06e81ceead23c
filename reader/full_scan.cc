// SPDX-License-Identifier: GPL-2.0-only
// This file implements ScanImage with an explicit work list, so hostile
// nesting cannot exhaust the stack.
#include "reader/full_scan.h"

#include <unordered_set>
#include <vector>

namespace squashlab {
namespace {

void Mix(ScanStats* s, const uint8_t* p, size_t n) {
  for (size_t i = 0; i < n; ++i)
    s->checksum = (s->checksum ^ p[i]) * 1099511628211ull;
}

// Per-scan state reused across files: a fresh block buffer and codec
// context per file would cost more than small files' data.
struct Scratch {
  std::unique_ptr<DataReader::Context> ctx;
  std::vector<uint8_t> buf;
};

Status ScanFile(Image* image, const Inode& in, const ScanLimits& limits,
                Scratch* scratch, ScanStats* stats) {
  SQL_ASSIGN_OR_RETURN(FileLayout layout, image->Layout(in));
  uint64_t read = 0;
  for (uint64_t i = 0;
       i < layout.chunk_count() && read < limits.max_file_bytes &&
       stats->file_bytes + read < limits.max_total_bytes;
       ++i) {
    SQL_RETURN_IF_ERROR(image->data().ReadChunk(layout, i, scratch->ctx.get(),
                                                scratch->buf.data()));
    Mix(stats, scratch->buf.data(), layout.chunk_length(i));
    read += layout.chunk_length(i);
  }
  stats->file_bytes += read;
  return Status::Ok();
}

Status ScanInode(Image* image, const Inode& in, const ScanLimits& limits,
                 Scratch* scratch, ScanStats* stats) {
  ++stats->inodes;
  SQL_RETURN_IF_ERROR(image->Uid(in).status());
  SQL_RETURN_IF_ERROR(image->Gid(in).status());
  SQL_ASSIGN_OR_RETURN(auto xattrs, image->ListXattrs(in));
  for (const Xattr& x : xattrs) {
    ++stats->xattrs;
    Mix(stats, reinterpret_cast<const uint8_t*>(x.value.data()),
        x.value.size());
  }
  if (in.type == InodeType::kSymlink)
    Mix(stats, reinterpret_cast<const uint8_t*>(in.symlink_target.data()),
        in.symlink_target.size());
  if (in.type == InodeType::kFile)
    return ScanFile(image, in, limits, scratch, stats);
  return Status::Ok();
}

}  // namespace

Status ScanImage(Image* image, const ScanLimits& limits, ScanStats* stats) {
  SQL_ASSIGN_OR_RETURN(Inode root, image->Root());
  Scratch scratch;
  SQL_ASSIGN_OR_RETURN(scratch.ctx, image->data().NewContext());
  scratch.buf.resize(image->superblock().block_size);
  std::unordered_set<uint32_t> seen_dirs{root.inode_number};
  std::vector<Inode> todo{root};
  SQL_RETURN_IF_ERROR(ScanInode(image, root, limits, &scratch, stats));
  while (!todo.empty() && stats->inodes < limits.max_inodes) {
    Inode dir = std::move(todo.back());
    todo.pop_back();
    ++stats->directories;
    SQL_ASSIGN_OR_RETURN(auto entries, image->ReadDir(dir));
    for (const DirEntry& e : entries) {
      if (stats->inodes >= limits.max_inodes) break;
      Mix(stats, reinterpret_cast<const uint8_t*>(e.name.data()),
          e.name.size());
      SQL_ASSIGN_OR_RETURN(Inode in, image->ReadInode(e));
      SQL_RETURN_IF_ERROR(ScanInode(image, in, limits, &scratch, stats));
      if (in.type != InodeType::kDirectory) continue;
      if (!seen_dirs.insert(in.inode_number).second)
        return Status::Corruption("directory loop at '" + e.name + "'");
      todo.push_back(std::move(in));
    }
  }
  return Status::Ok();
}

}  // namespace squashlab
