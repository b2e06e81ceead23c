// SPDX-License-Identifier: GPL-2.0-only
// This file implements the scenarios of squashlab verify: a ScenarioSpec
// (variant, decompressor strategy, workload, fault plan, device) names one
// replayable Scenario — "variant/decomp/workload[@image][/faults[/device]]",
// the name a replay token carries — and MakeScenario builds it over an
// ImageModel: the device (the model's RAM disk, or an hw_emul BlockDevice
// with a real part's profile), mount, workload tasks and fault plan.
#ifndef SQUASHLAB_HARNESS_SCENARIO_SPEC_H_
#define SQUASHLAB_HARNESS_SCENARIO_SPEC_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "harness/image_model.h"
#include "model/kernel/scenario.h"
#include "reader/status.h"

namespace squashlab {

struct ScenarioSpec {
  std::string variant = "sync-3.13";
  std::string decomp = "single";
  std::string workload = "dd2";
  // "", "eio", "reada", "bitflip", an allocation plan (AllocFaultPlans,
  // real code only); on an hw_emul device also any
  // FaultPlan string (hw_emul/fault_plan.h), e.g. "eio@sector=40;seed=3".
  std::string faults;
  // "": the RAM disk; else an hw_emul profile (emmc-hs200, kvm-hdb,
  // usb-stick, qspi-flash, nvme), optionally ",bs=512|1024|4096" for the
  // device's logical block size.
  std::string device;
  // "": a debug kernel (KASAN, poisoning, DEBUG_VM); "prod": a production
  // one (KernelConfig::debug off), where freed objects are reused and the
  // consequences of a use-after-free play out as on the seed's kernel.
  // "lint" / "prod+lint": the same with lint findings reported
  // (KernelConfig::lint). "kcsan" (a debug kernel's, before "lint"): the
  // data-race detector too, on a KCSAN build of the code under test;
  // "kcsan+watch": with its watchpoints as scheduling points.
  std::string kernel;
  // Which of the job's images the scenario reads, when it has several
  // (VerifyImage::label): "" for the one image of a single-image job.
  std::string image;

  // "variant/decomp/workload[@image][/faults[/device[/kernel]]]"
  std::string Name() const;
  bool name_has_separator() const {
    for (const std::string* f :
         {&variant, &decomp, &workload, &faults, &device, &kernel, &image})
      if (f->find_first_of(":/") != std::string::npos) return true;
    // A device's fault plan may hold '@' ("eio@sector=40"), not these.
    return workload.find('@') != std::string::npos ||
           image.find('@') != std::string::npos;
  }
  static StatusOr<ScenarioSpec> Parse(const std::string& name);
};

// The workloads, with one line each of what they run.
const std::vector<std::pair<std::string, std::string>>& Workloads();
// The workloads of the default job, and the small exhaustive one.
const std::vector<std::string>& DefaultWorkloads();
inline constexpr const char* kSmallWorkload = "pair";
// The world around a real tree's file system, which `verify --source` adds
// to its default job: fadvise(DONTNEED), page faults through a mapping,
// page migration, name operations and symlinks beside readers (real kernel
// code only: `names` calls its directory operations, `mmap` 6.x's fault
// path).
const std::vector<std::string>& WorldWorkloads();
// The RAM disk's plans for bios: eio, reada, bitflip.
const std::vector<std::string>& FaultPlans();
// The allocation fault plans of real kernel code (model/kernel/
// fault_inject.h): failslab and fail_page_alloc (10% of the workload
// tasks' slab, resp. page allocations fail), fail-nth (each workload
// task's nth allocation of either kind fails, n from the run's seed);
// "fail-nth=N" names a fixed n.
const std::vector<std::string>& AllocFaultPlans();

class BlockDevice;
struct DeviceOptions;
struct SquashfsMount;

// ScenarioSpec::device ("profile[,bs=512|1024|4096]") as an hw_emul
// device's options, with a scenario's fault plan (ScenarioSpec::faults).
StatusOr<DeviceOptions> ParseDevice(const std::string& device,
                                    const std::string& faults);
// Called at the end of each run's setup, with the mount and the hw_emul
// device (null on the RAM disk): benchmarks and properties register their
// AtQuiescence probes here (device counters, page contents).
using ScenarioObserver =
    std::function<void(Kernel&, SquashfsMount*, BlockDevice*)>;

// Whether EIO is an acceptable read result in `spec`'s scenario: its fault
// plan can fail a bio (delays and reordering alone cannot).
bool ScenarioAllowsEio(const ScenarioSpec& spec);

// Whether a bit flipped in a compressed block of `image` is noticed when it
// is decoded: gzip's zlib stream ends in an Adler-32 and mksquashfs's xz
// streams carry a CRC32; zstd (no frame checksum), lz4 and lzo have no
// check, and SquashFS none of its own, so the flip is wrong bytes that the
// kernel returns too. The bitflip plan is refused on those images: a
// verdict must not blame a read path for what the format cannot see.
bool ImageDetectsFlips(const ImageModel& image);

StatusOr<Scenario> MakeScenario(const ScenarioSpec& spec,
                                std::shared_ptr<const ImageModel> image,
                                ScenarioObserver observe = {});

// The embedded default image (built by mksquashfs at build time), decoded.
StatusOr<std::shared_ptr<const ImageModel>> DefaultImage();
StatusOr<std::shared_ptr<const ImageModel>> LoadImage(const std::string& path);

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_SCENARIO_SPEC_H_
