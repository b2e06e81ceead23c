// SPDX-License-Identifier: GPL-2.0-only
// This file implements kernel_compare, the loop-mount test's checker: it
// walks an image with the reader and the same tree as the host kernel
// mounted it, and compares every entry: type, mode, owner, mtime, links,
// inode number, size, directory listing, file bytes (through ImageModel, the
// lab's data oracle), the last page through mmap (zero past EOF), symlink
// targets and xattrs.
//   usage: kernel_compare [--flip-reader-byte] IMG MOUNTPOINT
// --flip-reader-byte changes one byte of every non-empty file the oracle
// returns, to show that the comparison catches a wrong reader.
#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "harness/image_model.h"
#include "reader/image.h"

namespace squashlab {
namespace {

constexpr uint64_t kPage = 4096;

struct Counts {
  uint64_t files = 0, bytes = 0, last_pages = 0, symlinks = 0, dirs = 0,
           xattrs = 0, oracle_files = 0;
};

using XattrList = std::vector<std::pair<std::string, std::string>>;

class Comparer {
 public:
  Comparer(Image& img, const ImageModel& model, std::string mnt, bool flip)
      : img_(img), model_(model), mnt_(std::move(mnt)), flip_(flip) {}

  void Entry(const Inode& ino, const std::string& rel);
  void Mismatch(const std::string& rel, const std::string& what);
  int mismatches() const { return mismatches_; }
  const Counts& counts() const { return counts_; }
  const std::string& note() const { return note_; }

 private:
  void Metadata(const Inode& ino, const std::string& rel, const struct stat&);
  void Directory(const Inode& ino, const std::string& rel);
  void File(const std::string& rel);
  void LastPage(int fd, const std::string& rel, const std::string& want);
  void Symlink(const Inode& ino, const std::string& rel);
  void Xattrs(const Inode& ino, const std::string& rel);
  bool ReaderBytes(const std::string& rel, std::string* out);
  std::string Path(const std::string& rel) const { return mnt_ + "/" + rel; }

  Image& img_;
  const ImageModel& model_;
  std::string mnt_;
  bool flip_;
  int mismatches_ = 0;
  Counts counts_;
  std::string note_;
};

void Comparer::Mismatch(const std::string& rel, const std::string& what) {
  if (++mismatches_ <= 30)
    std::printf("MISMATCH /%s: %s\n", rel.c_str(), what.c_str());
}

template <typename A, typename B>
void Check(Comparer* c,
           void (Comparer::*mismatch)(const std::string&, const std::string&),
           const std::string& rel, const char* what, A kernel, B reader) {
  if (static_cast<uint64_t>(kernel) == static_cast<uint64_t>(reader)) return;
  (c->*mismatch)(rel, std::string(what) + ": kernel " + std::to_string(kernel) +
                          ", reader " + std::to_string(reader));
}

void Comparer::Metadata(const Inode& ino, const std::string& rel,
                        const struct stat& st) {
  auto uid = img_.Uid(ino);
  auto gid = img_.Gid(ino);
  if (!uid.ok() || !gid.ok()) return Mismatch(rel, "reader: no uid/gid");
  auto m = &Comparer::Mismatch;
  Check(this, m, rel, "mode", st.st_mode, ino.mode());
  Check(this, m, rel, "uid", st.st_uid, *uid);
  Check(this, m, rel, "gid", st.st_gid, *gid);
  Check(this, m, rel, "mtime", st.st_mtime, ino.mtime);
  Check(this, m, rel, "nlink", st.st_nlink, ino.nlink);
  Check(this, m, rel, "inode number", st.st_ino, ino.inode_number);
  Check(this, m, rel, "size", st.st_size, ino.size());
}

void Comparer::Entry(const Inode& ino, const std::string& rel) {
  struct stat st;
  if (lstat(Path(rel).c_str(), &st) != 0)
    return Mismatch(rel, std::string("kernel: ") + std::strerror(errno));
  Metadata(ino, rel, st);
  Xattrs(ino, rel);
  if (ino.type == InodeType::kDirectory) Directory(ino, rel);
  if (ino.type == InodeType::kFile) File(rel);
  if (ino.type == InodeType::kSymlink) Symlink(ino, rel);
}

void Comparer::Directory(const Inode& ino, const std::string& rel) {
  counts_.dirs++;
  auto entries = img_.ReadDir(ino);
  if (!entries.ok()) return Mismatch(rel, entries.status().ToString());
  std::vector<std::string> kernel, reader;
  if (DIR* d = opendir(Path(rel).c_str())) {
    while (dirent* e = readdir(d))
      if (std::strcmp(e->d_name, ".") && std::strcmp(e->d_name, ".."))
        kernel.push_back(e->d_name);
    closedir(d);
  }
  for (const DirEntry& e : *entries) reader.push_back(e.name);
  if (kernel != reader)
    Mismatch(rel, "listing: kernel " + std::to_string(kernel.size()) +
                      " names, reader " + std::to_string(reader.size()) +
                      " (or another order)");
  for (const DirEntry& e : *entries) {
    auto child = img_.ReadInode(e);
    const std::string path = rel.empty() ? e.name : rel + "/" + e.name;
    if (!child.ok()) {
      Mismatch(path, child.status().ToString());
      continue;
    }
    Entry(*child, path);
  }
}

// What the data oracle (ImageModel: the reader's decoding of every file)
// says the file holds.
bool Comparer::ReaderBytes(const std::string& rel, std::string* out) {
  const FileModel* f = model_.Find(rel);
  if (f == nullptr) {
    Mismatch(rel, "the oracle (ImageModel) has no such file");
    return false;
  }
  *out = f->content;
  counts_.oracle_files++;
  if (flip_ && !out->empty()) (*out)[out->size() / 2] ^= 1;
  return true;
}

std::string FirstDifference(const std::string& kernel,
                            const std::string& reader) {
  auto [k, r] =
      std::mismatch(kernel.begin(), kernel.end(), reader.begin(), reader.end());
  const size_t at = static_cast<size_t>(k - kernel.begin());
  std::string s = "bytes differ from offset " + std::to_string(at);
  if (k != kernel.end() && r != reader.end())
    s += " (kernel " + std::to_string(static_cast<uint8_t>(*k)) + ", reader " +
         std::to_string(static_cast<uint8_t>(*r)) + ")";
  return s + "; kernel " + std::to_string(kernel.size()) + " bytes, reader " +
         std::to_string(reader.size());
}

// The file's last page through a fresh mapping (MADV_RANDOM: that page
// alone is read): the file's bytes, then zeros to the page's end.
void Comparer::LastPage(int fd, const std::string& rel,
                        const std::string& want) {
  if (want.empty()) return;
  const uint64_t size = want.size();
  const uint64_t map_len = (size + kPage - 1) / kPage * kPage;
  void* m = mmap(nullptr, map_len, PROT_READ, MAP_SHARED, fd, 0);
  if (m == MAP_FAILED)
    return Mismatch(rel, std::string("mmap: ") + std::strerror(errno));
  madvise(m, map_len, MADV_RANDOM);
  const char* p = static_cast<const char*>(m);
  const uint64_t last = map_len - kPage;
  if (std::memcmp(p + last, want.data() + last, size - last) != 0)
    Mismatch(rel, "last page through mmap differs from the reader's bytes");
  for (uint64_t i = size; i < map_len; i++)
    if (p[i] != 0) {
      Mismatch(rel, "byte " + std::to_string(i) +
                        " past EOF in the last page is not zero");
      break;
    }
  munmap(m, map_len);
  counts_.last_pages++;
}

void Comparer::File(const std::string& rel) {
  counts_.files++;
  std::string want;
  if (!ReaderBytes(rel, &want)) return;
  int fd = open(Path(rel).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return Mismatch(rel, std::string("kernel open: ") + std::strerror(errno));
  LastPage(fd, rel, want);  // first: the page cache is still cold
  std::string got(want.size() + 1, '\0');
  size_t have = 0;
  for (ssize_t n; (n = pread(fd, got.data() + have, got.size() - have,
                             static_cast<off_t>(have))) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      Mismatch(rel, std::string("kernel read: ") + std::strerror(errno));
      break;
    }
    have += static_cast<size_t>(n);
    if (have == got.size()) got.resize(got.size() * 2);
  }
  close(fd);
  got.resize(have);
  counts_.bytes += have;
  if (got != want) Mismatch(rel, FirstDifference(got, want));
}

void Comparer::Symlink(const Inode& ino, const std::string& rel) {
  counts_.symlinks++;
  std::string buf(8192, '\0');
  ssize_t n = readlink(Path(rel).c_str(), buf.data(), buf.size());
  if (n < 0)
    return Mismatch(rel,
                    std::string("kernel readlink: ") + std::strerror(errno));
  buf.resize(static_cast<size_t>(n));
  if (buf != ino.symlink_target)
    Mismatch(rel, "symlink target: kernel " + std::to_string(buf.size()) +
                      " bytes, reader " +
                      std::to_string(ino.symlink_target.size()));
}

// The kernel's xattrs of `path`, sorted; false when it does not show any
// (the host kernel without CONFIG_SQUASHFS_XATTR).
bool KernelXattrs(const std::string& path, XattrList* out) {
  std::string names(65536, '\0');
  ssize_t n = llistxattr(path.c_str(), names.data(), names.size());
  if (n < 0) return false;
  for (size_t at = 0; at < static_cast<size_t>(n);) {
    std::string name(names.c_str() + at);
    at += name.size() + 1;
    std::string value(65536, '\0');
    ssize_t v =
        lgetxattr(path.c_str(), name.c_str(), value.data(), value.size());
    value.resize(v < 0 ? 0 : static_cast<size_t>(v));
    out->emplace_back(name, v < 0 ? "(unreadable)" : value);
  }
  std::sort(out->begin(), out->end());
  return true;
}

void Comparer::Xattrs(const Inode& ino, const std::string& rel) {
  XattrList kernel, reader;
  auto listed = img_.ListXattrs(ino);
  if (!listed.ok()) return Mismatch(rel, listed.status().ToString());
  for (const Xattr& x : *listed) reader.emplace_back(x.name, x.value);
  std::sort(reader.begin(), reader.end());
  // An image without an xattr table: the kernel answers EOPNOTSUPP.
  if (!KernelXattrs(Path(rel), &kernel) && errno == EOPNOTSUPP) {
    if (!reader.empty())
      note_ =
          "the kernel shows no xattrs (CONFIG_SQUASHFS_XATTR off?): "
          "xattrs not compared";
    return;
  }
  counts_.xattrs += reader.size();
  if (kernel != reader)
    Mismatch(rel, "xattrs: kernel " + std::to_string(kernel.size()) +
                      ", reader " + std::to_string(reader.size()) +
                      " (or other names or values)");
}

int Main(int argc, char** argv) {
  const bool flip =
      argc == 4 && std::strcmp(argv[1], "--flip-reader-byte") == 0;
  if (argc != 3 + flip) {
    std::fprintf(stderr,
                 "usage: kernel_compare [--flip-reader-byte] IMG MOUNTPOINT\n");
    return 2;
  }
  const std::string img_path = argv[1 + flip], mnt = argv[2 + flip];
  auto img = Image::Open(img_path);
  auto model = LoadImageModelFile(img_path);
  if (!img.ok() || !model.ok()) {
    std::printf("MISMATCH %s: the reader cannot open it: %s\n",
                img_path.c_str(),
                (img.ok() ? model.status() : img.status()).ToString().c_str());
    return 1;
  }
  auto root = (*img)->Root();
  if (!root.ok()) return 1;
  Comparer c(**img, *model, mnt, flip);
  c.Entry(*root, "");
  const Counts& n = c.counts();
  if (n.files != model->files.size())
    c.Mismatch("", "the oracle holds " + std::to_string(model->files.size()) +
                       " files, the tree " + std::to_string(n.files));
  std::printf(
      "%s: %d mismatches; %ju files (%ju bytes, %ju through the oracle, %ju "
      "last pages via mmap), %ju symlinks, %ju dirs, %ju xattrs%s%s\n",
      img_path.c_str(), c.mismatches(), n.files, n.bytes, n.oracle_files,
      n.last_pages, n.symlinks, n.dirs, n.xattrs,
      c.note().empty() ? "" : "; NOTE: ", c.note().c_str());
  return c.mismatches() ? 1 : 0;
}

}  // namespace
}  // namespace squashlab

int main(int argc, char** argv) { return squashlab::Main(argc, argv); }
