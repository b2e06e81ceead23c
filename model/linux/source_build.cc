// SPDX-License-Identifier: GPL-2.0-only
// This file implements building and loading a user's fs/squashfs tree, with
// the lib/ decompressors it calls: the tree's own when DIR is a whole
// kernel tree, else those of the installed linux-source package its
// version matches (6.12's for a tree choosing its strategy at mount, 6.1's
// otherwise), compiled once and cached.
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

#include "model/kernel/checkers/kasan_shadow.h"

extern char** environ;

namespace squashlab {
namespace {

namespace fs = std::filesystem;

// The read path and what it links against (kernel_module.bzl's list).
const std::vector<std::string> kFiles = {
    "block.c",       "cache.c",      "decompressor.c", "dir.c",
    "export.c",      "file.c",       "file_direct.c",  "fragment.c",
    "id.c",          "inode.c",      "lz4_wrapper.c",  "lzo_wrapper.c",
    "namei.c",       "page_actor.c", "super.c",        "symlink.c",
    "xattr.c",       "xattr_id.c",   "xz_wrapper.c",   "zlib_wrapper.c",
    "zstd_wrapper.c"};

const std::map<std::string, std::pair<std::string, std::string>> kStrategies = {
    {"single", {"SINGLE", "decompressor_single.c"}},
    {"multi", {"MULTI", "decompressor_multi.c"}},
    {"percpu", {"MULTI_PERCPU", "decompressor_multi_percpu.c"}}};

const std::vector<std::string> kConfig = {
    "CONFIG_SQUASHFS_FILE_DIRECT", "CONFIG_SQUASHFS_XATTR",
    "CONFIG_SQUASHFS_ZLIB",        "CONFIG_SQUASHFS_ZSTD",
    "CONFIG_SQUASHFS_LZ4",         "CONFIG_SQUASHFS_LZO",
    "CONFIG_SQUASHFS_XZ",          "CONFIG_SQUASHFS_FRAGMENT_CACHE_SIZE=3"};

// The lib/ decompressors' C files (tools/build/linux_source.bzl's
// "decompressors"): each of these, every C file of the two zstd
// directories, and zstd_common_module.c where the tree has it (6.2+).
const std::vector<std::string> kDecompressorFiles = {
    "lib/zlib_inflate/inffast.c",
    "lib/zlib_inflate/inflate.c",
    "lib/zlib_inflate/infutil.c",
    "lib/zlib_inflate/inftrees.c",
    "lib/zlib_inflate/inflate_syms.c",
    "lib/xz/xz_dec_syms.c",
    "lib/xz/xz_dec_stream.c",
    "lib/xz/xz_dec_lzma2.c",
    "lib/xz/xz_dec_bcj.c",
    "lib/zstd/zstd_decompress_module.c",
    "lib/lz4/lz4_decompress.c",
    "lib/lzo/lzo1x_decompress_safe.c",
    "lib/xxhash.c"};
const std::vector<std::string> kZstdDirs = {"lib/zstd/common",
                                            "lib/zstd/decompress"};
const char kZstdCommonModule[] = "lib/zstd/zstd_common_module.c";

// Their interfaces, which the header layer includes (#include_next).
const std::vector<std::string> kDecompressorHeaders = {
    "lz4",  "lzo",  "xxhash",      "xz",       "zconf",
    "zlib", "zstd", "zstd_errors", "zstd_lib", "zutil"};

// The x86-64 configuration they read (kernel_module.bzl's
// DECOMPRESSOR_CONFIG), and the mark that leaves their names unwrapped.
const std::vector<std::string> kDecompressorConfig = {
    "CONFIG_X86",
    "CONFIG_X86_64",
    "CONFIG_64BIT",
    "CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS",
    "CONFIG_XZ_DEC_X86",
    "CONFIG_XZ_DEC_POWERPC",
    "CONFIG_XZ_DEC_IA64",
    "CONFIG_XZ_DEC_ARM",
    "CONFIG_XZ_DEC_ARMTHUMB",
    "CONFIG_XZ_DEC_ARM64",
    "CONFIG_XZ_DEC_SPARC",
    "CONFIG_XZ_DEC_RISCV",
    "CONFIG_XZ_DEC_MICROLZMA",
    "SQUASHLAB_KERNEL_LIB"};

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

std::string HexOf(uint64_t h) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

// Folds the names and contents of `files` (sorted) into h.
uint64_t HashFiles(uint64_t h, std::vector<fs::path> files) {
  std::sort(files.begin(), files.end());
  for (const auto& p : files)
    h = Fnv(Fnv(h, p.filename().string()), ReadAll(p));
  return h;
}

uint64_t HashFlags(uint64_t h, const std::vector<std::string>& flags) {
  for (const auto& f : flags) h = Fnv(h, f);
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

// The header layer's files: part of every cache key.
std::vector<fs::path> LayerFiles(const std::string& include) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(include))
    if (e.is_regular_file()) out.push_back(e.path());
  return out;
}

// Compiles each source to its object with `flags`, at most `width` at once;
// the compiler's output goes to `log`.
Status CompileAll(const std::vector<std::pair<fs::path, fs::path>>& units,
                  const std::vector<std::string>& flags, unsigned width,
                  std::ostream* log) {
  std::vector<Job> jobs;
  for (const auto& [src, obj] : units) {
    Job j;
    j.argv = {"cc", "-c"};
    j.argv.insert(j.argv.end(), flags.begin(), flags.end());
    j.argv.push_back(src.string());
    j.argv.push_back("-o");
    j.argv.push_back(obj.string());
    j.err_file = obj.string() + ".log";
    jobs.push_back(std::move(j));
  }
  bool ok = RunAll(jobs, width);
  std::string out;
  for (const auto& j : jobs) out += ReadAll(j.err_file);
  if (log && !out.empty()) *log << out;
  if (!ok) return Status::InvalidArgument(Diagnose(out));
  return Status::Ok();
}

// The decompressors' C files under a tree root, relative to it; empty if
// the root lacks one of them.
std::vector<std::string> DecompressorSources(const fs::path& root) {
  std::vector<std::string> files = kDecompressorFiles;
  if (fs::exists(root / kZstdCommonModule)) files.push_back(kZstdCommonModule);
  for (const auto& dir : kZstdDirs) {
    if (!fs::is_directory(root / dir)) return {};
    std::vector<std::string> in_dir;
    for (const auto& e : fs::directory_iterator(root / dir))
      if (e.path().extension() == ".c")
        in_dir.push_back(dir + "/" + e.path().filename().string());
    std::sort(in_dir.begin(), in_dir.end());
    files.insert(files.end(), in_dir.begin(), in_dir.end());
  }
  for (const auto& f : files)
    if (!fs::exists(root / f)) return {};
  for (const auto& h : kDecompressorHeaders)
    if (!fs::exists(root / "include/linux" / (h + ".h"))) return {};
  return files;
}

// Where the decompressors come from: the kernel tree around the
// fs/squashfs directory, if it is a whole one; else the linux-source
// package beside the binary whose version the tree's matches.
StatusOr<fs::path> DecompressorRoot(const fs::path& squashfs, bool by_mount,
                                    std::string* what) {
  const fs::path tree = squashfs.parent_path().parent_path();
  if (squashfs.parent_path().filename() == "fs" &&
      !DecompressorSources(tree).empty()) {
    *what = tree.string();
    return tree;
  }
  const std::string repo = by_mount ? "linux_6_12" : "linux_6_1";
  *what = by_mount ? "linux-source-6.12" : "linux-source-6.1";
  for (const std::string& d : RunfilesDirs("", repo))
    if (!DecompressorSources(d).empty()) return fs::path(d);
  return Status::NotFound(
      squashfs.string() +
      " is not inside a whole kernel tree (no lib/zlib_inflate, lib/zstd, "
      "...), and the decompressors of " +
      *what + " are not installed beside the binary");
}

// Copies the decompressors' interfaces to dir/linux (the package's, or a
// whole tree's, whose other headers the header layer stands for).
void StageHeaders(const fs::path& root, const fs::path& dir) {
  fs::create_directories(dir / "linux");
  for (const auto& h : kDecompressorHeaders)
    fs::copy_file(root / "include/linux" / (h + ".h"),
                  dir / "linux" / (h + ".h"),
                  fs::copy_options::overwrite_existing);
}

struct Decompressors {
  std::string include;               // their interfaces, for -I
  std::vector<std::string> objects;  // to link into each module
  uint64_t hash = 0;                 // of everything they were built from
  bool cached = false;
};

// Compiles the decompressors under `root` (and the header layer's
// kasan_mem.c) once; later calls find them in the cache.
StatusOr<Decompressors> BuildDecompressors(const fs::path& root,
                                           const std::string& include,
                                           unsigned width, std::ostream* log) {
  const std::vector<std::string> files = DecompressorSources(root);
  std::vector<fs::path> inputs = LayerFiles(include);
  for (const auto& f : files) inputs.push_back(root / f);
  for (const auto& e : fs::recursive_directory_iterator(root / "lib"))
    if (e.path().extension() == ".h") inputs.push_back(e.path());
  for (const auto& h : kDecompressorHeaders)
    inputs.push_back(root / "include/linux" / (h + ".h"));
  std::vector<std::string> flags = KernelCFlags();
  for (const auto& c : kDecompressorConfig) flags.push_back("-D" + c);
  Decompressors out;
  out.hash = HashFlags(HashFiles(1469598103934665603ULL, inputs), flags);
  const fs::path dir =
      fs::path(CacheRoot()) / "decompressors" / HexOf(out.hash);
  out.include = (dir / "include").string();
  std::vector<std::pair<fs::path, fs::path>> units;
  for (const auto& f : files) {
    std::string obj = f;
    std::replace(obj.begin(), obj.end(), '/', '_');
    units.push_back({root / f, dir / "objs" / (obj + ".o")});
  }
  units.push_back({fs::path(include) / "squashlab/kasan_mem.c",
                   dir / "objs" / "kasan_mem.c.o"});
  for (const auto& [src, obj] : units) out.objects.push_back(obj.string());
  out.cached = fs::exists(dir / "done");
  if (out.cached) return out;
  StageHeaders(root, dir / "include");
  fs::create_directories(dir / "objs");
  flags.insert(flags.end(),
               {"-O2", "-g", "-fPIC", "-I" + include, "-I" + out.include});
  Status st = CompileAll(units, flags, width, log);
  if (!st.ok()) return st;
  std::ofstream(dir / "done") << root.string() << "\n";
  return out;
}

// gcc's ThreadSanitizer calls, as the executable's KCSAN runtime names
// them (model/kernel/checkers/kcsan_runtime.cc): __tsan_X -> __sl_kcsan_X.
std::string TsanRenames() {
  std::vector<std::string> names = {"init",
                                    "func_entry",
                                    "func_exit",
                                    "vptr_update",
                                    "read_range",
                                    "write_range",
                                    "atomic_thread_fence",
                                    "atomic_signal_fence"};
  for (const char* n : {"1", "2", "4", "8", "16"})
    for (const char* k :
         {"read", "write", "unaligned_read", "unaligned_write", "volatile_read",
          "volatile_write", "unaligned_volatile_read",
          "unaligned_volatile_write"})
      names.push_back(std::string(k) + n);
  for (const char* b : {"8", "16", "32", "64"})
    for (const char* op :
         {"load", "store", "exchange", "fetch_add", "fetch_sub", "fetch_and",
          "fetch_or", "fetch_xor", "fetch_nand", "compare_exchange_strong",
          "compare_exchange_weak", "compare_exchange_val"})
      names.push_back(std::string("atomic") + b + "_" + op);
  std::string map;
  for (const auto& n : names) map += "__tsan_" + n + " __sl_kcsan_" + n + "\n";
  return map;
}

// Renames the instrumentation's calls in each object (objcopy
// --redefine-syms): the module then never binds to a userspace
// ThreadSanitizer's runtime, only to the model's.
Status RenameTsanCalls(const std::vector<std::pair<fs::path, fs::path>>& units,
                       const fs::path& objdir, unsigned width,
                       std::ostream* log) {
  const fs::path map = objdir / "tsan_renames.txt";
  std::ofstream(map) << TsanRenames();
  std::vector<Job> jobs;
  for (const auto& [src, obj] : units) {
    Job j;
    j.argv = {"objcopy", "--redefine-syms=" + map.string(), obj.string()};
    j.err_file = obj.string() + ".objcopy.log";
    jobs.push_back(std::move(j));
  }
  if (RunAll(jobs, width)) return Status::Ok();
  std::string out;
  for (const auto& j : jobs) out += ReadAll(j.err_file);
  if (log) *log << out;
  return Status::InvalidArgument(
      "renaming the ThreadSanitizer calls failed (objcopy, from binutils)");
}

// UBSAN as the tree configures it with CONFIG_UBSAN, UBSAN_BOUNDS and
// UBSAN_SHIFT (tools/build/copts.bzl UBSAN_MODULE_COPTS, which the
// built-in modules take; gcc's flags): its bounds check is gcc's
// bounds-strict where the tree's scripts/Makefile.ubsan names it (6.12),
// else bounds (6.1); for a lone fs/squashfs directory, a tree with the
// mount-time decompressor choice counts as 6.12. On the KASAN build only,
// and not under a userspace sanitizer, whose runtime owns the handlers.
std::vector<std::string> UbsanCFlags(const fs::path& squashfs, bool by_mount) {
  if (!KasanInlineBuild()) return {};
  const fs::path makefile =
      squashfs.parent_path().parent_path() / "scripts/Makefile.ubsan";
  const bool strict =
      fs::exists(makefile)
          ? ReadAll(makefile).find("bounds-strict") != std::string::npos
          : by_mount;
  return {strict ? "-fsanitize=bounds-strict,shift,bool,enum"
                 : "-fsanitize=bounds,shift,bool,enum"};
}

// Compiles the tree's read path with `strategies` into objdir and links it
// with the decompressors into `so`.
Status BuildModule(const fs::path& d, bool by_mount,
                   const std::vector<std::string>& strategies,
                   const std::string& include, const Decompressors& codecs,
                   const fs::path& objdir, const fs::path& so, bool kcsan,
                   unsigned width, std::ostream* log) {
  std::vector<std::string> flags = kcsan ? KcsanCFlags() : KernelCFlags();
  if (!kcsan)
    for (const std::string& f : UbsanCFlags(d, by_mount)) flags.push_back(f);
  flags.insert(flags.end(),
               {"-O2", "-g", "-fPIC", "-Werror=implicit-function-declaration",
                "-I" + include, "-I" + codecs.include});
  for (const auto& c : kConfig) flags.push_back("-D" + c);
  std::vector<std::string> files = kFiles;
  for (const auto& s : strategies) {
    flags.push_back("-DCONFIG_SQUASHFS_DECOMP_" + kStrategies.at(s).first);
    files.push_back(kStrategies.at(s).second);
  }
  if (by_mount) {
    flags.push_back("-DCONFIG_SQUASHFS_CHOICE_DECOMP_BY_MOUNT");
    flags.push_back("-DCONFIG_SQUASHFS_MOUNT_DECOMP_THREADS");
  }
  fs::create_directories(objdir);
  std::vector<std::pair<fs::path, fs::path>> units;
  for (const auto& f : files) units.push_back({d / f, objdir / (f + ".o")});
  Status st = CompileAll(units, flags, width, log);
  if (!st.ok()) return st;
  if (kcsan) {
    st = RenameTsanCalls(units, objdir, width, log);
    if (!st.ok()) return st;
  }
  // As kernel_module.bzl links: the module binds its own symbols to itself.
  Job link;
  link.argv = {"cc", "-shared", "-Wl,-Bsymbolic", "-o", so.string() + ".tmp"};
  for (const auto& [src, obj] : units) link.argv.push_back(obj.string());
  link.argv.insert(link.argv.end(), codecs.objects.begin(),
                   codecs.objects.end());
  link.err_file = (objdir / "link.log").string();
  std::vector<Job> one{link};
  if (!RunAll(one, 1)) {
    if (log) *log << ReadAll(link.err_file);
    return Status::InvalidArgument("linking the module failed");
  }
  fs::rename(so.string() + ".tmp", so);
  return Status::Ok();
}

// A module that does not load for a symbol nobody defines: the bridge
// lacks it.
Status NamedUndefined(const Status& why) {
  std::smatch m;
  static const std::regex undefined(R"(undefined symbol: ([A-Za-z_0-9]+))");
  const std::string text = why.ToString();
  if (std::regex_search(text, m, undefined))
    return Status::InvalidArgument(
        "the tree calls " + m[1].str() +
        ", which the header layer's bridge does not provide");
  return why;
}

}  // namespace

const std::vector<std::string>& KernelCFlags() {
  static const std::vector<std::string> kFlags = [] {
    std::vector<std::string> f = {
        "-std=gnu11", "-fexceptions", "-fno-strict-aliasing",
        "-fno-strict-overflow", "-fno-delete-null-pointer-checks",
        "-fno-common", "-D__KERNEL__", "-Wall", "-Wno-pointer-sign",
        "-Wno-unused-function", "-Wno-format", "-DKBUILD_MODNAME=\"squashfs\"",
        // A KASAN kernel's compilation, as the built-in modules' (tools/
        // build/copts.bzl KASAN_MODULE_COPTS): inline checks against the
        // shadow at its fixed offset (model/kernel/checkers/kasan_shadow.h),
        // or, under a userspace sanitizer, a call per load and store.
        "-fsanitize=kernel-address", "--param=asan-stack=0",
        "--param=asan-globals=0", "-DSQUASHLAB_KASAN=1"};
    if (KasanInlineBuild()) {
      char offset[40];
      std::snprintf(offset, sizeof offset, "-fasan-shadow-offset=%#llx",
                    static_cast<unsigned long long>(kKasanShadowOffset));
      f.push_back("--param=asan-instrumentation-with-call-threshold=100000");
      f.push_back(offset);
    } else {
      f.push_back("--param=asan-instrumentation-with-call-threshold=0");
    }
    return f;
  }();
  return kFlags;
}

const std::vector<std::string>& KcsanCFlags() {
  static const std::vector<std::string> kFlags = [] {
    std::vector<std::string> f;
    for (const std::string& k : KernelCFlags())
      if (k.rfind("-fsanitize=kernel-address", 0) != 0 &&
          k.rfind("--param=asan-", 0) != 0 && k.rfind("-fasan-", 0) != 0)
        f.push_back(k);
    // A KCSAN kernel's compilation (scripts/Makefile.kcsan): every access
    // and atomic calls the runtime, volatile ones (READ_ONCE) apart.
    f.insert(f.end(),
             {"-fsanitize=thread", "--param=tsan-distinguish-volatile=1",
              "-DSQUASHLAB_KCSAN=1"});
    return f;
  }();
  return kFlags;
}

std::string HeaderLayerDir() {
  if (const char* d = std::getenv("SQUASHLAB_LINUX_INCLUDE")) return d;
  for (const std::string& d : RunfilesDirs("model/linux/include"))
    if (fs::exists(d + "/linux/fs.h")) return d;
  return "";
}

StatusOr<SourceTree> BuildSourceTree(const std::string& dir, std::ostream* log,
                                     bool kcsan) {
  SourceTree tree;
  fs::path d = fs::absolute(dir).lexically_normal();
  if (d.filename().empty()) d = d.parent_path();  // a trailing slash
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
  auto root = DecompressorRoot(d, tree.by_mount, &tree.decompressors);
  if (!root.ok()) return root.status();
  const unsigned width = std::max(1u, std::thread::hardware_concurrency());
  auto codecs = BuildDecompressors(*root, include, width, log);
  if (!codecs.ok()) return codecs.status();

  // The cache key: the tree's sources, the header layer, the flags, the
  // decompressors it is linked with.
  std::vector<fs::path> inputs = LayerFiles(include);
  for (const auto& e : fs::directory_iterator(d))
    if (e.path().extension() == ".c" || e.path().extension() == ".h")
      inputs.push_back(e.path());
  std::vector<std::string> flags = kcsan ? KcsanCFlags() : KernelCFlags();
  if (!kcsan)
    for (const std::string& f : UbsanCFlags(d, tree.by_mount))
      flags.push_back(f);
  for (const auto& c : kConfig) flags.push_back("-D" + c);
  uint64_t h = HashFlags(HashFiles(codecs->hash, inputs), flags);
  fs::path cache = fs::path(CacheRoot()) / "modules" / HexOf(h);
  fs::create_directories(cache);

  std::vector<std::pair<std::string, std::vector<std::string>>> builds;
  if (tree.by_mount) {
    builds.push_back({"all", {"single", "multi", "percpu"}});
  } else {
    for (const auto& [s, cfg] : kStrategies) builds.push_back({s, {s}});
  }
  tree.cached = codecs->cached;
  for (const auto& [name, strategies] : builds) {
    fs::path so = cache / (name + ".so");
    if (!fs::exists(so)) {
      tree.cached = false;
      Status st = BuildModule(d, tree.by_mount, strategies, include, *codecs,
                              cache / (name + ".objs"), so, kcsan, width, log);
      if (!st.ok()) return st;
    }
    auto mod = LoadLinuxModule(
        std::string(kcsan ? "linux-src-kcsan-" : "linux-src-") + name,
        so.string());
    if (!mod.ok()) return NamedUndefined(mod.status());
    for (const auto& s : strategies) tree.modules[s] = *mod;
  }
  return tree;
}

}  // namespace squashlab
