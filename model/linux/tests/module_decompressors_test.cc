// SPDX-License-Identifier: GPL-2.0-only
// This file implements the tests that each built-in module carries the
// decompressors of its own package: the entry points fs/squashfs calls and
// functions only the kernel's lib/ defines lie in the module itself, and
// its zstd is its kernel's version (6.1 ships zstd 1.4, 6.12 zstd 1.5).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace {

std::string ModulePath(const std::string& file) {
  const char* root = std::getenv("TEST_SRCDIR");
  return std::string(root ? root : ".") + "/squashlab/model/linux/" + file;
}

// The module, loaded once; its undefined symbols are the bridge's.
void* Load(const std::string& file) {
  void* h = dlopen(ModulePath(file).c_str(), RTLD_NOW | RTLD_LOCAL);
  EXPECT_NE(h, nullptr) << dlerror();
  return h;
}

// The file the definition `name` seen from module `h` lies in.
std::string DefinedIn(void* h, const char* name) {
  void* sym = dlsym(h, name);
  if (sym == nullptr) return std::string("(undefined: ") + name + ")";
  Dl_info info{};
  if (dladdr(sym, &info) == 0 || info.dli_fname == nullptr) return "(none)";
  return info.dli_fname;
}

unsigned ZstdVersion(void* h) {
  auto fn = reinterpret_cast<unsigned (*)()>(dlsym(h, "ZSTD_versionNumber"));
  return fn ? fn() : 0;
}

class ModuleDecompressors : public ::testing::TestWithParam<const char*> {};

TEST_P(ModuleDecompressors, AreTheKernelsInTheModule) {
  void* h = Load(GetParam());
  ASSERT_NE(h, nullptr);
  const std::string self = ModulePath(GetParam());
  for (const char* name : {
           "zlib_inflate", "zlib_inflate_table", "inflate_fast",  // zlib
           "zstd_decompress_stream", "ZSTD_decompressStream",     // zstd
           "ZSTD_versionNumber", "ZSTD_decompressBlock_internal", "xxh64",
           "xz_dec_run", "xz_dec_lzma2_run", "xz_dec_bcj_run",  // xz
           "LZ4_decompress_safe",                               // lz4
           "lzo1x_decompress_safe",                             // lzo
           "memcpy", "memset",  // KASAN's checked ones
       })
    EXPECT_EQ(DefinedIn(h, name), self) << name;
}

INSTANTIATE_TEST_SUITE_P(Builtin, ModuleDecompressors,
                         ::testing::Values("libsquashfs_linux_6_12.so",
                                           "libsquashfs_linux_6_1_single.so"));

TEST(ModuleDecompressors, EachModuleHasItsKernelsZstd) {
  const unsigned v612 = ZstdVersion(Load("libsquashfs_linux_6_12.so"));
  const unsigned v61 = ZstdVersion(Load("libsquashfs_linux_6_1_single.so"));
  EXPECT_GE(v612, 10500u);
  EXPECT_LT(v61, 10500u);
  EXPECT_GE(v61, 10400u);
}

}  // namespace
