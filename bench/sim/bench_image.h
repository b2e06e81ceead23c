// SPDX-License-Identifier: GPL-2.0-only
// This file implements the benchmark images: deterministic file content with
// a chosen compressibility (text-like words for Phillip's "22%" file, mostly
// random bytes for the eMMC and USB runs, whose profiles were fitted with the
// file's whole size on the bus), packed by the real mksquashfs into a cache
// directory, byte-identical run to run.
#ifndef SQUASHLAB_BENCH_SIM_BENCH_IMAGE_H_
#define SQUASHLAB_BENCH_SIM_BENCH_IMAGE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "reader/status.h"

namespace squashlab {

struct ImageModel;

enum class ContentKind {
  kText22,         // words from an 80-word vocabulary: gzip keeps ~22%
  kIncompressible  // 97% random bytes: gzip keeps ~98% (blocks stay compressed)
};

const char* ContentKindName(ContentKind kind);

// `size` bytes of content, a pure function of (kind, size, salt).
std::string MakeContent(ContentKind kind, uint64_t size, uint64_t salt = 0);

struct BenchImageSpec {
  ContentKind content = ContentKind::kText22;
  uint64_t file_size = 16 << 20;  // each file: "file", "file1", ... at the root
  int files = 1;
  uint32_t block_size = 128 << 10;
  std::string comp = "gzip";
  std::string Key() const;  // the cache file's name
};

// Builds (or finds in `cache_dir`) the image of `spec` with mksquashfs
// (-noappend -all-root -mkfs-time 0 -all-time 0 -no-xattrs: deterministic)
// and returns its path. `cache_dir` is created when missing.
StatusOr<std::string> BuildBenchImage(const BenchImageSpec& spec,
                                      const std::string& cache_dir);

// The image decoded for the model (the oracle included).
StatusOr<std::shared_ptr<const ImageModel>> LoadBenchImage(
    const BenchImageSpec& spec, const std::string& cache_dir);

// $SQUASHLAB_BENCH_CACHE, else $TMPDIR (or /tmp) + "/squashlab-bench-<uid>".
std::string DefaultCacheDir();

}  // namespace squashlab

#endif  // SQUASHLAB_BENCH_SIM_BENCH_IMAGE_H_
