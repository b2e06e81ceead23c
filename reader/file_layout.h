// SPDX-License-Identifier: GPL-2.0-only
// This file implements FileLayout: where each piece ("chunk") of a regular
// file's data lives in the image — full blocks from the block list, sparse
// blocks, and the tail-end kept in a fragment block.
#ifndef SQUASHLAB_READER_FILE_LAYOUT_H_
#define SQUASHLAB_READER_FILE_LAYOUT_H_

#include <cstdint>
#include <vector>

#include "reader/inode.h"
#include "reader/lookup_table.h"

namespace squashlab {

// A data or fragment block as stored: position, stored size, compression.
struct StoredBlock {
  uint64_t start = 0;
  uint32_t stored_size = 0;  // 0 means a sparse (all-zero) block
  bool compressed = false;
};

// Decodes the size word of a data block or fragment: bit 24 marks an
// uncompressed block, the low 24 bits are the stored size.
StoredBlock DecodeBlockSize(uint64_t start, uint32_t word);

struct FileLayout {
  uint64_t file_size = 0;
  uint32_t block_size = 0;
  std::vector<StoredBlock> blocks;  // one per full block of the block list
  bool has_tail = false;            // the last chunk comes from a fragment
  StoredBlock fragment;             // the fragment block holding the tail
  uint32_t fragment_index = 0;
  uint32_t tail_offset = 0;  // the tail's offset in the fragment block

  uint64_t chunk_count() const { return blocks.size() + (has_tail ? 1 : 0); }
  uint64_t chunk_offset(uint64_t i) const { return i * block_size; }
  // Bytes that chunk i contributes to the file.
  uint32_t chunk_length(uint64_t i) const;
};

// Builds the layout of `file`: reads its block list from the inode table and
// its fragment entry, and checks that every block lies in the data area
// [data_start, data_end).
StatusOr<FileLayout> BuildFileLayout(MetadataReader* inode_table,
                                     LookupTable* fragments, const Inode& file,
                                     uint32_t block_size, uint64_t data_start,
                                     uint64_t data_end);

}  // namespace squashlab

#endif  // SQUASHLAB_READER_FILE_LAYOUT_H_
