// SPDX-License-Identifier: GPL-2.0-only
// This file implements `squashlab mkimage`: images of the shape matrix
// (harness/images) built by the real producers into a directory, one line
// per image, and `--list`, the matrix as a table.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cli/arg_checks.h"
#include "cli/cli_status.h"
#include "cli/commands.h"
#include "harness/images/images.h"

namespace squashlab::cli {
namespace {

namespace img = squashlab::images;

struct MkimageArgs {
  std::vector<std::string> shapes;
  std::string dir;
  bool list = false;
};

bool IsDefault(const std::string& name) {
  for (const std::string& d : img::DefaultShapes())
    if (d == name) return true;
  return false;
}

int PrintList() {
  std::printf("%-29s %-14s %-5s %-5s %s\n", "name", "producer", "codec",
              "block", "what it exercises");
  for (const img::Shape& s : img::AllShapes())
    std::printf("%-29s %-14s %-5s %-5s %s\n",
                (s.name + (IsDefault(s.name) ? " *" : "")).c_str(),
                img::ProducerName(s.producer), s.codec.c_str(),
                img::BlockSizeName(s.block_size).c_str(), s.summary.c_str());
  std::printf("%zu shapes; * the default set (verify's, `--shape default`)\n",
              img::AllShapes().size());
  return kExitOk;
}

// The shapes the names select, in the matrix's order; "" or the name that
// is not a shape.
std::string Select(const std::vector<std::string>& names,
                   std::vector<const img::Shape*>* out) {
  std::vector<std::string> wanted;
  for (const std::string& n : names) {
    if (n == "all") {
      for (const img::Shape& s : img::AllShapes()) wanted.push_back(s.name);
    } else if (n == "default") {
      for (const std::string& d : img::DefaultShapes()) wanted.push_back(d);
    } else if (img::FindShape(n) == nullptr) {
      return n;
    } else {
      wanted.push_back(n);
    }
  }
  for (const img::Shape& s : img::AllShapes())
    for (const std::string& w : wanted)
      if (w == s.name) {
        out->push_back(&s);
        break;
      }
  return "";
}

int RunMkimage(const MkimageArgs& args) {
  if (args.list) return PrintList();
  if (args.dir.empty())
    return UsageError("mkimage", "DIR is required (or --list)");
  std::vector<const img::Shape*> shapes;
  const std::string unknown = Select(
      args.shapes.empty() ? std::vector<std::string>{"default"} : args.shapes,
      &shapes);
  if (!unknown.empty())
    return UsageError("mkimage", "no shape '" + unknown +
                                     "' ('squashlab mkimage --list' shows "
                                     "the names)");
  int failed = 0;
  for (const img::Shape* s : shapes) {
    const std::string path = args.dir + "/" + s->name + ".sqfs";
    const auto start = std::chrono::steady_clock::now();
    auto built = img::BuildImage(*s, path);
    const std::chrono::duration<double> took =
        std::chrono::steady_clock::now() - start;
    if (!built.ok()) {
      std::fprintf(stderr, "squashlab mkimage: %s\n",
                   built.status().ToString().c_str());
      failed++;
      continue;
    }
    std::error_code ec;
    std::printf("%s  %ju bytes  %s %s %s  %.2f s\n", path.c_str(),
                static_cast<uintmax_t>(std::filesystem::file_size(path, ec)),
                img::ProducerName(s->producer), s->codec.c_str(),
                img::BlockSizeName(s->block_size).c_str(), took.count());
    std::fflush(stdout);
  }
  return failed ? 1 : kExitOk;
}

}  // namespace

void AddMkimageCommand(CLI::App* root, CommandRunner* run) {
  auto args = std::make_shared<MkimageArgs>();
  CLI::App* c = root->add_subcommand(
      "mkimage",
      "Build SquashFS images of the shape matrix with the real producers "
      "(mksquashfs, gensquashfs): DIR/NAME.sqfs for each shape, the same "
      "bytes on every run and machine (harness/images/README.md).");
  c->add_option("DIR", args->dir,
                "the directory to write into (created if missing)")
      ->type_name("")
      ->check(WritableDir());
  c->add_option("--shape", args->shapes,
                "a shape: a name from --list, 'all' or 'default' (repeatable; "
                "default: the default set)")
      ->type_name("NAME")
      ->allow_extra_args(false);  // one name per --shape: DIR may follow
  c->add_flag("--list", args->list,
              "print the matrix (name, producer, codec, block size, what it "
              "exercises) and exit");
  c->footer(
      "Exit status: 0 every image written, 1 a producer or the file system "
      "failed (the message names the command and what it printed), 2 "
      "usage.");
  c->callback([args, run] { *run = [args] { return RunMkimage(*args); }; });
}

}  // namespace squashlab::cli
