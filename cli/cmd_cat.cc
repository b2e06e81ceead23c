// This file implements `squashlab cat [-p N] IMG PATH...`: file contents to
// stdout, decoded in parallel and written in order.
#include <unistd.h>

#include <csignal>

#include "cli/cli_status.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "cli/tree_walker.h"
#include "reader/chunk_pipeline.h"
#include "reader/image.h"

namespace squashlab::cli {

int RunCat(const Args& args) {
  int threads;
  Args rest;
  if (!TakeThreadsOption(args, &threads, &rest))
    return Usage("cat: -p takes a thread count from 1 to 256");
  if (rest.size() < 2) return Usage("cat takes an image and at least one path");
  const std::string& img_path = rest[0];
  auto image = Image::Open(img_path);
  if (!image.ok()) return Fail(img_path, "", image.status());
  Image* img = image->get();
  signal(SIGPIPE, SIG_IGN);  // a closed pipe is an I/O error, not a signal death
  ChunkPipeline pipeline(&img->data(), threads);
  for (size_t p = 1; p < rest.size(); ++p) {
    const std::string path = CanonicalImagePath(rest[p]);
    auto inode = img->Lookup(path);
    if (!inode.ok()) return Fail(img_path, path, inode.status());
    if (inode->type != InodeType::kFile)
      return Fail(img_path, path, Status::InvalidArgument("not a regular file"));
    auto layout = img->Layout(*inode);
    if (!layout.ok()) return Fail(img_path, path, layout.status());
    auto shared = std::make_shared<const FileLayout>(std::move(layout).value());
    uint64_t next = 0;
    Status st = pipeline.Run(
        [&](ChunkJob* job) {
          if (next == shared->chunk_count()) return false;
          job->layout = shared;
          job->chunk = next++;
          return true;
        },
        [&](const ChunkJob&, ByteSpan bytes) { return WriteAll(STDOUT_FILENO, bytes); });
    if (!st.ok()) return Fail(img_path, path, st);
  }
  return kExitOk;
}

}  // namespace squashlab::cli
