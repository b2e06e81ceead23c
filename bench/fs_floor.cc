// SPDX-License-Identifier: GPL-2.0-only
// This file implements fs_floor: the file-system floor of an extraction. It
// loads a directory tree (names, modes, times, symlink targets and every
// file's bytes) into memory, then times the cheapest creation of the same
// tree under DEST that sets what `squashlab extract` sets for an owner that
// needs no chown: each directory made (0700) and held open, then per file
// openat(O_CREAT|O_EXCL) with its mode, one pwrite, futimens and close;
// symlinks with their times; directory modes and times last, deepest first.
// With THREADS > 1 the threads take runs of up to 32 entries of one
// directory, as `squashlab extract` hands out its small files. No decoding, no
// image, no safety checks: a lower bound for any tool on the same file system.
// Prints "seconds user_s sys_s" of the creation alone.
#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Entry {
  std::string name;
  mode_t mode = 0;
  timespec mtime{};
  std::string bytes;  // file content or symlink target
  bool symlink = false;
};

struct Dir {
  int parent = -1;
  std::string name;
  mode_t mode = 0;
  timespec mtime{};
  std::vector<Entry> entries;
  int fd = -1;
};

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "fs_floor: %s: %s\n", what.c_str(),
               std::strerror(errno));
  std::exit(1);
}

std::string ReadAll(const std::string& path, size_t size) {
  std::string out(size, '\0');
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) Die(path);
  size_t done = 0;
  while (done < size) {
    const ssize_t n = read(fd, out.data() + done, size - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  close(fd);
  out.resize(done);
  return out;
}

// Pre-order, like an image walk: a directory's entries, then its
// subdirectories. Other file types are left out.
void Load(const std::string& path, int parent, const std::string& name,
          std::vector<Dir>* dirs) {
  struct stat st;
  if (lstat(path.c_str(), &st) != 0) Die(path);
  const int id = static_cast<int>(dirs->size());
  dirs->push_back({parent, name, st.st_mode & 07777, st.st_mtim, {}, -1});
  DIR* d = opendir(path.c_str());
  if (d == nullptr) Die(path);
  std::vector<std::string> subdirs;
  while (const dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (n == "." || n == "..") continue;
    const std::string p = path + "/" + n;
    if (lstat(p.c_str(), &st) != 0) Die(p);
    Entry en{n, st.st_mode & 07777, st.st_mtim, {}, false};
    if (S_ISDIR(st.st_mode)) {
      subdirs.push_back(n);
      continue;
    }
    if (S_ISLNK(st.st_mode)) {
      std::string target(static_cast<size_t>(st.st_size) + 1, '\0');
      const ssize_t k = readlink(p.c_str(), target.data(), target.size());
      if (k < 0) Die(p);
      target.resize(static_cast<size_t>(k));
      en.bytes = std::move(target);
      en.symlink = true;
    } else if (S_ISREG(st.st_mode)) {
      en.bytes = ReadAll(p, static_cast<size_t>(st.st_size));
    } else {
      continue;
    }
    (*dirs)[static_cast<size_t>(id)].entries.push_back(std::move(en));
  }
  closedir(d);
  for (const std::string& s : subdirs) Load(path + "/" + s, id, s, dirs);
}

void CreateEntry(const Dir& d, const Entry& e) {
  const timespec times[2] = {e.mtime, e.mtime};
  if (e.symlink) {
    if (symlinkat(e.bytes.c_str(), d.fd, e.name.c_str()) != 0 ||
        utimensat(d.fd, e.name.c_str(), times, AT_SYMLINK_NOFOLLOW) != 0)
      Die(e.name);
    return;
  }
  const int fd =
      openat(d.fd, e.name.c_str(),
             O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, e.mode);
  if (fd < 0) Die(e.name);
  size_t done = 0;
  while (done < e.bytes.size()) {
    const ssize_t n = pwrite(fd, e.bytes.data() + done, e.bytes.size() - done,
                             static_cast<off_t>(done));
    if (n <= 0) Die(e.name);
    done += static_cast<size_t>(n);
  }
  if (futimens(fd, times) != 0) Die(e.name);
  close(fd);
}

constexpr size_t kRun = 32;

void Create(std::vector<Dir>* dirs, int threads) {
  for (size_t i = 1; i < dirs->size(); ++i) {
    Dir& d = (*dirs)[i];
    const int parent = (*dirs)[static_cast<size_t>(d.parent)].fd;
    if (mkdirat(parent, d.name.c_str(), 0700) != 0) Die(d.name);
    d.fd = openat(parent, d.name.c_str(),
                  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (d.fd < 0) Die(d.name);
  }
  struct Run {
    const Dir* dir;
    size_t begin, end;
  };
  std::vector<Run> runs;
  for (const Dir& d : *dirs) {
    for (size_t b = 0; b < d.entries.size(); b += kRun)
      runs.push_back({&d, b, std::min(d.entries.size(), b + kRun)});
  }
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < runs.size();) {
      for (size_t e = runs[i].begin; e < runs[i].end; ++e)
        CreateEntry(*runs[i].dir, runs[i].dir->entries[e]);
    }
  };
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  for (size_t i = dirs->size(); i-- > 0;) {
    Dir& d = (*dirs)[i];
    const timespec times[2] = {d.mtime, d.mtime};
    if (fchmod(d.fd, d.mode) != 0 || futimens(d.fd, times) != 0) Die(d.name);
    close(d.fd);
  }
}

double CpuSeconds(const timeval& a, const timeval& b) {
  return static_cast<double>(b.tv_sec - a.tv_sec) +
         static_cast<double>(b.tv_usec - a.tv_usec) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: fs_floor SRC DEST [THREADS]\n");
    return 2;
  }
  const int threads = argc > 3 ? std::atoi(argv[3]) : 1;
  // One descriptor per directory of the tree.
  const rlimit fds{1 << 20, 1 << 20};
  setrlimit(RLIMIT_NOFILE, &fds);
  std::vector<Dir> dirs;
  Load(argv[1], -1, "", &dirs);
  umask(0);
  rusage r0, r1;
  getrusage(RUSAGE_SELF, &r0);
  const auto t0 = std::chrono::steady_clock::now();
  if (mkdir(argv[2], 0700) != 0) Die(argv[2]);
  dirs[0].fd = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dirs[0].fd < 0) Die(argv[2]);
  Create(&dirs, threads < 1 ? 1 : threads);
  const auto t1 = std::chrono::steady_clock::now();
  getrusage(RUSAGE_SELF, &r1);
  std::printf("%.4f %.3f %.3f\n",
              std::chrono::duration<double>(t1 - t0).count(),
              CpuSeconds(r0.ru_utime, r1.ru_utime),
              CpuSeconds(r0.ru_stime, r1.ru_stime));
  return 0;
}
