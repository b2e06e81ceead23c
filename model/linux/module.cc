// SPDX-License-Identifier: GPL-2.0-only
// This file implements loading and mounting real kernel modules.
#include "model/linux/module.h"

#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

#include "model/kernel/checkers/call_trace.h"
#include "model/kernel/checkers/kasan_shadow.h"
#include "model/kernel/checkers/kmemleak.h"
#include "model/kernel/kernel.h"
#include "model/linux/bridge/registry.h"
#include "model/linux/bridge/run_state.h"
#include "model/linux/include/squashlab/abi.h"

namespace squashlab {
namespace {

bool Exists(const std::string& p) { return access(p.c_str(), R_OK) == 0; }

std::string ModuleFile(const std::string& name) {
  std::string f = name;
  for (char& c : f)
    if (c == '-' || c == '.') c = '_';
  return "lib" + f + ".so";
}

// The module's data and bss (its writable load segments) are roots of
// kmemleak's scan: an object a global of the code under test points to is
// referenced, as in the kernel, where a module's sections are scanned. Its
// code is kernel text: the frames a report's call trace lists.
void RegisterSegments(void* handle) {
  struct link_map* lm = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || lm == nullptr) return;
  dl_iterate_phdr(
      [](struct dl_phdr_info* info, size_t, void* arg) {
        auto* map = static_cast<struct link_map*>(arg);
        if (info->dlpi_addr != map->l_addr) return 0;
        for (int i = 0; i < info->dlpi_phnum; i++) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_LOAD) continue;
          if ((ph.p_flags & PF_W) != 0)
            KmemleakAddRoot(info->dlpi_addr + ph.p_vaddr, ph.p_memsz);
          if ((ph.p_flags & PF_X) != 0)
            AddKernelText(info->dlpi_addr + ph.p_vaddr, ph.p_memsz);
        }
        return 1;
      },
      lm);
}

}  // namespace

StatusOr<const LinuxModule*> LoadLinuxModule(const std::string& name,
                                             const std::string& path) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<LinuxModule>> loaded;
  std::lock_guard<std::mutex> l(mu);
  auto it = loaded.find(path);
  if (it != loaded.end()) return it->second.get();
  // Its loads and stores read the inline KASAN shadow from the first
  // instruction of its initialisers on (model/kernel/checkers/kasan_shadow.h).
  std::string why;
  if (KasanInlineBuild() && !ReserveKasanShadow(&why))
    return Status::InvalidArgument("cannot run " + name + ": " + why);
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr)
    return Status::InvalidArgument(std::string("cannot load ") + path + ": " +
                                   dlerror());
  RegisterSegments(h);
  auto init = reinterpret_cast<int (*)(void)>(dlsym(h, "sl_module_init"));
  if (init == nullptr)
    return Status::InvalidArgument(path + ": no module_init");
  int err = 0;
  kabi::file_system_type* fs = linux_bridge::RunModuleInit(init, &err);
  if (err != 0 || fs == nullptr)
    return Status::InvalidArgument(path + ": module init failed (" +
                                   std::to_string(err) + ")");
  auto m = std::make_unique<LinuxModule>();
  m->name = name;
  m->path = path;
  m->fs_type = fs;
  const LinuxModule* raw = m.get();
  loaded[path] = std::move(m);
  return raw;
}

std::vector<std::string> RunfilesDirs(const std::string& rel,
                                      const std::string& repo) {
  std::vector<std::string> dirs;
  for (const char* env : {"RUNFILES_DIR", "TEST_SRCDIR"})
    if (const char* d = std::getenv(env))
      dirs.push_back(std::string(d) + "/" + repo + "/" + rel);
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    dirs.push_back(std::string(exe) + ".runfiles/" + repo + "/" + rel);
  }
  return dirs;
}

StatusOr<const LinuxModule*> BuiltinLinuxModule(const std::string& name) {
  const std::string file = ModuleFile(name);
  std::vector<std::string> dirs;
  if (const char* d = std::getenv("SQUASHLAB_LINUX_MODULES")) dirs.push_back(d);
  for (std::string& d : RunfilesDirs("model/linux")) dirs.push_back(d);
  for (const std::string& d : dirs)
    if (Exists(d + "/" + file)) return LoadLinuxModule(name, d + "/" + file);
  return Status::NotFound("real kernel module " + name + " (" + file +
                          ") not found beside the binary; build it with "
                          "bazel build //model/linux:all");
}

::super_block* LinuxMount(Kernel& k, const LinuxModule& module,
                          block_device* bdev, uint64_t nr_bytes,
                          const std::string& options, int* err) {
  auto& run = linux_bridge::Attach(k);
  k.SetCallSite([&run] { return run.SiteString(); });
  k.SetPageOwnerFn([&run](const page* p) { return run.PageOwner(p); });
  auto* cbdev = k.New<::block_device>();
  cbdev->sl_model = bdev;
  cbdev->sl_nr_bytes = nr_bytes;
  auto* req = k.New<linux_bridge::MountRequest>();
  req->bdev = cbdev;
  auto* fc = k.New<::fs_context>();
  fc->fs_type = module.fs_type;
  fc->sl_model = req;
  fc->sb_flags = 1;  // SB_RDONLY
  *err = module.fs_type->init_fs_context(fc);
  size_t start = 0;
  while (*err == 0 && start < options.size()) {
    size_t comma = options.find(',', start);
    std::string opt = options.substr(start, comma - start);
    start = comma == std::string::npos ? options.size() : comma + 1;
    if (opt.empty()) continue;
    size_t eq = opt.find('=');
    auto* key = k.New<std::string>(opt.substr(0, eq));
    auto* value =
        k.New<std::string>(eq == std::string::npos ? "" : opt.substr(eq + 1));
    ::fs_parameter p{};
    p.key = key->c_str();
    p.type = fs_value_is_string;
    p.string = value->data();
    p.size = value->size();
    *err = fc->ops->parse_param(fc, &p);
  }
  if (*err == 0) *err = fc->ops->get_tree(fc);
  if (fc->ops->free) fc->ops->free(fc);
  return *err == 0 ? req->sb : nullptr;
}

inode* LinuxLookup(::super_block* sb, const std::string& path, int* err) {
  Kernel& k = Kernel::Current();
  ::inode* dir = sb->s_root->d_inode;
  size_t start = 0;
  *err = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    std::string part = path.substr(start, slash - start);
    start = slash == std::string::npos ? path.size() + 1 : slash + 1;
    if (part.empty()) continue;
    auto* name = k.New<std::string>(part);
    auto* d = k.New<::dentry>();
    d->d_name.len = static_cast<u32>(name->size());
    d->d_name.name = reinterpret_cast<const unsigned char*>(name->c_str());
    d->d_sb = sb;
    ::dentry* res = dir->i_op->lookup(dir, d, 0);
    if (reinterpret_cast<uintptr_t>(res) >= static_cast<uintptr_t>(-4095)) {
      *err = static_cast<int>(reinterpret_cast<intptr_t>(res));
      return nullptr;
    }
    dir = res ? res->d_inode : d->d_inode;
    if (dir == nullptr) {
      *err = -ENOENT;
      return nullptr;
    }
  }
  return static_cast<inode*>(dir->sl_model);
}

void LinuxUnmount(::super_block* sb) {
  if (sb != nullptr && sb->s_type && sb->s_type->kill_sb)
    sb->s_type->kill_sb(sb);
}

}  // namespace squashlab
