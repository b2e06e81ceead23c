// SPDX-License-Identifier: GPL-2.0-only
// This file implements the seed images of `squashlab fuzz`.
#include "harness/realfuzz/seeds.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <span>

#include "harness/small_image.h"

namespace squashlab {

namespace {

namespace fs = std::filesystem;

std::string Text(int seed, size_t size) {
  static const char* kWords[] = {"squashfs ", "inode ",  "block ",
                                 "fragment ", "xattr\n", "lookup "};
  std::string s;
  unsigned x = static_cast<unsigned>(seed) * 2654435761u + 1;
  while (s.size() < size) {
    x = x * 1103515245u + 12345u;
    s += kWords[(x >> 16) % 6];
  }
  s.resize(size);
  return s;
}

void Put(const fs::path& p, const std::string& data) {
  std::ofstream(p, std::ios::binary) << data;
}

// The tree: 4 KiB-block shapes (whole blocks, a tail, fragment-only,
// sparse), a subdirectory, symlinks, a fifo.
Status MakeTree(const fs::path& root) {
  std::error_code ec;
  fs::create_directories(root / "d" / "e", ec);
  if (ec) return Status::IoError(root.string() + ": " + ec.message());
  Put(root / "a", Text(1, 3 * 4096));
  Put(root / "b", Text(2, 2 * 4096 + 1000));
  Put(root / "t", Text(3, 700));
  Put(root / "empty", "");
  Put(root / "sparse", std::string(4096, '\0') + Text(4, 2000));
  Put(root / "d" / "x", Text(5, 100));
  Put(root / "d" / "e" / "y", Text(6, 5000));
  fs::create_symlink("a", root / "l", ec);
  fs::create_symlink(std::string(300, 'p') + "/target", root / "d" / "long",
                     ec);
  mkfifo((root / "d" / "fifo").c_str(), 0644);
  return Status::Ok();
}

// user.* xattrs on the tree: several on a directory, a small and an empty
// value, and one 600-byte value in two files' different sets (mksquashfs
// stores the second out of line, a reference to the first). False when
// the file system refuses them.
bool AddXattrs(const fs::path& root) {
  const std::string shared = Text(7, 600);
  const struct {
    const char* file;
    const char* name;
    std::string value;
  } kXattrs[] = {
      {"d", "user.comment", "a directory"},
      {"d", "user.mime_type", "inode/directory"},
      {"d", "user.empty", ""},
      {"a", "user.shared", shared},
      {"b", "user.shared", shared},
      {"t", "user.checksum", "0123456789abcdef"},
      {"b", "user.b", "b"},
      {"empty", "user.provenance", Text(8, 40)},
  };
  for (const auto& x : kXattrs)
    if (lsetxattr((root / x.file).c_str(), x.name, x.value.data(),
                  x.value.size(), 0) != 0)
      return false;
  return true;
}

Status Mksquashfs(const fs::path& tree, const fs::path& out,
                  const std::vector<std::string>& options) {
  std::vector<std::string> argv = {"mksquashfs", tree.string(), out.string(),
                                   "-noappend",  "-quiet",      "-no-progress",
                                   "-all-root",  "-mkfs-time",  "0",
                                   "-all-time",  "0",           "-nopad"};
  argv.insert(argv.end(), options.begin(), options.end());
  pid_t pid = fork();
  if (pid < 0) return Status::IoError("fork failed");
  if (pid == 0) {
    std::vector<char*> args;
    for (std::string& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, 1);
    execvp("mksquashfs", args.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return Status::IoError(
        WIFEXITED(status) && WEXITSTATUS(status) == 127
            ? "mksquashfs not found (apt-get install squashfs-tools)"
            : "mksquashfs failed on the seed tree");
  return Status::Ok();
}

StatusOr<std::vector<uint8_t>> ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return Status::IoError("cannot read " + p.string());
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

StatusOr<std::vector<SeedImage>> DefaultFuzzSeeds() {
  std::vector<SeedImage> seeds;
  char tmpl[] = "/tmp/squashlab-fuzz-seeds-XXXXXX";
  const char* base = mkdtemp(tmpl);
  if (base == nullptr) return Status::IoError("mkdtemp failed");
  const fs::path dir(base);
  Status st = MakeTree(dir / "tree");
  const std::vector<std::pair<std::string, std::vector<std::string>>> kSets = {
      {"raw-4k", {"-noI", "-noD", "-noF", "-noX", "-b", "4096"}},
      {"raw-4k-fragments",
       {"-noI", "-noD", "-noF", "-noX", "-b", "4096", "-always-use-fragments"}},
      {"raw-meta-gzip-8k-noexport",
       {"-noI", "-noF", "-noX", "-b", "8192", "-no-exports"}},
  };
  for (const auto& [name, options] : kSets) {
    if (!st.ok()) break;
    st = Mksquashfs(dir / "tree", dir / (name + ".sqfs"), options);
    if (!st.ok()) break;
    auto bytes = ReadFile(dir / (name + ".sqfs"));
    if (!bytes.ok()) {
      st = bytes.status();
      break;
    }
    seeds.push_back({name, std::move(bytes).value()});
  }
  // The same tree with xattrs, the xattr table uncompressed too, when
  // the temporary directory's file system takes user.* xattrs.
  if (st.ok() && AddXattrs(dir / "tree")) {
    st = Mksquashfs(dir / "tree", dir / "xattrs.sqfs",
                    {"-noI", "-noD", "-noF", "-noX", "-b", "4096", "-xattrs"});
    if (st.ok()) {
      auto bytes = ReadFile(dir / "xattrs.sqfs");
      if (bytes.ok())
        seeds.push_back({"raw-4k-xattrs", std::move(bytes).value()});
      else
        st = bytes.status();
    }
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (!st.ok()) return st;
  auto small = EmbeddedSmallImage();
  seeds.push_back(
      {"embedded", std::vector<uint8_t>(small.begin(), small.end())});
  return seeds;
}

StatusOr<std::vector<SeedImage>> LoadSeedImages(
    const std::vector<std::string>& paths) {
  std::vector<SeedImage> seeds;
  for (const std::string& p : paths) {
    std::error_code ec;
    std::vector<fs::path> files;
    if (fs::is_directory(p, ec)) {
      for (const auto& e : fs::directory_iterator(p, ec))
        if (e.is_regular_file()) files.push_back(e.path());
      std::sort(files.begin(), files.end());
    } else {
      files.push_back(p);
    }
    for (const fs::path& f : files) {
      auto bytes = ReadFile(f);
      if (!bytes.ok()) return bytes.status();
      seeds.push_back({f.filename().string(), std::move(bytes).value()});
    }
  }
  if (seeds.empty()) return Status::InvalidArgument("no seed image found");
  return seeds;
}

}  // namespace squashlab
