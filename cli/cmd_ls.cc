// This file implements `squashlab ls [-l] [-R] IMG [PATH]`.
#include <cstdio>

#include "cli/cli_status.h"
#include "cli/commands.h"
#include "cli/long_listing.h"
#include "cli/tree_walker.h"

namespace squashlab::cli {
namespace {

Status PrintLong(Image* image, const WalkItem& item, const std::string& shown) {
  const Inode& in = item.inode;
  LongListingFields f;
  f.mode = in.mode();
  SQL_ASSIGN_OR_RETURN(uint32_t uid, image->Uid(in));
  SQL_ASSIGN_OR_RETURN(uint32_t gid, image->Gid(in));
  f.user = UserName(uid);
  f.group = GroupName(gid);
  f.size = in.size();
  f.rdev_major = in.rdev_major();
  f.rdev_minor = in.rdev_minor();
  f.mtime = in.mtime;
  f.path = shown;
  f.symlink_target = in.symlink_target;
  std::printf("%s\n", FormatLongListing(f).c_str());
  return Status::Ok();
}

std::string BaseName(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

int RunLs(const Args& args) {
  bool long_format = false, recursive = false;
  Args rest;
  for (const std::string& a : args) {
    if (a == "-l") long_format = true;
    else if (a == "-R") recursive = true;
    else if (a == "-lR" || a == "-Rl") long_format = recursive = true;
    else if (a.size() > 1 && a[0] == '-') return Usage("ls: unknown option " + a);
    else rest.push_back(a);
  }
  if (rest.empty() || rest.size() > 2) return Usage("ls takes an image and at most one path");
  const std::string& img_path = rest[0];
  const std::string path = CanonicalImagePath(rest.size() == 2 ? rest[1] : "/");
  auto image = Image::Open(img_path);
  if (!image.ok()) return Fail(img_path, "", image.status());
  Image* img = image->get();
  auto start = img->Lookup(path);
  if (!start.ok()) return Fail(img_path, path, start.status());
  Status st;
  if (recursive) {
    st = WalkTree(img, path, *start, true, [&](const WalkItem& item) {
      if (long_format) return PrintLong(img, item, item.path);
      std::printf("%s\n", item.path.c_str());
      return Status::Ok();
    });
  } else if (start->type != InodeType::kDirectory && long_format) {
    st = PrintLong(img, WalkItem{path, *start}, BaseName(path));
  } else if (start->type != InodeType::kDirectory) {
    std::printf("%s\n", BaseName(path).c_str());
  } else {
    auto entries = img->ReadDir(*start);
    st = entries.status();
    for (size_t i = 0; entries.ok() && st.ok() && i < entries->size(); ++i) {
      const DirEntry& e = (*entries)[i];
      if (!long_format) {
        std::printf("%s\n", e.name.c_str());
        continue;
      }
      auto inode = img->ReadInode(e);
      st = inode.ok() ? PrintLong(img, WalkItem{"", *inode}, e.name) : inode.status();
    }
  }
  std::fflush(stdout);
  if (!st.ok()) return Fail(img_path, path, st);
  return kExitOk;
}

}  // namespace squashlab::cli
