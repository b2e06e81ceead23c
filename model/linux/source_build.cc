// SPDX-License-Identifier: GPL-2.0-only
// This file implements building and loading a user's fs/squashfs tree.
#include "model/linux/source_build.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>
#include <vector>

extern char** environ;

namespace squashlab {
namespace {

namespace fs = std::filesystem;

// The read path and what it links against (kernel_module.bzl's list).
const std::vector<std::string> kFiles = {
    "block.c",      "cache.c",        "decompressor.c", "dir.c",
    "export.c",     "file.c",         "file_direct.c",  "fragment.c",
    "id.c",         "inode.c",        "lz4_wrapper.c",  "lzo_wrapper.c",
    "namei.c",      "page_actor.c",   "super.c",        "symlink.c",
    "xz_wrapper.c", "zlib_wrapper.c", "zstd_wrapper.c"};

const std::map<std::string, std::pair<std::string, std::string>> kStrategies = {
    {"single", {"SINGLE", "decompressor_single.c"}},
    {"multi", {"MULTI", "decompressor_multi.c"}},
    {"percpu", {"MULTI_PERCPU", "decompressor_multi_percpu.c"}}};

const std::vector<std::string> kConfig = {
    "CONFIG_SQUASHFS_FILE_DIRECT",
    "CONFIG_SQUASHFS_ZLIB",
    "CONFIG_SQUASHFS_ZSTD",
    "CONFIG_SQUASHFS_LZ4",
    "CONFIG_SQUASHFS_LZO",
    "CONFIG_SQUASHFS_XZ",
    "CONFIG_SQUASHFS_FRAGMENT_CACHE_SIZE=3"};

std::string ReadAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

uint64_t Fnv(uint64_t h, const std::string& s) {
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return h;
}

std::string CacheRoot() {
  if (const char* c = std::getenv("SQUASHLAB_CACHE")) return c;
  if (const char* x = std::getenv("XDG_CACHE_HOME"))
    return std::string(x) + "/squashlab";
  if (const char* h = std::getenv("HOME"))
    return std::string(h) + "/.cache/squashlab";
  return "/tmp/squashlab-cache";
}

struct Job {
  std::vector<std::string> argv;
  std::string err_file;
  pid_t pid = -1;
  int status = 0;
};

bool Start(Job& j) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 2, j.err_file.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 2, 1);
  std::vector<char*> args;
  for (auto& a : j.argv) args.push_back(a.data());
  args.push_back(nullptr);
  int rc = posix_spawnp(&j.pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  return rc == 0;
}

// Runs the jobs, at most `width` at once; true if every one exited 0.
bool RunAll(std::vector<Job>& jobs, unsigned width) {
  size_t next = 0, running = 0, done = 0;
  bool ok = true;
  std::vector<Job*> active;
  while (done < jobs.size()) {
    while (running < width && next < jobs.size()) {
      if (!Start(jobs[next])) {
        ok = false;
        jobs[next].status = -1;
        done++;
        next++;
        continue;
      }
      active.push_back(&jobs[next++]);
      running++;
    }
    if (running == 0) break;
    int st = 0;
    pid_t pid = waitpid(-1, &st, 0);
    for (auto it = active.begin(); it != active.end(); ++it) {
      if ((*it)->pid != pid) continue;
      (*it)->status = st;
      if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) ok = false;
      active.erase(it);
      running--;
      done++;
      break;
    }
  }
  return ok;
}

// What the header layer lacks, read from the compiler's words.
std::string Diagnose(const std::string& out) {
  std::smatch m;
  static const std::regex header(R"(fatal error: ([^:]+): No such file)");
  static const std::regex implicit(
      R"(implicit declaration of function .([A-Za-z_0-9]+))");
  static const std::regex undeclared(R"(.([A-Za-z_0-9]+). undeclared)");
  if (std::regex_search(out, m, header))
    return "the header layer does not provide <" + m[1].str() + ">";
  if (std::regex_search(out, m, implicit))
    return "the header layer does not declare " + m[1].str() + "()";
  if (std::regex_search(out, m, undeclared))
    return "the header layer does not define " + m[1].str();
  return "the compiler rejected the tree (its output is above)";
}

}  // namespace

const std::vector<std::string>& KernelCFlags() {
  static const std::vector<std::string> kFlags = {
      "-std=gnu11", "-fexceptions", "-fno-strict-aliasing", "-fno-common",
      "-Wall", "-Wno-pointer-sign", "-Wno-unused-function", "-Wno-format",
      "-DKBUILD_MODNAME=\"squashfs\"",
      // A KASAN kernel's compilation (tools/build/copts.bzl): every load
      // and store calls the executable's checks (model/kernel/kasan.cc).
      "-fsanitize=kernel-address",
      "--param=asan-instrumentation-with-call-threshold=0",
      "--param=asan-stack=0", "--param=asan-globals=0", "-DSQUASHLAB_KASAN=1"};
  return kFlags;
}

std::string HeaderLayerDir() {
  if (const char* d = std::getenv("SQUASHLAB_LINUX_INCLUDE")) return d;
  for (const std::string& d : RunfilesDirs("model/linux/include"))
    if (fs::exists(d + "/linux/fs.h")) return d;
  return "";
}

StatusOr<SourceTree> BuildSourceTree(const std::string& dir,
                                     std::ostream* log) {
  SourceTree tree;
  fs::path d = fs::absolute(dir);
  if (fs::exists(d / "fs/squashfs/super.c")) d = d / "fs/squashfs";
  if (!fs::exists(d / "super.c"))
    return Status::NotFound(dir +
                            ": not a fs/squashfs directory or a kernel tree "
                            "(no super.c)");
  tree.dir = d.string();
  for (const auto& f : kFiles)
    if (!fs::exists(d / f))
      return Status::NotFound(tree.dir + ": missing " + f);
  const std::string include = HeaderLayerDir();
  if (include.empty())
    return Status::NotFound(
        "the header layer (model/linux/include) is not installed beside "
        "the binary; set SQUASHLAB_LINUX_INCLUDE");
  tree.by_mount =
      ReadAll(d / "super.c").find("CONFIG_SQUASHFS_CHOICE_DECOMP_BY_MOUNT") !=
      std::string::npos;

  // The cache key: the tree's sources, the header layer, the flags.
  uint64_t h = 1469598103934665603ULL;
  std::vector<fs::path> inputs;
  for (const auto& e : fs::directory_iterator(d))
    if (e.path().extension() == ".c" || e.path().extension() == ".h")
      inputs.push_back(e.path());
  for (const auto& e : fs::recursive_directory_iterator(include))
    if (e.is_regular_file()) inputs.push_back(e.path());
  std::sort(inputs.begin(), inputs.end());
  for (const auto& p : inputs)
    h = Fnv(Fnv(h, p.filename().string()), ReadAll(p));
  for (const auto& f : KernelCFlags()) h = Fnv(h, f);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  fs::path cache = fs::path(CacheRoot()) / "modules" / hex;
  fs::create_directories(cache);

  std::vector<std::pair<std::string, std::vector<std::string>>> builds;
  if (tree.by_mount) {
    builds.push_back({"all", {"single", "multi", "percpu"}});
  } else {
    for (const auto& [s, cfg] : kStrategies) builds.push_back({s, {s}});
  }
  const unsigned width = std::max(1u, std::thread::hardware_concurrency());
  tree.cached = true;
  for (const auto& [name, strategies] : builds) {
    fs::path so = cache / (name + ".so");
    if (!fs::exists(so)) {
      tree.cached = false;
      std::vector<std::string> flags = KernelCFlags();
      flags.push_back("-O2");
      flags.push_back("-g");
      flags.push_back("-fPIC");
      flags.push_back("-Werror=implicit-function-declaration");
      flags.push_back("-I" + include);
      for (const auto& c : kConfig) flags.push_back("-D" + c);
      std::vector<std::string> files = kFiles;
      for (const auto& s : strategies) {
        flags.push_back("-DCONFIG_SQUASHFS_DECOMP_" + kStrategies.at(s).first);
        files.push_back(kStrategies.at(s).second);
      }
      if (tree.by_mount) {
        flags.push_back("-DCONFIG_SQUASHFS_CHOICE_DECOMP_BY_MOUNT");
        flags.push_back("-DCONFIG_SQUASHFS_MOUNT_DECOMP_THREADS");
      }
      std::vector<Job> jobs;
      fs::path objdir = cache / (name + ".objs");
      fs::create_directories(objdir);
      for (const auto& f : files) {
        Job j;
        j.argv = {"cc", "-c"};
        j.argv.insert(j.argv.end(), flags.begin(), flags.end());
        j.argv.push_back((d / f).string());
        j.argv.push_back("-o");
        j.argv.push_back((objdir / (f + ".o")).string());
        j.err_file = (objdir / (f + ".log")).string();
        jobs.push_back(std::move(j));
      }
      bool ok = RunAll(jobs, width);
      std::string out;
      for (const auto& j : jobs) out += ReadAll(j.err_file);
      if (log && !out.empty()) *log << out;
      if (!ok) return Status::InvalidArgument(Diagnose(out));
      Job link;
      link.argv = {"cc", "-shared", "-o", (so.string() + ".tmp")};
      for (const auto& f : files)
        link.argv.push_back((objdir / (f + ".o")).string());
      link.argv.push_back("-llz4");
      link.err_file = (objdir / "link.log").string();
      std::vector<Job> one{link};
      if (!RunAll(one, 1)) {
        if (log) *log << ReadAll(link.err_file);
        return Status::InvalidArgument("linking the module failed");
      }
      fs::rename(so.string() + ".tmp", so);
    }
    auto mod = LoadLinuxModule("linux-src-" + name, so.string());
    if (!mod.ok()) {
      std::string why = mod.status().ToString();
      std::smatch m;
      static const std::regex undefined(R"(undefined symbol: ([A-Za-z_0-9]+))");
      if (std::regex_search(why, m, undefined))
        return Status::InvalidArgument(
            "the tree calls " + m[1].str() +
            ", which the header layer's bridge does not provide");
      return mod.status();
    }
    for (const auto& s : strategies) tree.modules[s] = *mod;
  }
  return tree;
}

}  // namespace squashlab
