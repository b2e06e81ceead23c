// SPDX-License-Identifier: GPL-2.0-only
// This file implements the image cache: the cache directory, the key of a
// shape's image and building it on a miss.
#include "harness/images/image_cache.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "harness/images/build.h"
#include "harness/images/content.h"
#include "harness/images/producer.h"

namespace squashlab::images {
namespace {

namespace fs = std::filesystem;

uint64_t Fnv(uint64_t h, const std::string& s) {
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return (h ^ 0xff) * 1099511628211ULL;  // ends the field
}

// NAME-<16 hex>.sqfs with another key than `keep`.
void RemoveStale(const fs::path& dir, const std::string& name,
                 const std::string& keep) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string f = e.path().filename().string();
    if (f.size() != name.size() + 22 || f.rfind(name + "-", 0) != 0 ||
        !f.ends_with(".sqfs") || f == keep)
      continue;
    const std::string key = f.substr(name.size() + 1, 16);
    if (key.find_first_not_of("0123456789abcdef") == std::string::npos)
      fs::remove(e.path(), ec);
  }
}

}  // namespace

std::string ImageCacheDir() {
  std::string root;
  if (const char* c = std::getenv("SQUASHLAB_CACHE"))
    root = c;
  else if (const char* x = std::getenv("XDG_CACHE_HOME"))
    root = std::string(x) + "/squashlab";
  else if (const char* h = std::getenv("HOME"))
    root = std::string(h) + "/.cache/squashlab";
  else
    root = "/tmp/squashlab-cache";
  return root + "/images";
}

StatusOr<std::string> ImageKey(const Shape& shape) {
  SQL_ASSIGN_OR_RETURN(std::string version, ProducerVersion(shape.producer));
  uint64_t h = 14695981039346656037ULL;
  h = Fnv(h, ShapeDefinition(shape));
  h = Fnv(h, DescribeTree(MakeTree(shape)));
  h = Fnv(h, std::to_string(kContentVersion));
  h = Fnv(h, version);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return std::string(hex);
}

StatusOr<std::string> CachedImage(const Shape& shape) {
  SQL_ASSIGN_OR_RETURN(std::string key, ImageKey(shape));
  const fs::path dir = ImageCacheDir();
  const std::string file = shape.name + "-" + key + ".sqfs";
  const fs::path path = dir / file;
  std::error_code ec;
  if (fs::is_regular_file(path, ec) && fs::file_size(path, ec) > 0)
    return path.string();
  SQL_RETURN_IF_ERROR(BuildImage(shape, path.string()).status());
  RemoveStale(dir, shape.name, file);
  return path.string();
}

}  // namespace squashlab::images
