// SPDX-License-Identifier: GPL-2.0-only
// This file implements running mksquashfs and gensquashfs: their command
// lines for a shape (fixed times, root owners, one job, no progress), and
// a small posix_spawn runner that captures what they print.
#include "harness/images/producer.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "harness/images/content.h"

namespace squashlab::images {
namespace {

std::vector<std::string> MksquashfsArgs(const Shape& s, const std::string& src,
                                        const std::string& out) {
  std::vector<std::string> a = {"mksquashfs",
                                src,
                                out,
                                "-noappend",
                                "-quiet",
                                "-no-progress",
                                "-exit-on-error",
                                "-mkfs-time",
                                std::to_string(kBaseTime),
                                "-all-root",
                                "-processors",
                                "1",
                                "-comp",
                                s.codec,
                                "-b",
                                std::to_string(s.block_size)};
  a.insert(a.end(), s.codec_options.begin(), s.codec_options.end());
  a.insert(a.end(), s.options.begin(), s.options.end());
  return a;
}

std::vector<std::string> GensquashfsArgs(const Shape& s, const std::string& src,
                                         const std::string& pack,
                                         const std::string& out) {
  std::vector<std::string> a = {"gensquashfs"};
  if (s.producer == Producer::kGensquashfsPackFile) {
    a.insert(a.end(), {"-F", pack, "-D", src, "-d",
                       "mtime=" + std::to_string(kBaseTime)});
  } else {
    // The tree's times and its user.* xattrs, every owner root.
    a.insert(a.end(), {"-D", src, "-k", "-x", "--all-root"});
  }
  a.insert(a.end(), {"-c", s.codec, "-b", std::to_string(s.block_size), "-j",
                     "1", "-q", "-f"});
  for (const auto& o : s.codec_options) a.insert(a.end(), {"-X", o});
  a.insert(a.end(), s.options.begin(), s.options.end());
  a.push_back(out);
  return a;
}

std::string Joined(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) s += (s.empty() ? "" : " ") + a;
  return s;
}

// What the child wrote to `fd` until it closed it.
std::string Drain(int fd) {
  std::string out;
  char buf[4096];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return out;
    out.append(buf, static_cast<size_t>(n));
  }
}

std::string Tail(std::string s, size_t max) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  if (s.size() > max) s = "..." + s.substr(s.size() - max);
  return s.empty() ? "(no output)" : s;
}

// Spawns argv with stdout and stderr on a pipe; returns the pid or -errno.
pid_t Spawn(const std::vector<std::string>& argv, int out_fd) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
  posix_spawn_file_actions_adddup2(&fa, out_fd, 2);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // No SOURCE_DATE_EPOCH, locale or anything else of the caller's.
  const char* path = std::getenv("PATH");
  std::string path_var =
      std::string("PATH=") + (path ? path : "/usr/sbin:/usr/bin:/sbin:/bin");
  char* env[] = {path_var.data(), const_cast<char*>("LC_ALL=C"), nullptr};
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), env);
  posix_spawn_file_actions_destroy(&fa);
  return rc == 0 ? pid : -rc;
}

// Runs argv; *output gets what it printed.
Status Run(const std::vector<std::string>& argv, std::string* output) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    return Status::IoError(std::string("pipe: ") + std::strerror(errno));
  pid_t pid = Spawn(argv, fds[1]);
  close(fds[1]);
  if (pid < 0) {
    close(fds[0]);
    return Status::NotFound("cannot run " + argv[0] + ": " +
                            std::strerror(-pid) +
                            " (squashfs-tools and squashfs-tools-ng provide "
                            "mksquashfs and gensquashfs)");
  }
  *output = Drain(fds[0]);
  close(fds[0]);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(st) && WEXITSTATUS(st) == 0) return Status::Ok();
  std::string how =
      WIFEXITED(st) ? "exited with status " + std::to_string(WEXITSTATUS(st))
                    : "was killed by signal " + std::to_string(WTERMSIG(st));
  return Status::IoError("`" + Joined(argv) + "` " + how + ": " +
                         Tail(*output, 2000));
}

}  // namespace

std::vector<std::string> ProducerArgs(const Shape& shape,
                                      const std::string& src_dir,
                                      const std::string& pack_file,
                                      const std::string& out) {
  if (shape.producer == Producer::kMksquashfs)
    return MksquashfsArgs(shape, src_dir, out);
  return GensquashfsArgs(shape, src_dir, pack_file, out);
}

Status RunCommand(const std::vector<std::string>& argv) {
  std::string output;
  return Run(argv, &output);
}

StatusOr<std::string> ProducerVersion(Producer p) {
  static std::mutex mu;
  static std::map<std::string, std::string> known;
  const bool mk = p == Producer::kMksquashfs;
  std::vector<std::string> argv = {mk ? "mksquashfs" : "gensquashfs",
                                   mk ? "-version" : "--version"};
  std::lock_guard<std::mutex> lock(mu);
  auto it = known.find(argv[0]);
  if (it != known.end()) return it->second;
  std::string output;
  SQL_RETURN_IF_ERROR(Run(argv, &output));
  std::string line = output.substr(0, output.find('\n'));
  if (line.empty())
    return Status::IoError("`" + Joined(argv) + "` printed no version");
  known[argv[0]] = line;
  return line;
}

}  // namespace squashlab::images
