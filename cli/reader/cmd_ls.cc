// SPDX-License-Identifier: GPL-2.0-only
// This file implements `squashlab ls [-l] [-R] IMG [PATH]`: a directory's
// entries (or, with -R, every path below it), optionally in the long format
// of `ls -l` / `unsquashfs -lls`.
#include <CLI/CLI.hpp>
#include <memory>

#include "cli/cli_status.h"
#include "cli/commands.h"
#include "cli/reader/long_listing.h"
#include "cli/reader/stdout_sink.h"
#include "cli/reader/tree_walker.h"

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
  return PrintLine(FormatLongListing(f));
}

std::string BaseName(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

struct LsArgs {
  bool long_format = false, recursive = false;
  std::string image;
  std::string path = "/";
};

int RunLs(const LsArgs& args) {
  const bool long_format = args.long_format;
  const std::string& img_path = args.image;
  const std::string path = CanonicalImagePath(args.path);
  IgnoreSigpipe();
  auto image = Image::Open(img_path);
  if (!image.ok()) return Fail(img_path, "", image.status());
  Image* img = image->get();
  auto start = img->Lookup(path);
  if (!start.ok()) return Fail(img_path, path, start.status());
  Status st;
  if (args.recursive) {
    st = WalkTree(img, path, *start, true, [&](const WalkItem& item) {
      if (long_format) return PrintLong(img, item, item.path);
      return PrintLine(item.path);
    });
  } else if (start->type != InodeType::kDirectory && long_format) {
    st = PrintLong(img, WalkItem{path, *start}, BaseName(path));
  } else if (start->type != InodeType::kDirectory) {
    st = PrintLine(BaseName(path));
  } else {
    auto entries = img->ReadDir(*start);
    st = entries.status();
    for (size_t i = 0; entries.ok() && st.ok() && i < entries->size(); ++i) {
      const DirEntry& e = (*entries)[i];
      if (!long_format) {
        st = PrintLine(e.name);
        continue;
      }
      auto inode = img->ReadInode(e);
      st = inode.ok() ? PrintLong(img, WalkItem{"", *inode}, e.name)
                      : inode.status();
    }
  }
  if (st.ok()) st = FlushStdout();
  if (StdoutClosed()) return kExitBrokenPipe;
  if (!st.ok()) return Fail(img_path, path, st);
  return kExitOk;
}

}  // namespace

void AddLsCommand(CLI::App* root, CommandRunner* run) {
  auto args = std::make_shared<LsArgs>();
  CLI::App* c = root->add_subcommand(
      "ls",
      "List a directory of the image (or, with -R, every path below it).");
  c->add_flag("-l", args->long_format,
              "the long format of ls -l (as unsquashfs -lls prints it)");
  c->add_flag("-R", args->recursive,
              "list the whole tree below PATH, one full path a line");
  c->add_option("IMG", args->image, "the SquashFS image")
      ->required()
      ->type_name("");
  c->add_option("PATH", args->path,
                "a directory or file in the image (default: /)")
      ->type_name("");
  c->footer(
      "If stdout is closed early (a pipe into head), ls stops quietly with "
      "exit 141.");
  c->callback([args, run] { *run = [args] { return RunLs(*args); }; });
}

}  // namespace squashlab::cli
