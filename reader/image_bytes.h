// SPDX-License-Identifier: GPL-2.0-only
// This file implements ImageBytes: the bytes of a SquashFS image, either a
// file (memory-mapped for the small metadata reads, pread(2) for file data so
// that streaming a large file does not grow the resident set) or a buffer
// the caller hands over. Every access is bounds-checked.
#ifndef SQUASHLAB_READER_IMAGE_BYTES_H_
#define SQUASHLAB_READER_IMAGE_BYTES_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "reader/le_decode.h"
#include "reader/status.h"

namespace squashlab {

// Thread-safe: immutable after creation.
class ImageBytes {
 public:
  static StatusOr<std::shared_ptr<const ImageBytes>> MapFile(
      const std::string& path);
  static std::shared_ptr<const ImageBytes> FromBuffer(
      std::vector<uint8_t> bytes);
  ~ImageBytes();
  ImageBytes(const ImageBytes&) = delete;
  ImageBytes& operator=(const ImageBytes&) = delete;

  uint64_t size() const { return size_; }
  // Returns [offset, offset+length) or kCorruption if it leaves the image.
  StatusOr<ByteSpan> Slice(uint64_t offset, uint64_t length) const;
  // Copies [offset, offset+length) into dst; kCorruption if it leaves the
  // image, kIoError if the file cannot be read. Thread-safe.
  Status ReadAt(uint64_t offset, uint64_t length, uint8_t* dst) const;

 private:
  ImageBytes() = default;
  const uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
  void* map_ = nullptr;  // munmap'ed on destruction when set
  int fd_ = -1;          // the file, for ReadAt; closed on destruction
  std::vector<uint8_t> owned_;
};

}  // namespace squashlab

#endif  // SQUASHLAB_READER_IMAGE_BYTES_H_
