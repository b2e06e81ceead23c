// SPDX-License-Identifier: GPL-2.0-only
// This file implements BuildImage: generate the tree, write it beside the
// output, run the producer into a temporary name, check that the image
// holds the tree (packing again when it does not), rename on success.
#include "harness/images/build.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "harness/images/content.h"
#include "harness/images/image_check.h"
#include "harness/images/producer.h"
#include "harness/images/tree_writer.h"

namespace squashlab::images {
namespace {

namespace fs = std::filesystem;

// Removes a directory tree when it goes out of scope.
class TempDir {
 public:
  explicit TempDir(std::string path) : path_(std::move(path)) {}
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

StatusOr<std::string> MakeTempDir(const fs::path& beside,
                                  const std::string& name) {
  std::string templ = (beside / ("." + name + ".tmp.XXXXXX")).string();
  if (mkdtemp(templ.data()) == nullptr)
    return Status::IoError("cannot make a directory in " + beside.string() +
                           ": " + std::strerror(errno));
  return templ;
}

// The producer's race (image_check.h) does not repeat every time: a wrong
// image is made again, this many times in all.
constexpr int kPackTries = 3;

Status Pack(const Shape& shape, const std::string& work,
            const std::string& out) {
  const Tree tree = MakeTree(shape);
  const std::string root = work + "/root";
  const std::string pack = work + "/pack";
  if (mkdir(root.c_str(), 0755) != 0)
    return Status::IoError("mkdir " + root + ": " + std::strerror(errno));
  SQL_RETURN_IF_ERROR(WriteTree(tree, root).WithContext(shape.name));
  if (shape.producer == Producer::kGensquashfsPackFile)
    SQL_RETURN_IF_ERROR(WritePackFile(tree, pack));
  Status held;
  for (int t = 0; t < kPackTries; ++t) {
    std::error_code ec;
    fs::remove(out, ec);
    SQL_RETURN_IF_ERROR(RunCommand(ProducerArgs(shape, root, pack, out))
                            .WithContext(shape.name));
    held = CheckImageHoldsTree(out, tree);
    if (held.ok()) return held;
  }
  return Status::Corruption(shape.name +
                            ": the producer wrote an image that "
                            "does not hold its tree (" +
                            std::to_string(kPackTries) +
                            " tries): " + held.message());
}

}  // namespace

StatusOr<std::string> BuildImage(const Shape& shape,
                                 const std::string& out_path) {
  const fs::path out = fs::absolute(out_path);
  fs::path dir = out.parent_path();
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return Status::IoError("cannot create " + dir.string() + ": " +
                           ec.message());
  SQL_ASSIGN_OR_RETURN(std::string work_path, MakeTempDir(dir, shape.name));
  TempDir work(work_path);
  const std::string tmp_image = work.path() + "/image.sqfs";
  SQL_RETURN_IF_ERROR(Pack(shape, work.path(), tmp_image));
  fs::rename(tmp_image, out, ec);
  if (ec)
    return Status::IoError("cannot rename " + tmp_image + " to " +
                           out.string() + ": " + ec.message());
  return out_path;
}

}  // namespace squashlab::images
