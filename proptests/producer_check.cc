// SPDX-License-Identifier: GPL-2.0-only
// This file implements the peer's check of a producer's image: extract it
// with unsquashfs and compare the result with the source tree.
#include "proptests/producer_check.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

namespace squashlab::proptests {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const fs::path& p, bool* ok) {
  std::ifstream in(p, std::ios::binary);
  std::string s((std::istreambuf_iterator<char>(in)),
                std::istreambuf_iterator<char>());
  *ok = !in.bad() && in.is_open();
  return s;
}

// The first entry of `src` that `out` does not hold as `src` does.
std::string CompareTrees(const fs::path& src, const fs::path& out) {
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(src, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::path rel = it->path().lexically_relative(src);
    const fs::path got = out / rel;
    const std::string name = "/" + rel.string();
    const fs::file_status st = it->symlink_status();
    if (fs::is_symlink(st)) {
      if (!fs::is_symlink(fs::symlink_status(got)) ||
          fs::read_symlink(got, ec) != fs::read_symlink(it->path(), ec))
        return name + ": symlink differs";
    } else if (fs::is_directory(st)) {
      if (!fs::is_directory(fs::symlink_status(got)))
        return name + ": directory missing";
    } else if (fs::is_regular_file(st)) {
      bool ok_want = false, ok_got = false;
      const std::string want = Slurp(it->path(), &ok_want);
      const std::string have = Slurp(got, &ok_got);
      if (!ok_want) return name + ": cannot read the source";
      if (!ok_got) return name + ": not extracted";
      if (have.size() != want.size())
        return name + ": " + std::to_string(have.size()) + " bytes, not " +
               std::to_string(want.size());
      if (have != want) return name + ": bytes differ";
    }
  }
  if (ec) return "cannot walk " + src.string() + ": " + ec.message();
  return "";
}

}  // namespace

std::string PeerFindsImageDiffers(const std::string& image,
                                  const std::string& src,
                                  const std::string& scratch) {
  // -no-xattrs: extended attributes are the reader's to check, and this
  // file system may not take every one the tree has.
  const std::string cmd = "unsquashfs -n -no-xattrs -d '" + scratch + "' '" +
                          image + "' >/dev/null 2>&1";
  std::string why;
  if (std::system(cmd.c_str()) != 0) {
    why = "unsquashfs failed: " + cmd;
  } else {
    why = CompareTrees(src, scratch);
    if (!why.empty()) why = "unsquashfs extracts " + why;
  }
  std::error_code ec;
  fs::remove_all(scratch, ec);
  return why;
}

std::string PackCheckedByPeer(const std::function<std::string()>& pack,
                              const std::string& image, const std::string& src,
                              const std::string& scratch, int tries,
                              int* repacked) {
  std::string why;
  for (int t = 0; t < tries; ++t) {
    std::error_code ec;
    fs::remove(image, ec);  // mksquashfs would append to it
    const std::string failed = pack();
    if (!failed.empty()) return failed;
    why = PeerFindsImageDiffers(image, src, scratch);
    if (why.empty()) return "";
    if (repacked != nullptr) ++*repacked;
  }
  return "the producer wrote an image that does not hold its tree (" +
         std::to_string(tries) + " tries): " + why;
}

}  // namespace squashlab::proptests
