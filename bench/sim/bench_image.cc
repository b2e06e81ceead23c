// SPDX-License-Identifier: GPL-2.0-only
// This file implements the benchmark images. Content comes from splitmix64
// (model/rng.h), so the same spec gives the same bytes on every machine;
// mksquashfs runs with every timestamp and owner fixed, so the same bytes
// give the same image.
#include "bench/sim/bench_image.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "harness/rng.h"
#include "harness/scenario_spec.h"

namespace squashlab {
namespace {

// Words of 3..10 lowercase letters; each pick is the smaller of two
// uniform draws (a mild Zipf skew), separated by spaces and newlines.
// 100 words keep mksquashfs's gzip at ~22% on 128K blocks (80 words gave
// 20.2%); the seed's file was "average compression 22%".
void AppendText(Rng& rng, const std::vector<std::string>& vocab,
                std::string& out, size_t n) {
  size_t end = out.size() + n;
  while (out.size() < end) {
    uint64_t a = rng.Below(vocab.size()), b = rng.Below(vocab.size());
    out += vocab[std::min(a, b)];
    out += rng.Below(12) == 0 ? '\n' : ' ';
  }
  out.resize(end);
}

bool Exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

int RunQuiet(const std::vector<std::string>& argv) {
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    int null_fd = ::open("/dev/null", O_WRONLY);
    if (null_fd < 0 || ::dup2(null_fd, 1) < 0) _exit(126);
    ::execvp(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  if (::waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string FileName(int i) {
  return i == 0 ? "file" : "file" + std::to_string(i);
}

}  // namespace

const char* ContentKindName(ContentKind kind) {
  return kind == ContentKind::kText22 ? "text22" : "random97";
}

std::string MakeContent(ContentKind kind, uint64_t size, uint64_t salt) {
  Rng rng((kind == ContentKind::kText22 ? 22 : 97) + salt * 1000);
  std::vector<std::string> vocab;
  for (int i = 0; i < 100; i++) {
    std::string w;
    for (uint64_t n = 3 + rng.Below(8); n > 0; n--)
      w += static_cast<char>('a' + rng.Below(26));
    vocab.push_back(w);
  }
  std::string out;
  out.reserve(size);
  if (kind == ContentKind::kText22) {
    AppendText(rng, vocab, out, size);
    return out;
  }
  // 512-byte chunks: 3% text, the rest random bytes.
  while (out.size() < size) {
    size_t n = std::min<uint64_t>(512, size - out.size());
    if (rng.Below(100) < 3) {
      AppendText(rng, vocab, out, n);
    } else {
      for (size_t i = 0; i < n; i += 8) {
        uint64_t r = rng.Next();
        for (size_t j = 0; j < 8 && i + j < n; j++)
          out += static_cast<char>(r >> (8 * j));
      }
    }
  }
  return out;
}

std::string BenchImageSpec::Key() const {
  return std::string("v2-") + ContentKindName(content) + "-" +
         std::to_string(file_size) +
         (files > 1 ? "x" + std::to_string(files) : "") + "-" + comp + "-b" +
         std::to_string(block_size) + ".sqfs";
}

std::string DefaultCacheDir() {
  if (const char* c = std::getenv("SQUASHLAB_BENCH_CACHE"); c != nullptr && *c)
    return c;
  const char* tmp = std::getenv("TMPDIR");
  std::string base = tmp != nullptr && *tmp ? tmp : "/tmp";
  return base + "/squashlab-bench-" + std::to_string(::getuid());
}

StatusOr<std::string> BuildBenchImage(const BenchImageSpec& spec,
                                      const std::string& cache_dir) {
  std::string out = cache_dir + "/" + spec.Key();
  if (Exists(out)) return out;
  ::mkdir(cache_dir.c_str(), 0755);
  char tmpl[4096];
  std::snprintf(tmpl, sizeof tmpl, "%s/build-XXXXXX", cache_dir.c_str());
  if (::mkdtemp(tmpl) == nullptr)
    return Status::IoError("cannot create a directory in " + cache_dir);
  std::string work = tmpl;
  std::string src = work + "/src";
  ::mkdir(src.c_str(), 0755);
  for (int i = 0; i < spec.files; i++) {
    std::string name = src + "/" + FileName(i);
    std::ofstream f(name, std::ios::binary);
    std::string c =
        MakeContent(spec.content, spec.file_size, static_cast<uint64_t>(i));
    f.write(c.data(), static_cast<std::streamsize>(c.size()));
    if (!f) return Status::IoError("cannot write " + name);
  }
  std::string img = work + "/image.sqfs";
  int rc = RunQuiet({"mksquashfs", src, img, "-noappend", "-quiet",
                     "-no-progress", "-comp", spec.comp, "-b",
                     std::to_string(spec.block_size), "-all-root", "-no-xattrs",
                     "-mkfs-time", "0", "-all-time", "0"});
  for (int i = 0; i < spec.files; i++)
    std::remove((src + "/" + FileName(i)).c_str());
  ::rmdir(src.c_str());
  if (rc != 0) {
    std::remove(img.c_str());
    ::rmdir(work.c_str());
    return Status::IoError("mksquashfs failed (exit " + std::to_string(rc) +
                           ") for " + spec.Key());
  }
  // Atomic publication: concurrent builders race to the same bytes.
  if (std::rename(img.c_str(), out.c_str()) != 0) {
    std::remove(img.c_str());
    ::rmdir(work.c_str());
    return Status::IoError("cannot rename into " + out);
  }
  ::rmdir(work.c_str());
  return out;
}

StatusOr<std::shared_ptr<const ImageModel>> LoadBenchImage(
    const BenchImageSpec& spec, const std::string& cache_dir) {
  auto path = BuildBenchImage(spec, cache_dir);
  if (!path.ok()) return path.status();
  return LoadImage(path.value());
}

}  // namespace squashlab
