// SPDX-License-Identifier: GPL-2.0-only
// This file implements the fuzz target of real kernel code: each input is
// a SquashFS image, mounted by Linux's fs/squashfs (compiled unmodified
// under the lab: linux-6.12 by default) and walked as a user would
// (harness/realfuzz/walk.h) under KASAN, the KMSAN-style infoleak check,
// kmemleak, lockdep and the hung-task check; any report is a finding (the
// target prints it, kernel-style with its call trace, and aborts).
// LLVMFuzzerCustomMutator changes the image's fields (ImageMutator) and
// leaves one mutation in four to libFuzzer's byte-level mutators.
// Environment: SQUASHLAB_FUZZ_VARIANT=linux-6.12|linux-6.1,
// SQUASHLAB_FUZZ_DECOMP=single|multi|percpu; the modules are found beside
// the binary's runfiles, in $SQUASHLAB_LINUX_MODULES, or (OSS-Fuzz) in the
// binary's own directory.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "harness/realfuzz/fuzz_engine.h"
#include "harness/realfuzz/image_mutator.h"

// libFuzzer's own mutators (absent from the plain corpus runner, which
// never mutates).
extern "C" __attribute__((weak)) size_t LLVMFuzzerMutate(uint8_t* data,
                                                         size_t size,
                                                         size_t max_size);

namespace {

const squashlab::WalkTarget& Target() {
  static const squashlab::WalkTarget* target = [] {
    if (std::getenv("SQUASHLAB_LINUX_MODULES") == nullptr) {
      char exe[4096];
      ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
      if (n > 0) {
        std::string dir(exe, static_cast<size_t>(n));
        dir = dir.substr(0, dir.rfind('/'));
        setenv("SQUASHLAB_LINUX_MODULES", dir.c_str(), 0);
      }
    }
    const char* v = std::getenv("SQUASHLAB_FUZZ_VARIANT");
    const char* d = std::getenv("SQUASHLAB_FUZZ_DECOMP");
    auto t = squashlab::MakeWalkTarget(v ? v : "linux-6.12", d ? d : "single");
    if (!t.ok()) {
      std::fprintf(stderr, "real_code_image_fuzzer: %s\n",
                   t.status().ToString().c_str());
      std::abort();
    }
    return new squashlab::WalkTarget(*t);
  }();
  return *target;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  Target();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> image(data, data + size);
  squashlab::WalkOutcome o =
      squashlab::RunWalk(Target(), squashlab::WalkLimits{}, image);
  if (o.reports.empty()) return 0;
  for (const squashlab::Report& r : o.reports)
    std::fprintf(stderr, "==real_code_image_fuzzer== %s\n%s\n", r.title.c_str(),
                 r.ToString().c_str());
  std::abort();
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size,
                                          size_t max_size, unsigned int seed) {
  if (seed % 4 == 0 && LLVMFuzzerMutate != nullptr)
    return LLVMFuzzerMutate(data, size, max_size);
  squashlab::ImageMutator m(seed);
  return m.Mutate(data, size, max_size);
}
