// This file implements ImageBytes: the bytes of a SquashFS image, either a
// read-only memory map of a file or a buffer the caller hands over. Every
// access is a bounds-checked slice.
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
  static StatusOr<std::shared_ptr<const ImageBytes>> MapFile(const std::string& path);
  static std::shared_ptr<const ImageBytes> FromBuffer(std::vector<uint8_t> bytes);
  ~ImageBytes();
  ImageBytes(const ImageBytes&) = delete;
  ImageBytes& operator=(const ImageBytes&) = delete;

  uint64_t size() const { return size_; }
  // Returns [offset, offset+length) or kCorruption if it leaves the image.
  StatusOr<ByteSpan> Slice(uint64_t offset, uint64_t length) const;

 private:
  ImageBytes() = default;
  const uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
  void* map_ = nullptr;  // munmap'ed on destruction when set
  std::vector<uint8_t> owned_;
};

}  // namespace squashlab

#endif  // SQUASHLAB_READER_IMAGE_BYTES_H_
