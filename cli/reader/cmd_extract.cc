// SPDX-License-Identifier: GPL-2.0-only
// This file implements `squashlab extract [-p N] [-f] [-q] IMG DEST [PATH...]`:
// the options, the progress bar on a terminal and the summary line around
// Extractor, which does the work.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>

#include "cli/cli_status.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "cli/reader/dest_dir.h"
#include "cli/reader/extractor.h"
#include "cli/reader/progress.h"
#include "cli/reader/tree_walker.h"
#include "reader/image.h"

namespace squashlab::cli {
namespace {

struct ExtractFlags {
  int threads = 1;
  bool overwrite = false;  // -f
  bool quiet = false;      // -q: no progress bar, no summary
  Args operands;
};

// Returns an empty string, or what is wrong with the command line.
std::string ParseFlags(const Args& args, ExtractFlags* flags) {
  Args rest;
  if (!TakeThreadsOption(args, &flags->threads, &rest))
    return "extract: -p takes a thread count from 1 to 256";
  // Creating files blocks on directory locks and the journal: two threads a
  // core keep the cores busy (and hold their share on a loaded machine).
  if (std::find(args.begin(), args.end(), "-p") == args.end())
    flags->threads *= 2;
  for (const std::string& a : rest) {
    if (a == "-f") {
      flags->overwrite = true;
    } else if (a == "-q") {
      flags->quiet = true;
    } else if (a.size() > 1 && a[0] == '-') {
      return "extract: unknown option '" + a + "'";
    } else {
      flags->operands.push_back(a);
    }
  }
  if (flags->operands.size() < 2)
    return "extract takes an image and a destination";
  return "";
}

Status Extract(Image* image, DestDir* dest, const ExtractFlags& flags,
               const std::vector<std::string>& paths, ExtractTotals* done) {
  Extractor ex(image, dest, flags.threads);
  std::unique_ptr<ProgressBar> bar;
  if (!flags.quiet && isatty(STDERR_FILENO)) {
    SQL_ASSIGN_OR_RETURN(ExtractTotals total, CountTree(image, paths));
    bar = std::make_unique<ProgressBar>(STDERR_FILENO, &ex.counters(),
                                        total.files, total.bytes);
  }
  for (const std::string& path : paths) SQL_RETURN_IF_ERROR(ex.Add(path));
  Status st = ex.Finish();
  *done = ex.totals();
  return st;
}

}  // namespace

int RunExtract(const Args& args) {
  ExtractFlags flags;
  const std::string problem = ParseFlags(args, &flags);
  if (!problem.empty()) return Usage(problem);
  const std::string& img_path = flags.operands[0];
  auto image = Image::Open(img_path);
  if (!image.ok()) return Fail(img_path, "", image.status());
  std::vector<std::string> paths;
  for (size_t i = 2; i < flags.operands.size(); ++i)
    paths.push_back(CanonicalImagePath(flags.operands[i]));
  if (paths.empty()) paths.push_back("/");
  paths = DisjointPaths(paths);
  const auto start = std::chrono::steady_clock::now();
  auto dest = DestDir::Open(flags.operands[1], flags.overwrite);
  if (!dest.ok()) return Fail("", flags.operands[1], dest.status());
  // Entries are created with their final permission bits.
  const mode_t saved_umask = umask(0);
  ExtractTotals done;
  const Status st = Extract(image->get(), dest->get(), flags, paths, &done);
  umask(saved_umask);
  for (const std::string& w : (*dest)->warnings())
    std::fprintf(stderr, "squashlab: warning: %s\n", w.c_str());
  if (!st.ok())
    return Fail(st.code() == StatusCode::kIoError ? "" : img_path, "", st);
  if (!flags.quiet) {
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    std::printf("%s\n", RenderSummary(done, s).c_str());
  }
  return kExitOk;
}

}  // namespace squashlab::cli
