// SPDX-License-Identifier: GPL-2.0-only
// This file implements ImageBytes over mmap(2) or an owned buffer.
#include "reader/image_bytes.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace squashlab {

StatusOr<std::shared_ptr<const ImageBytes>> ImageBytes::MapFile(
    const std::string& path) {
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
    img->map_ = m;
    img->data_ = static_cast<const uint8_t*>(m);
  }
  img->fd_ = fd;
  img->size_ = size;
  return std::shared_ptr<const ImageBytes>(std::move(img));
}

std::shared_ptr<const ImageBytes> ImageBytes::FromBuffer(
    std::vector<uint8_t> bytes) {
  std::shared_ptr<ImageBytes> img(new ImageBytes());
  img->owned_ = std::move(bytes);
  img->data_ = img->owned_.data();
  img->size_ = img->owned_.size();
  return img;
}

ImageBytes::~ImageBytes() {
  if (map_ != nullptr) munmap(map_, size_);
  if (fd_ >= 0) close(fd_);
}

Status ImageBytes::ReadAt(uint64_t offset, uint64_t length,
                          uint8_t* dst) const {
  if (offset > size_ || length > size_ - offset)
    return Slice(offset, length).status();
  if (fd_ < 0) {
    std::memcpy(dst, data_ + offset, length);
    return Status::Ok();
  }
  uint64_t done = 0;
  while (done < length) {
    ssize_t n = pread(fd_, dst + done, length - done,
                      static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      return Status::IoError(std::string("read: ") + std::strerror(errno));
    if (n == 0) return Status::IoError("image file shrank while being read");
    done += static_cast<uint64_t>(n);
  }
  return Status::Ok();
}

StatusOr<ByteSpan> ImageBytes::Slice(uint64_t offset, uint64_t length) const {
  if (offset > size_ || length > size_ - offset) {
    return Status::Corruption("read of " + std::to_string(length) +
                              " bytes at " + std::to_string(offset) +
                              " is past the image end (" +
                              std::to_string(size_) + ")");
  }
  return ByteSpan(data_ + offset, static_cast<size_t>(length));
}

}  // namespace squashlab
