// SPDX-License-Identifier: GPL-2.0-only
// This file implements DataReader: decoding one chunk of a file's data (a
// full block, a sparse block, or a tail-end cut from a fragment block). It is
// the thread-safe part of the reader, used by the parallel pipeline.
#ifndef SQUASHLAB_READER_DATA_READER_H_
#define SQUASHLAB_READER_DATA_READER_H_

#include <future>
#include <list>
#include <memory>
#include <mutex>
#include <vector>

#include "reader/decompressor.h"
#include "reader/file_layout.h"
#include "reader/image_bytes.h"

namespace squashlab {

// Thread-safe. Each thread passes its own Context.
class DataReader {
 public:
  DataReader(std::shared_ptr<const ImageBytes> bytes, CompressorId compressor,
             uint32_t block_size);

  // A decompression stream and an input buffer for one thread.
  struct Context {
    std::unique_ptr<Decompressor> decompressor;
    std::vector<uint8_t> input;  // one stored block
  };
  StatusOr<std::unique_ptr<Context>> NewContext() const;

  // Writes the chunk_length(i) bytes of chunk i into out.
  Status ReadChunk(const FileLayout& layout, uint64_t i, Context* ctx,
                   uint8_t* out) const;

  // Decodes the fragment block that holds layout's tail into the shared
  // cache, so that the readers of the tails in it find it decoded (or being
  // decoded) instead of each waiting for its own decode.
  Status WarmFragment(const FileLayout& layout, Context* ctx) const;

  uint32_t block_size() const { return block_size_; }

 private:
  // A decoded fragment block; not zero-filled first (it is decoded into).
  struct DecodedFragment {
    std::unique_ptr<uint8_t[]> bytes;
    size_t size = 0;
  };
  using Fragment = std::shared_ptr<const DecodedFragment>;
  StatusOr<Fragment> ReadFragment(const StoredBlock& b, Context* ctx) const;
  // Decodes a stored block into out[0, capacity); returns the decoded length.
  StatusOr<size_t> Decode(const StoredBlock& b, Context* ctx, uint8_t* out,
                          size_t capacity) const;

  std::shared_ptr<const ImageBytes> bytes_;
  CompressorId compressor_;
  uint32_t block_size_;
  // 16 MiB at 128K blocks: enough that a tree's walk order (which is not
  // the order mksquashfs filled the fragments in) rarely decodes one twice.
  static constexpr size_t kFragmentCacheSize = 128;
  mutable std::mutex mu_;
  // Most recent first. A fragment being decoded is in the list already, so
  // threads that need it at the same time wait for it rather than decode it
  // again (files that share a fragment are usually extracted together).
  mutable std::list<std::pair<uint64_t, std::shared_future<StatusOr<Fragment>>>>
      fragments_;
};

}  // namespace squashlab

#endif  // SQUASHLAB_READER_DATA_READER_H_
