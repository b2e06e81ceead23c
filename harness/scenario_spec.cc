// SPDX-License-Identifier: GPL-2.0-only
// This file implements the verify scenarios and their fault plans.
#include "harness/scenario_spec.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <span>

#include "harness/linux_mount.h"
#include "harness/mount.h"
#include "harness/names_workload.h"
#include "harness/small_image.h"
#include "harness/workload_files.h"
#include "harness/workloads.h"
#include "hw_emul/block_device.h"
#include "model/base/rng.h"
#include "model/kernel/fault_inject.h"
#include "model/kernel/kernel.h"
#include "model/variants/decompressor.h"
#include "model/variants/read_path.h"
#include "reader/image_bytes.h"

namespace squashlab {

namespace {

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); i++) {
    if (i == s.size() || s[i] == sep) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

// Each bio's fate is a function of the run's seed and the bio's id (ids
// follow allocation order): completions share no state, so the order in
// which interrupt handlers run does not change which bios fail (and the
// exhaustive search may let their first steps commute).
void InstallFaults(Kernel& k, SquashfsMount* m, const std::string& plan) {
  if (plan.empty() || plan == "bitflip") return;
  const uint64_t base = Rng::Mix(k.config().seed, 77);
  if (plan == "eio") {
    m->disk->set_fault([base](const bio* b) {
      return Rng::Mix(base, b->id) % 6 == 0 ? -EIO : 0;
    });
  } else if (plan == "reada") {
    // A congested queue failing read-ahead: a third of the requests
    // complete with -EWOULDBLOCK, as failed READA requests do (the end_io
    // handler sees uptodate == 0).
    m->disk->set_fault([base](const bio* b) {
      return Rng::Mix(base, b->id) % 3 == 0 ? -EWOULDBLOCK : 0;
    });
  }
}

// The hw_emul fault plan a scenario's fault name stands for on a device:
// the RAM disk's plans at the same rates, else the string itself.
std::string DevicePlan(const std::string& faults) {
  if (faults == "eio") return "eio=0.167";
  if (faults == "reada") return "reada_drop=0.333";
  if (faults == "bitflip") return "";  // the medium carries the flip
  return faults;
}

}  // namespace

// "profile[,bs=N]" into device options with the scenario's fault plan.
StatusOr<DeviceOptions> ParseDevice(const std::string& device,
                                    const std::string& faults) {
  auto parts = Split(device, ',');
  unsigned bs = 1024;
  for (size_t i = 1; i < parts.size(); i++) {
    if (parts[i] == "bs=512")
      bs = 512;
    else if (parts[i] == "bs=1024")
      bs = 1024;
    else if (parts[i] == "bs=4096")
      bs = 4096;
    else
      return Status::InvalidArgument(
          "device: want profile[,bs=512|1024|4096]: " + device);
  }
  return MakeDeviceOptions(parts[0], DevicePlan(faults), bs);
}

namespace {

std::vector<uint8_t> Medium(const ImageModel& img, const std::string& plan,
                            uint64_t seed) {
  if (plan != "bitflip") return {};
  auto ranges = img.CompressedRanges();
  if (ranges.empty()) return {};
  Rng rng(Rng::Mix(seed, 99));
  auto [start, end] = ranges[rng.Below(ranges.size())];
  std::vector<uint8_t> bytes = img.bytes;
  uint64_t at = start + rng.Below(end - start);
  bytes[at] ^= static_cast<uint8_t>(1u << rng.Below(8));
  return bytes;
}

void SpawnWorkload(Kernel& k, SquashfsMount* m, const ImageModel& img,
                   const WorkloadFiles& files, const std::string& w, bool eio) {
  const FileModel* a = files.largest;
  const FileModel* b = files.tail;
  inode* ia = m->Find(a->name);
  inode* ib = m->Find(b->name);
  ReaderOptions o;
  o.eio_allowed = eio;
  if (w == "dd") {
    spawn_dd(k, ia, a, o);
  } else if (w == "dd2") {
    o.comm = "dd";
    spawn_dd(k, ia, a, o);
    o.comm = "dd-bs16k";
    o.bs = 16384;
    spawn_dd(k, ia, a, o);
  } else if (w == "ddx2") {
    o.comm = "dd";
    spawn_dd(k, ia, a, o);
    o.comm = "dd-b";
    o.bs = 8192;
    spawn_dd(k, ib, b, o);
  } else if (w == "frag2") {
    const FileModel* x = files.fragment_a;
    const FileModel* y = files.fragment_b;
    o.comm = "cat1";
    spawn_dd(k, m->Find(x->name), x, o);
    o.comm = "cat2";
    spawn_dd(k, m->Find(y->name), y, o);
  } else if (w == "every") {
    // Every file of the image, whatever its shape (sparse blocks,
    // uncompressed blocks, fragment-only, a tail in a fragment, ...), by
    // two readers in opposite orders that meet in the middle.
    // (A large file: its first and last two blocks; an image of many
    // files: EveryFiles' choice.)
    std::vector<std::pair<inode*, const FileModel*>> all;
    for (const FileModel* f : files.every)
      if (inode* i = m->Find(f->name)) all.push_back({i, f});
    const uint64_t span = 2 * uint64_t{img.block_size};
    o.comm = "cat1";
    spawn_cat(k, all, span, o);
    std::reverse(all.begin(), all.end());
    o.comm = "cat2";
    spawn_cat(k, all, span, o);
  } else if (w == "rand") {
    o.comm = "rand1";
    spawn_random_reader(k, ia, a, o, 3, 1);
    o.comm = "rand2";
    spawn_random_reader(k, ia, a, o, 3, 2);
  } else if (w == "jbd2") {
    o.comm = "rand1";
    spawn_random_reader(k, ia, a, o, 3, 1);
    o.comm = "rand2";
    spawn_random_reader(k, ia, a, o, 3, 2);
    spawn_journal(k, "jbd2/sda1-8", 0, 12, 3);
    spawn_journal(k, "jbd2/sdb1-8", 1, 12, 3);
  } else if (w == "klogd") {
    o.comm = "rand1";
    spawn_random_reader(k, ia, a, o, 3, 1);
    o.comm = "rand2";
    spawn_random_reader(k, ia, a, o, 3, 2);
    spawn_klogd(k, 0, 6, 448);
  } else if (w == "reclaim") {
    o.comm = "dd";
    o.bs = 8192;
    spawn_dd(k, ia, a, o);
    spawn_reclaim(k, ia, 2);
    o.comm = "dd-2";
    o.bs = 4096;
    o.start = std::min<uint64_t>(a->content.size() / 2, 16384);
    spawn_dd(k, ia, a, o);
  } else if (w == "dontneed") {
    // A dd over the file while another reader drops pages it read with
    // fadvise(DONTNEED): one page, a block's middle, the whole file.
    o.comm = "dd";
    spawn_dd(k, ia, a, o);
    o.comm = "fadvise";
    spawn_dontneed_reader(k, ia, a, img.block_size, o, 3);
    // And the last block of the file whose last block ends mid-page (the
    // page zeroed past EOF): its pages dropped and read again.
    if (const FileModel* e = files.short_end) {
      o.comm = "fadvise-end";
      spawn_dontneed_reader(k, m->Find(e->name), e, img.block_size, o, 5,
                            /*last=*/true);
    }
  } else if (w == "names") {
    // The VFS's name operations beside a reader: getdents in calls of
    // several sizes (and seekdir), lookups, readlink, xattrs.
    const NamesChoice names = ChooseNames(img);
    o.comm = "dd";
    spawn_dd(k, ia, a, o);
    spawn_ls(k, m->linux_sb, names, "ls", {1, 3, 64, 7}, 48, eio);
    spawn_namei(k, m->linux_sb, names, "namei", eio);
  } else if (w == "mmap") {
    // The largest file mapped and loaded page by page through the fault
    // path: forwards and backwards over its first and last two blocks, and
    // a few random pages under MADV_RANDOM (each read by ->read_folio);
    // the last page of a file with a fragment tail through its own mapping
    // (zeros past EOF); beside them a read()er of the same file and reclaim.
    const uint64_t span = 2 * uint64_t{img.block_size};
    o.comm = "mmap-seq";
    spawn_mmap_reader(k, ia, a, MmapOrder::kSequential, false, span, o, 0, 0);
    o.comm = "mmap-back";
    spawn_mmap_reader(k, ia, a, MmapOrder::kBackward, false, span, o, 0, 0);
    o.comm = "mmap-rand";
    spawn_mmap_reader(k, ia, a, MmapOrder::kRandom, true, span, o, 4, 5);
    o.comm = "mmap-tail";
    spawn_mmap_reader(k, ib, b, MmapOrder::kLastPage, false, span, o, 0, 0);
    o.comm = "dd";
    o.bs = 16384;
    spawn_dd(k, ia, a, o);
    spawn_reclaim(k, ia, 2);
  } else if (w == "readlink") {
    // readlink(2) of the image's symlinks (page_get_link: the symlink's
    // page through ->read_folio), by two readers in opposite orders.
    std::vector<std::pair<inode*, const FileModel*>> all;
    for (const FileModel* l : files.symlinks)
      if (inode* i = m->Find(l->name)) all.push_back({i, l});
    o.comm = "readlink1";
    spawn_cat(k, all, 4096, o);  // a symlink is one page at most
    std::reverse(all.begin(), all.end());
    o.comm = "readlink2";
    spawn_cat(k, all, 4096, o);  // a symlink is one page at most
  } else if (w == "migrate") {
    // Two readers of consecutive blocks (a block's compressed bytes share
    // a device block with the next one's), each reading its first eight
    // blocks twice, its page cache dropped in between (the second pass
    // reads every block from the device again), while compaction migrates
    // the folios of every page cache: the files' and any private one.
    auto* running = k.New<std::atomic<int>>(0);
    o.end = 8 * uint64_t{img.block_size};
    o.comm = "dd";
    spawn_reread(k, ia, a, o, 2, running);
    o.comm = "dd-b";
    o.bs = 8192;
    spawn_reread(k, ib, b, o, 2, running);
    spawn_kcompactd(k, running, 32, 4);
  } else if (w == "straddle") {
    // Block 2's last page and block 3's first in one read, while another
    // reader takes block 1's last page: its window grows over block 2.
    uint64_t bs = img.block_size;
    o.comm = "straddle";
    o.start = 3 * bs - 4096;
    o.end = o.start + 8192;
    o.bs = 8192;
    spawn_dd(k, ia, a, o);
    o.comm = "before";
    o.start = 2 * bs - 4096;
    o.end = 2 * bs;
    o.bs = 4096;
    spawn_dd(k, ia, a, o);
  } else {  // "pair": two single-page reads of neighbouring blocks, no
            // readahead
    uint64_t bs = img.block_size;
    o.ra_pages = 0;
    o.comm = "reader1";
    o.start = bs - 4096;
    o.end = bs;
    spawn_dd(k, ia, a, o);
    o.comm = "reader2";
    o.start = bs;
    o.end = bs + 4096;
    spawn_dd(k, ia, a, o);
  }
}

// The kernel field's parts, in their order: prod, kcsan, watch (with
// kcsan), lint; each at most once; kcsan never with prod (its shadow
// assumes the debug heap, which does not reuse freed memory in a run).
struct KernelFlags {
  bool ok = true, prod = false, kcsan = false, watch = false, lint = false;
};
KernelFlags ParseKernelFlags(const std::string& kernel) {
  KernelFlags f;
  if (kernel.empty()) return f;
  const char* order[] = {"prod", "kcsan", "watch", "lint"};
  bool* flag[] = {&f.prod, &f.kcsan, &f.watch, &f.lint};
  size_t next = 0, pos = 0;
  while (pos <= kernel.size()) {
    size_t end = kernel.find('+', pos);
    if (end == std::string::npos) end = kernel.size();
    const std::string part = kernel.substr(pos, end - pos);
    while (next < 4 && part != order[next]) next++;
    if (next == 4) return KernelFlags{false};
    *flag[next++] = true;
    pos = end + 1;
  }
  if ((f.watch && !f.kcsan) || (f.kcsan && f.prod)) f.ok = false;
  return f;
}

}  // namespace

std::string ScenarioSpec::Name() const {
  std::string n = variant + "/" + decomp + "/" + workload;
  if (!image.empty()) n += "@" + image;
  if (!faults.empty() || !device.empty() || !kernel.empty()) n += "/" + faults;
  if (!device.empty() || !kernel.empty()) n += "/" + device;
  if (!kernel.empty()) n += "/" + kernel;
  return n;
}

StatusOr<ScenarioSpec> ScenarioSpec::Parse(const std::string& name) {
  auto f = Split(name, '/');
  if (f.size() < 3 || f.size() > 6)
    return Status::InvalidArgument(
        "scenario: want "
        "variant/decomp/workload[@image][/faults[/device[/kernel]]]: " +
        name);
  ScenarioSpec s;
  s.variant = f[0];
  s.decomp = f[1];
  s.workload = f[2];
  if (size_t at = s.workload.find('@'); at != std::string::npos) {
    s.image = s.workload.substr(at + 1);
    s.workload.resize(at);
  }
  if (f.size() >= 4) s.faults = f[3];
  if (f.size() >= 5) s.device = f[4];
  if (f.size() == 6) s.kernel = f[5];
  return s;
}

const std::vector<std::pair<std::string, std::string>>& Workloads() {
  static const std::vector<std::pair<std::string, std::string>> kAll = {
      {"dd", "one dd bs=4K over the largest file"},
      {"dd2", "two dds (bs=4K, bs=16K) over the same file"},
      {"ddx2", "dds over two different files (one with a fragment tail)"},
      {"rand", "two random readers, 3 reads of 4K each"},
      {"reclaim",
       "dd bs=8K, a second dd from the middle, reclaim evicting clean pages"},
      {"pair",
       "two readers, one page each of two neighbouring blocks, no readahead"},
      {"frag2",
       "two readers of two small files whose tails share a fragment "
       "block"},
      {"every",
       "two readers of every file of the image (each shape: sparse, "
       "uncompressed, fragment-only, a fragment tail), in opposite orders"},
      {"dontneed",
       "a dd, and a reader that drops pages it read with "
       "fadvise(POSIX_FADV_DONTNEED): one page of a block, its middle "
       "pages, the whole file, each read again; and another doing so with "
       "the last block of a file that ends mid-page"},
      {"names",
       "real code: a dd, getdents of the largest directories in calls of "
       "1, 3, 7 and 64 entries (and seekdir), and lookups of symlinks, "
       "inodes with xattrs and the deepest path, with readlink through "
       "the page cache and every xattr listed and read"},
      {"readlink",
       "two readers of the image's symlinks (readlink: each one's page "
       "through ->read_folio), in opposite orders"},
      {"migrate",
       "dds over two files, each read twice (dropped with "
       "fadvise(DONTNEED) between), while compaction migrates page cache "
       "folios (the files' and a file system's private cache), in either "
       "of mainline's two orders"},
      {"straddle",
       "one read across a block boundary, another of the page before the "
       "first block (readahead windows that meet mid-block)"},
      {"mmap",
       "page faults on a read-only mapping of the largest file (forwards, "
       "backwards, random pages under MADV_RANDOM) and of a fragment tail's "
       "last page, beside a read()er and reclaim (6.x MM only)"},
      {"jbd2",
       "the two random readers, and a journal thread on each CPU looking up "
       "buffers of its own device (the bh LRU's evictions)"},
      {"klogd",
       "the two random readers, and a syslog daemon sending messages from "
       "kmalloc(448) buffers (the seed's klogd: kmalloc-512)"},
  };
  return kAll;
}

const std::vector<std::string>& DefaultWorkloads() {
  static const std::vector<std::string> kDefault = {"dd2",  "ddx2",    "rand",
                                                    "jbd2", "reclaim", "frag2"};
  return kDefault;
}

const std::vector<std::string>& WorldWorkloads() {
  static const std::vector<std::string> kWorld = {"dontneed", "mmap", "migrate",
                                                  "names", "readlink"};
  return kWorld;
}

const std::vector<std::string>& FaultPlans() {
  static const std::vector<std::string> kPlans = {"eio", "reada", "bitflip"};
  return kPlans;
}

const std::vector<std::string>& AllocFaultPlans() {
  static const std::vector<std::string> kPlans = {"failslab", "fail_page_alloc",
                                                  "fail-nth"};
  return kPlans;
}

bool ScenarioAllowsEio(const ScenarioSpec& spec) {
  FaultInjectConfig alloc;
  if (std::find(FaultPlans().begin(), FaultPlans().end(), spec.faults) !=
          FaultPlans().end() ||
      ParseAllocFaultPlan(spec.faults, &alloc))
    return true;
  if (spec.device.empty()) return false;
  auto dev = ParseDevice(spec.device, spec.faults);
  return dev.ok() && dev->faults.can_fail();
}

bool ImageDetectsFlips(const ImageModel& image) {
  return image.compressor == CompressorId::kGzip ||
         image.compressor == CompressorId::kXz;
}

StatusOr<Scenario> MakeScenario(const ScenarioSpec& spec,
                                std::shared_ptr<const ImageModel> image,
                                ScenarioObserver observe) {
  const bool real = IsLinuxVariant(spec.variant);
  const ReadPathOps* rp = real ? nullptr : FindReadPath(spec.variant);
  if (rp == nullptr && !real)
    return Status::InvalidArgument("unknown variant " + spec.variant);
  const SquashfsDecompressorOps* dc = FindDecompressor(spec.decomp);
  if (dc == nullptr)
    return Status::InvalidArgument("unknown decompressor " + spec.decomp);
  const LinuxModule* module = nullptr;
  std::string mount_options;
  if (real) {
    auto mod = LinuxModuleFor(spec.variant, spec.decomp, &mount_options);
    if (!mod.ok()) return mod.status();
    module = *mod;
  }
  bool known = false;
  for (const auto& [w, d] : Workloads()) known |= w == spec.workload;
  if (!known)
    return Status::InvalidArgument("unknown workload " + spec.workload);
  if (spec.workload == "names" && !real)
    return Status::InvalidArgument(
        "the names workload calls real kernel code's directory, symlink "
        "and xattr operations (linux-6.1, linux-6.12, --source): not " +
        spec.variant + "'s");
  // An allocation fault plan fails what the code under test allocates
  // through the header layer (model/linux/bridge): real code only.
  FaultInjectConfig alloc_faults;
  const bool alloc_plan = ParseAllocFaultPlan(spec.faults, &alloc_faults);
  if (alloc_plan && !real)
    return Status::InvalidArgument(
        "the fault plan " + spec.faults +
        " fails the allocations of real kernel code (linux-6.1, linux-6.12, "
        "--source): not of " +
        spec.variant);
  if (alloc_plan && !spec.device.empty())
    return Status::InvalidArgument("the fault plan " + spec.faults +
                                   " runs on the RAM disk (no --device)");
  bool named_plan = std::find(FaultPlans().begin(), FaultPlans().end(),
                              spec.faults) != FaultPlans().end();
  if (!spec.faults.empty() && !named_plan && !alloc_plan && spec.device.empty())
    return Status::InvalidArgument(
        "unknown fault plan " + spec.faults +
        " (eio, reada, bitflip, failslab, fail_page_alloc, fail-nth, "
        "fail-nth=N)");
  const KernelFlags kflags = ParseKernelFlags(spec.kernel);
  if (!kflags.ok)
    return Status::InvalidArgument(
        "kernel: want prod, kcsan, kcsan+watch, lint, or them joined by '+' "
        "in that order (or nothing, a debug kernel): " +
        spec.kernel);
  if (spec.name_has_separator())
    return Status::InvalidArgument(
        "scenario fields may not contain ':' or '/' (nor a workload or "
        "image label '@')");
  std::optional<DeviceOptions> dev;
  if (!spec.device.empty()) {
    auto o = ParseDevice(spec.device, spec.faults);
    if (!o.ok()) return o.status();
    dev = *o;
  }
  if (image->files.empty())
    return Status::InvalidArgument("image has no regular file");
  if (spec.faults == "bitflip" && !ImageDetectsFlips(*image))
    return Status::InvalidArgument(
        "the bitflip plan needs an image whose codec checks what it decodes "
        "(gzip, xz): in this one a flipped bit is wrong bytes that the "
        "kernel returns too");
  // A read may end in EIO only under a plan that can fail a bio (or flip a
  // bit the codec notices); delays and reordering must not cost a byte.
  const bool eio_possible = ScenarioAllowsEio(spec);
  Scenario sc;
  sc.name = spec.Name();
  sc.config.ncpus = 2;
  sc.config.preempt_rt = spec.decomp == "percpu-locallock";
  sc.config.max_steps = 200000;
  sc.config.debug = !kflags.prod;
  // Lint findings (no kernel counterpart) become reports only when asked.
  sc.config.lint = kflags.lint;
  sc.config.kcsan = kflags.kcsan;
  sc.config.kcsan_watch = kflags.watch;
  sc.config.mm_era = real ? LinuxMmEra(spec.variant) : rp->mm;
  if (spec.workload == "mmap" && sc.config.mm_era == MmEra::k3_13)
    return Status::InvalidArgument(
        "the mmap workload faults through 6.1's and 6.12's fault path: "
        "not under 3.13's MM (" +
        spec.variant +
        "); run it on linux-6.1, linux-6.12, readahead-mainline or --source");
  sc.config.fault_inject = alloc_faults;
  // The RAM disk's completion copies the medium into the bio's pages and
  // nothing else (a fault plan decides each bio by its id alone).
  sc.irq_starts_commute = spec.device.empty();
  // The device's medium when no fault rewrites it: shared by every run.
  std::shared_ptr<const ImageBytes> pristine;
  if (dev) pristine = ImageBytes::FromBuffer(image->bytes);
  // Chosen once: every run of the scenario reads the same files.
  auto files =
      std::make_shared<const WorkloadFiles>(ChooseWorkloadFiles(*image));
  auto names = std::make_shared<const std::vector<std::string>>(
      files->Names(spec.workload));
  sc.setup = [spec, rp, dc, image, dev, pristine, observe, eio_possible, module,
              mount_options, files, names](Kernel& k) {
    std::vector<uint8_t> medium = Medium(*image, spec.faults, k.config().seed);
    SquashfsMount* m = nullptr;
    BlockDevice* device = nullptr;
    if (dev) {
      auto bytes =
          medium.empty() ? pristine : ImageBytes::FromBuffer(std::move(medium));
      m = module ? squashfs_device_only(k, bytes, *dev)
                 : squashfs_mount(k, *image, rp, dc, bytes, *dev);
      device = m->device;
    } else {
      m = module ? squashfs_device_only(k, *image, std::move(medium))
                 : squashfs_mount(k, *image, rp, dc, std::move(medium));
      InstallFaults(k, m, spec.faults);
    }
    if (module) {
      SpawnLinuxMount(k, m, *image, *names, module, mount_options,
                      [&k, m, image, files, spec, eio_possible] {
                        // The mount is done: the workload's tasks are the
                        // ones a fault plan may fail.
                        k.SetMakeItFail(true);
                        SpawnWorkload(k, m, *image, *files, spec.workload,
                                      eio_possible);
                      });
    } else {
      SpawnWorkload(k, m, *image, *files, spec.workload, eio_possible);
    }
    if (observe) observe(k, m, device);
  };
  return sc;
}

StatusOr<std::shared_ptr<const ImageModel>> DefaultImage() {
  static StatusOr<std::shared_ptr<const ImageModel>>* cached = [] {
    auto bytes = EmbeddedSmallImage();
    auto m = LoadImageModel(std::vector<uint8_t>(bytes.begin(), bytes.end()));
    if (!m.ok())
      return new StatusOr<std::shared_ptr<const ImageModel>>(m.status());
    return new StatusOr<std::shared_ptr<const ImageModel>>(
        std::make_shared<const ImageModel>(std::move(m).value()));
  }();
  return *cached;
}

StatusOr<std::shared_ptr<const ImageModel>> LoadImage(const std::string& path) {
  auto m = LoadImageModelFile(path);
  if (!m.ok()) return m.status();
  return std::shared_ptr<const ImageModel>(
      std::make_shared<const ImageModel>(std::move(m).value()));
}

}  // namespace squashlab
