// SPDX-License-Identifier: GPL-2.0-only
// This file implements `squashlab cat [-p N] IMG PATH...`: file contents to
// stdout, decoded in parallel and written in order. A reader that closes
// the pipe early ends the command quietly (exit 141, as a shell reports for
// cat).
#include <CLI/CLI.hpp>
#include <memory>

#include "cli/cli_status.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "cli/reader/stdout_sink.h"
#include "cli/reader/tree_walker.h"
#include "reader/chunk_pipeline.h"
#include "reader/image.h"

namespace squashlab::cli {
namespace {

struct CatArgs {
  int threads = DefaultThreads();
  std::string image;
  std::vector<std::string> paths;
};

int RunCat(const CatArgs& args) {
  auto image = Image::Open(args.image);
  if (!image.ok()) return Fail(args.image, "", image.status());
  Image* img = image->get();
  IgnoreSigpipe();
  ChunkPipeline pipeline(&img->data(), args.threads);
  for (const std::string& arg : args.paths) {
    const std::string path = CanonicalImagePath(arg);
    auto inode = img->Lookup(path);
    if (!inode.ok()) return Fail(args.image, path, inode.status());
    if (inode->type != InodeType::kFile)
      return Fail(args.image, path,
                  Status::InvalidArgument("not a regular file"));
    auto layout = img->Layout(*inode);
    if (!layout.ok()) return Fail(args.image, path, layout.status());
    auto shared = std::make_shared<const FileLayout>(std::move(layout).value());
    uint64_t next = 0;
    Status st = pipeline.Run(
        [&](ChunkJob* job) {
          if (next == shared->chunk_count()) return false;
          job->layout = shared;
          job->chunk = next++;
          return true;
        },
        [&](const ChunkJob&, ByteSpan bytes) { return WriteStdout(bytes); });
    if (StdoutClosed()) return kExitBrokenPipe;
    if (!st.ok()) return Fail(args.image, path, st);
  }
  return kExitOk;
}

}  // namespace

void AddCatCommand(CLI::App* root, CommandRunner* run) {
  auto args = std::make_shared<CatArgs>();
  CLI::App* c = root->add_subcommand(
      "cat", "Write the contents of files in the image to stdout.");
  c->add_option("-p", args->threads,
                "decoding threads (default: the cores this process may use)")
      ->type_name("N")
      ->check(CLI::Range(1, 256));
  c->add_option("IMG", args->image, "the SquashFS image")
      ->required()
      ->type_name("");
  c->add_option("PATH", args->paths,
                "files in the image, written in the order given")
      ->required()
      ->type_name("");
  c->footer(
      "If stdout is closed early (a pipe into head), cat stops quietly with "
      "exit 141.");
  c->callback([args, run] { *run = [args] { return RunCat(*args); }; });
}

}  // namespace squashlab::cli
