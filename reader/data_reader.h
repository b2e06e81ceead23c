// This file implements DataReader: decoding one chunk of a file's data (a
// full block, a sparse block, or a tail-end cut from a fragment block). It is
// the thread-safe part of the reader, used by the parallel pipeline.
#ifndef SQUASHLAB_READER_DATA_READER_H_
#define SQUASHLAB_READER_DATA_READER_H_

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
  Status ReadChunk(const FileLayout& layout, uint64_t i, Context* ctx, uint8_t* out) const;

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
  static constexpr size_t kFragmentCacheSize = 8;
  mutable std::mutex mu_;
  mutable std::list<std::pair<uint64_t, Fragment>> fragments_;  // most recent first
};

}  // namespace squashlab

#endif  // SQUASHLAB_READER_DATA_READER_H_
