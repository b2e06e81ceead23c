// SPDX-License-Identifier: GPL-2.0-only
// This file implements the mount of real kernel modules for a run.
#include "harness/linux_mount.h"

#include <mutex>
#include <optional>

#include "hw_emul/block_device.h"
#include "model/kernel/kernel.h"
#include "model/linux/module.h"
#include "model/linux/source_build.h"

namespace squashlab {

namespace {

std::mutex source_mu;
std::optional<SourceTree> source;

}  // namespace

std::vector<std::string> LinuxVariantNames() {
  std::vector<std::string> out = {"linux-6.12", "linux-6.1"};
  std::lock_guard<std::mutex> l(source_mu);
  if (source) out.push_back("linux-src");
  return out;
}

bool IsLinuxVariant(const std::string& variant) {
  return variant == "linux-6.12" || variant == "linux-6.1" ||
         variant == "linux-src";
}

MmEra LinuxMmEra(const std::string& variant) {
  if (variant == "linux-6.1") return MmEra::k6_1;
  if (variant == "linux-src") {
    std::lock_guard<std::mutex> l(source_mu);
    if (source && !source->by_mount) return MmEra::k6_1;
  }
  return MmEra::k6_12;
}

void RegisterSourceTree(const SourceTree& tree) {
  std::lock_guard<std::mutex> l(source_mu);
  source = tree;
}

bool LinuxBuildsStrategy(const std::string& decomp) {
  return decomp == "single" || decomp == "multi" || decomp == "percpu";
}

StatusOr<const LinuxModule*> LinuxModuleFor(const std::string& variant,
                                            const std::string& decomp,
                                            std::string* options) {
  if (!LinuxBuildsStrategy(decomp))
    return Status::InvalidArgument(variant +
                                   " builds the single, multi and percpu "
                                   "decompressors, not " +
                                   decomp);
  if (variant == "linux-src") {
    std::lock_guard<std::mutex> l(source_mu);
    if (!source)
      return Status::InvalidArgument(
          "linux-src is the tree given with --source DIR");
    *options = source->by_mount ? "threads=" + decomp : "";
    return source->modules.at(decomp);
  }
  if (variant == "linux-6.12") {
    *options = "threads=" + decomp;
    return BuiltinLinuxModule("squashfs-linux-6.12");
  }
  options->clear();
  return BuiltinLinuxModule("squashfs-linux-6.1-" + decomp);
}

void SpawnLinuxMount(Kernel& k, SquashfsMount* m, const ImageModel& image,
                     const std::vector<std::string>& names,
                     const LinuxModule* module, const std::string& options,
                     std::function<void()> started) {
  block_device* bdev = m->disk ? m->disk->bdev() : m->device->bdev();
  const uint64_t nr_bytes = image.bytes.size();
  TaskSpec spec;
  spec.name = "mount";
  spec.body = [&k, m, bdev, nr_bytes, module, options, names, started] {
    int err = 0;
    kabi::super_block* sb =
        LinuxMount(k, *module, bdev, nr_bytes, options, &err);
    if (sb == nullptr) return;  // a failed mount: the kernel says so, no oops
    k.AtQuiescence([sb] { LinuxUnmount(sb); });
    m->linux_sb = sb;
    for (const std::string& name : names) {
      inode* ino = LinuxLookup(sb, name, &err);
      if (ino == nullptr) return;
      m->inodes.push_back(ino);
      m->names.push_back(name);
    }
    started();
  };
  k.Spawn(std::move(spec));
}

}  // namespace squashlab
