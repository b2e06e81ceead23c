// This file implements ImageBytes over mmap(2) or an owned buffer.
#include "reader/image_bytes.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace squashlab {

StatusOr<std::shared_ptr<const ImageBytes>> ImageBytes::MapFile(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::IoError(std::strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    return Status::IoError(std::strerror(e));
  }
  if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
    close(fd);
    return Status::IoError("not a regular file");
  }
  uint64_t size = static_cast<uint64_t>(st.st_size);
  if (S_ISBLK(st.st_mode)) {
    off_t end = lseek(fd, 0, SEEK_END);
    size = end > 0 ? static_cast<uint64_t>(end) : 0;
  }
  std::shared_ptr<ImageBytes> img(new ImageBytes());
  if (size > 0) {
    void* m = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) {
      int e = errno;
      close(fd);
      return Status::IoError(std::string("mmap: ") + std::strerror(e));
    }
    madvise(m, size, MADV_WILLNEED);
    img->map_ = m;
    img->data_ = static_cast<const uint8_t*>(m);
  }
  close(fd);
  img->size_ = size;
  return std::shared_ptr<const ImageBytes>(std::move(img));
}

std::shared_ptr<const ImageBytes> ImageBytes::FromBuffer(std::vector<uint8_t> bytes) {
  std::shared_ptr<ImageBytes> img(new ImageBytes());
  img->owned_ = std::move(bytes);
  img->data_ = img->owned_.data();
  img->size_ = img->owned_.size();
  return img;
}

ImageBytes::~ImageBytes() {
  if (map_ != nullptr) munmap(map_, size_);
}

StatusOr<ByteSpan> ImageBytes::Slice(uint64_t offset, uint64_t length) const {
  if (offset > size_ || length > size_ - offset) {
    return Status::Corruption("read of " + std::to_string(length) + " bytes at " +
                              std::to_string(offset) + " is past the image end (" +
                              std::to_string(size_) + ")");
  }
  return ByteSpan(data_ + offset, static_cast<size_t>(length));
}

}  // namespace squashlab
