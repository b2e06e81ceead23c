// SPDX-License-Identifier: GPL-2.0-only
// This file implements the options that choose what is explored, shared
// by `verify` and `campaign`, and the slab arena's size.
#include "cli/lab/exploration_options.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cli/arg_checks.h"
#include "cli/cli_status.h"
#include "cli/lab/model_choices.h"
#include "harness/arena.h"
#include "harness/verify/verify.h"

namespace squashlab::cli {
namespace {

// The arena's failure: its line, then the usage status at once (other
// threads may be mid-run; nothing of theirs is worth finishing).
[[noreturn]] void ExitOnArenaFailure(const char* message) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s\n", message);
  std::_Exit(kExitUsage);
}

}  // namespace

void AddCellOptions(CLI::App* c, VerifyOptions* opt) {
  c->add_option("--variant", opt->variants,
                "a read-path variant to explore (repeatable; "
                "default: all)")
      ->type_name("V")
      ->check(CLI::IsMember(VariantNamesWithSource()));
  c->add_option("--decomp", opt->decomps,
                "a decompressor strategy (repeatable; default: all)")
      ->type_name("D")
      ->check(CLI::IsMember(DecompNames()));
  c->add_option("--workload", opt->workloads,
                "a workload (repeatable; default: the default set, and "
                "with --source every and the world's: dontneed, mmap, "
                "migrate, names, readlink)")
      ->type_name("W")
      ->check(CLI::IsMember(WorkloadNames()));
  c->add_option("--kernel", opt->kernels,
                "debug (KASAN, poisoning, DEBUG_VM) or prod (a production "
                "slab: freed objects "
                "reused, consequences play out); repeatable (default: both)")
      ->type_name("K")
      ->check(CLI::IsMember({"debug", "prod"}));
  c->add_option("--image", opt->images.images,
                "a SquashFS image to read, or a directory of them "
                "(repeatable; default: the embedded one, or with --source "
                "the default shapes and the embedded one)")
      ->type_name("IMG")
      ->check(CLI::ExistingPath);
  c->add_option("--shape", opt->images.shapes,
                "an image of the generator's matrix (squashlab mkimage "
                "--list), 'default' or 'all'; made once and cached "
                "(repeatable)")
      ->type_name("NAME");
  c->add_option("--file", opt->images.files,
                "a file of the image the readers read (a path from its "
                "root; repeatable; default: chosen by shape among all)")
      ->type_name("PATH");
}

void AddPlanOptions(CLI::App* c, VerifyOptions* opt) {
  c->add_option(
       "--faults", opt->faults,
       "eio, reada or bitflip (bitflip: gzip or xz images, whose codecs "
       "check what they decode); for real code also failslab, "
       "fail_page_alloc (10% of the readers' slab or page allocations "
       "fail), fail-nth (each reader's nth allocation fails, n from the "
       "seed) or fail-nth=N; or an hw_emul fault plan with --device")
      ->type_name("PLAN");
  c->add_option("--device", opt->device,
                "an hw_emul device instead of the RAM disk (emmc-hs200, "
                "kvm-hdb, usb-stick, "
                "qspi-flash, nvme; bs=512|1024|4096)")
      ->type_name("PROFILE[,bs=N]");
  c->add_option("--seed", opt->seed, "the first seed")
      ->capture_default_str()
      ->type_name("N");
}

void AddBoundOptions(CLI::App* c, VerifyOptions* opt) {
  c->add_option("--preemption-bound", opt->preemption_bound,
                "exhaustive: preemptions at most")
      ->capture_default_str()
      ->type_name("N")
      ->check(AtLeast(0));
  c->add_flag_callback(
      "--no-por", [opt] { opt->por = opt->iterative = false; },
      "exhaustive: the full search (no partial-order reduction, one pass at "
      "the bound)");
  c->add_flag("--lint", opt->lint,
              "also report lint findings (checks with no kernel "
              "counterpart, titled 'lint: ...'); they count in the verdict");
}

void AddDetectorOptions(CLI::App* c, VerifyOptions* opt) {
  c->add_option("--detector", opt->detector,
                "kcsan: also the data-race detector (KCSAN's reports) on "
                "the debug kernel, on a KCSAN build of the --source tree")
      ->type_name("D")
      ->check(CLI::IsMember({"kcsan"}));
  c->add_flag("--watchpoints", opt->watchpoints,
              "with --detector kcsan: a plain access to an object another "
              "task touched is a scheduling point (races driven, not only "
              "seen)");
}

void AddArenaOption(CLI::App* c) {
  c->add_option_function<size_t>(
       "--arena-mb", [](size_t mib) { SetArenaSizeMiB(mib); },
       std::string("the slab arena's size in MiB (default: ") + ArenaSizeEnv() +
           " if set, else " + std::to_string(ArenaDefaultMiB()) +
           " or what the address-space limit leaves); an arena that cannot "
           "be reserved or fills up ends the command with exit 2")
      ->type_name("N")
      ->check(CLI::Range(size_t{1}, ArenaMaxMiB()));
  c->parse_complete_callback(
      [] { SetArenaFailureHandler(&ExitOnArenaFailure); });
}

}  // namespace squashlab::cli
