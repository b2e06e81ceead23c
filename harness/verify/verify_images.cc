// SPDX-License-Identifier: GPL-2.0-only
// This file implements the resolution of a verify job's images: files and
// directories, generated shapes, labels, and the --file narrowing.
#include "harness/verify/verify_images.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>

#include "harness/images/image_cache.h"
#include "harness/images/shape.h"
#include "harness/scenario_spec.h"

namespace squashlab {
namespace {

namespace fs = std::filesystem;

// A SquashFS superblock starts with "hsqs".
bool LooksLikeSquashfs(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  char magic[4] = {};
  return in.read(magic, 4) && std::string(magic, 4) == "hsqs";
}

// An --image argument: the file, or the SquashFS images of the directory
// (by name, not recursing).
StatusOr<std::vector<std::string>> ImageFiles(const std::string& arg) {
  std::error_code ec;
  if (!fs::is_directory(arg, ec)) return std::vector<std::string>{arg};
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(arg, ec))
    if (e.is_regular_file() && LooksLikeSquashfs(e.path()))
      out.push_back(e.path().string());
  if (ec) return Status::IoError("--image " + arg + ": " + ec.message());
  std::sort(out.begin(), out.end());
  if (out.empty())
    return Status::InvalidArgument("--image " + arg +
                                   ": the directory holds no SquashFS image");
  return out;
}

// A file name as a scenario label: no ':', '/', '@' or space.
std::string LabelOf(const std::string& path) {
  std::string stem = fs::path(path).stem().string();
  for (char& c : stem)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' &&
        c != '_' && c != '+')
      c = '_';
  return stem.empty() ? "image" : stem;
}

std::string Normalised(std::string path) {
  while (!path.empty() && path.front() == '/') path.erase(path.begin());
  while (!path.empty() && path.back() == '/') path.pop_back();
  return path;
}

// `model` with only the files the readers are aimed at, in --file order.
StatusOr<std::shared_ptr<const ImageModel>> Narrowed(
    std::shared_ptr<const ImageModel> model,
    const std::vector<std::string>& files, const std::string& origin) {
  if (files.empty()) return model;
  auto out = std::make_shared<ImageModel>(*model);
  out->files.clear();
  for (const std::string& f : files) {
    const FileModel* found = model->Find(Normalised(f));
    if (found == nullptr)
      return Status::InvalidArgument(
          "--file " + f + ": no regular file of that path in " + origin);
    out->files.push_back(*found);
  }
  return std::shared_ptr<const ImageModel>(std::move(out));
}

// The embedded image, by the name a shape would have.
constexpr const char* kEmbedded = "embedded";

StatusOr<std::string> ShapePath(const std::string& name) {
  const images::Shape* shape = images::FindShape(name);
  if (shape == nullptr)
    return Status::InvalidArgument("no image shape '" + name +
                                   "' (squashlab mkimage --list)");
  return images::CachedImage(*shape);
}

}  // namespace

StatusOr<std::vector<std::string>> ExpandShapes(
    const std::vector<std::string>& shapes) {
  std::vector<std::string> out;
  auto add = [&out](const std::string& n) {
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  };
  for (const std::string& s : shapes) {
    if (s == "all") {
      for (const images::Shape& x : images::AllShapes()) add(x.name);
    } else if (s == "default") {
      for (const std::string& n : images::DefaultShapes()) add(n);
      add(kEmbedded);
    } else if (s != kEmbedded && images::FindShape(s) == nullptr) {
      return Status::InvalidArgument("no image shape '" + s +
                                     "' (squashlab mkimage --list)");
    } else {
      add(s);
    }
  }
  return out;
}

StatusOr<std::vector<VerifyImage>> ResolveImages(const ImageChoice& choice) {
  std::vector<VerifyImage> out;
  for (const std::string& arg : choice.images) {
    auto paths = ImageFiles(arg);
    if (!paths.ok()) return paths.status();
    for (const std::string& p : *paths) {
      auto m = LoadImage(p);
      if (!m.ok())
        return Status::InvalidArgument(p + ": " + m.status().ToString());
      out.push_back({LabelOf(p), p, *m});
    }
  }
  auto shapes = ExpandShapes(choice.shapes);
  if (!shapes.ok()) return shapes.status();
  if (shapes->empty() && out.empty()) shapes->push_back(kEmbedded);
  for (const std::string& name : *shapes) {
    if (name == kEmbedded) {
      auto m = DefaultImage();
      if (!m.ok()) return m.status();
      out.push_back({name, "the embedded image", *m});
      continue;
    }
    auto path = ShapePath(name);
    if (!path.ok()) return path.status();
    auto m = LoadImage(*path);
    if (!m.ok()) return m.status();
    out.push_back({name, "shape " + name, *m});
  }
  if (out.size() == 1) {
    out[0].label.clear();
  } else {  // one label an image
    std::set<std::string> seen;
    for (VerifyImage& v : out) {
      std::string l = v.label;
      for (int n = 2; !seen.insert(l).second; n++)
        l = v.label + "-" + std::to_string(n);
      v.label = l;
    }
  }
  for (VerifyImage& v : out) {
    auto n = Narrowed(v.model, choice.files, v.origin);
    if (!n.ok()) return n.status();
    if ((*n)->files.empty())
      return Status::InvalidArgument(v.origin +
                                     ": the image has no regular file");
    v.model = *n;
  }
  return out;
}

StatusOr<std::shared_ptr<const ImageModel>> ResolveImageLabel(
    const ImageChoice& choice, const std::string& label) {
  auto all = ResolveImages(choice);
  if (!all.ok()) return all.status();
  if (label.empty()) {
    if (all->size() == 1) return all->front().model;
    return Status::InvalidArgument(
        "the token names no image and several are given: give the one it "
        "was found on");
  }
  for (const VerifyImage& v : *all)
    if (v.label == label) return v.model;
  if (label == kEmbedded || images::FindShape(label) != nullptr) {
    auto one = ResolveImages({{}, {label}, choice.files});
    if (!one.ok()) return one.status();
    return one->front().model;
  }
  return Status::InvalidArgument("the token's image '" + label +
                                 "' is none of the images given (--image)");
}

}  // namespace squashlab
