// SPDX-License-Identifier: GPL-2.0-only
// This file implements the generation and packing of small images for the
// variants property.
#include "proptests/image_gen.h"

#include <stdlib.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <utility>

#include "proptests/producer_check.h"

namespace squashlab::proptests {
namespace {

namespace fs = std::filesystem;

uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

const char* KindName(ContentKind k) {
  switch (k) {
    case ContentKind::kZeros:
      return "zeros";
    case ContentKind::kRandom:
      return "random";
    case ContentKind::kText:
      return "text";
    case ContentKind::kMixed:
      return "mixed";
  }
  return "?";
}

void FillPage(std::string& s, size_t begin, size_t end, ContentKind kind,
              uint64_t seed) {
  switch (kind) {
    case ContentKind::kZeros:
      break;
    case ContentKind::kRandom:
      for (size_t i = begin; i < end; i++)
        s[i] = static_cast<char>(Mix(seed ^ (i * 31)) >> 24);
      break;
    case ContentKind::kText:
      // "line 123 of 7" padded to 24 bytes: compressible, but not one byte.
      for (size_t i = begin; i < end;) {
        const size_t chunk = i / 24;
        std::string line = "line " + std::to_string(chunk) + " of " +
                           std::to_string(seed % 1000);
        line.resize(23, ' ');
        line += '\n';
        for (; i < end && i / 24 == chunk; i++) s[i] = line[i % 24];
      }
      break;
    case ContentKind::kMixed:
      break;  // resolved per page by GenContent
  }
}

fs::path ScratchDir() {
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::string templ = std::string(tmp ? tmp : "/tmp") + "/variantimgXXXXXX";
  if (mkdtemp(templ.data()) == nullptr) return {};
  return templ;
}

}  // namespace

std::string ImageSpec::Describe() const {
  std::string s =
      "mksquashfs -comp " + comp + " -b " + std::to_string(block_size);
  for (const auto& f : flags) s += " " + f;
  s += " {";
  for (size_t i = 0; i < files.size(); i++) {
    s += (i ? ", f" : "f") + std::to_string(i) + ": " +
         std::to_string(files[i].size) + " " + KindName(files[i].kind) + "#" +
         std::to_string(files[i].seed);
  }
  return s + "}";
}

void showValue(const ImageSpec& s, std::ostream& os) { os << s.Describe(); }

std::string GenContent(const GenFile& f) {
  std::string s(f.size, '\0');
  for (size_t page = 0; page * 4096 < f.size; page++) {
    ContentKind kind = f.kind;
    if (kind == ContentKind::kMixed) {
      kind = static_cast<ContentKind>(Mix(f.seed * 1000003ULL + page) %
                                      3);  // zeros/random/text
    }
    FillPage(s, page * 4096, std::min<size_t>(f.size, (page + 1) * 4096), kind,
             f.seed);
  }
  return s;
}

rc::Gen<ImageSpec> GenImageSpec() {
  return rc::gen::exec([] {
    ImageSpec spec;
    spec.comp = Pick<std::string>({"gzip", "xz", "lz4", "zstd", "lzo"});
    spec.block_size = Pick<uint32_t>({131072, 4096, 8192, 16384, 32768, 65536});
    for (const char* f :
         {"-no-fragments", "-always-use-fragments", "-noD", "-noF"}) {
      if (Uniform(0, 5) == 4) spec.flags.push_back(f);  // shrinks to without
    }
    const int n = Uniform(1, 4);
    const int64_t b = spec.block_size;
    for (int i = 0; i < n; i++) {
      if (i > 0 && Uniform(0, 6) == 5) {
        spec.files.push_back(
            spec.files[0]);  // a duplicate: mksquashfs shares its blocks
        continue;
      }
      GenFile f;
      // Sizes on block and page boundaries, and anywhere in a block.
      const int64_t blocks = Uniform(0, 4);
      const int64_t delta =
          Uniform(0, 2) == 0
              ? Pick<int64_t>({1, 0, -1, 4095, 4096, 4097, -4096, -4097})
              : Uniform<int64_t>(0, b);
      f.size = static_cast<uint64_t>(
          std::max<int64_t>(i == 0 ? 1 : 0, blocks * b + delta));
      f.kind = Pick<ContentKind>({ContentKind::kText, ContentKind::kMixed,
                                  ContentKind::kRandom, ContentKind::kZeros});
      f.seed = Uniform<uint32_t>(0, 1000);
      spec.files.push_back(f);
    }
    return spec;
  });
}

namespace {

StatusOr<std::shared_ptr<const ImageModel>> PackUncached(
    const ImageSpec& spec) {
  const fs::path scratch = ScratchDir();
  if (scratch.empty()) return Status::IoError("mkdtemp failed");
  const fs::path src = scratch / "src", img = scratch / "img.sqfs";
  fs::create_directories(src);
  for (size_t i = 0; i < spec.files.size(); i++) {
    std::ofstream out(src / ("f" + std::to_string(i)), std::ios::binary);
    const std::string content = GenContent(spec.files[i]);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (!out)
      return Status::IoError("cannot write " +
                             (src / ("f" + std::to_string(i))).string());
  }
  std::string cmd =
      "mksquashfs '" + src.string() + "' '" + img.string() +
      "' -quiet -no-progress -processors 1 -no-xattrs -all-root -comp " +
      spec.comp + " -b " + std::to_string(spec.block_size);
  for (const auto& f : spec.flags) cmd += " " + f;
  cmd += " >/dev/null 2>&1";
  // The reader's decoding is checked below; first a peer checks that the
  // producer wrote the files at all (producer_check.h).
  const std::string packed = PackCheckedByPeer(
      [&]() -> std::string {
        return std::system(cmd.c_str()) == 0 ? "" : "producer failed: " + cmd;
      },
      img.string(), src.string(), (scratch / "peer").string(), 3);
  if (!packed.empty()) {
    fs::remove_all(scratch);
    return Status::IoError(packed);
  }
  auto model = LoadImageModelFile(img.string());
  fs::remove_all(scratch);
  if (!model.ok()) return model.status();
  // The oracle of every run is the reader's decoding: check it against the
  // bytes that went into the image first.
  for (size_t i = 0; i < spec.files.size(); i++) {
    const FileModel* f = model.value().Find("f" + std::to_string(i));
    if (f == nullptr)
      return Status::Corruption("f" + std::to_string(i) +
                                " missing from image");
    if (f->content != GenContent(spec.files[i]))
      return Status::Corruption("the reader decodes f" + std::to_string(i) +
                                " differently from what mksquashfs was given");
  }
  return std::shared_ptr<const ImageModel>(
      std::make_shared<const ImageModel>(std::move(model).value()));
}

}  // namespace

StatusOr<std::shared_ptr<const ImageModel>> PackImage(const ImageSpec& spec) {
  static std::deque<
      std::pair<std::string, StatusOr<std::shared_ptr<const ImageModel>>>>
      cache;
  const std::string key = spec.Describe();
  for (const auto& [k, v] : cache)
    if (k == key) return v;
  auto packed = PackUncached(spec);
  cache.emplace_back(key, packed);
  if (cache.size() > 8) cache.pop_front();
  return packed;
}

}  // namespace squashlab::proptests
