// This file implements `squashlab extract [-p N] IMG DEST [PATH...]`.
// Phase 1 walks the tree and creates directories, symlinks and special
// files; phase 2 decodes every regular file through the parallel pipeline;
// phase 3 makes the deferred hard links and finally sets directory modes and
// times deepest first (so that read-only directories can still be filled).
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cstdio>
#include <unordered_map>

#include "cli/cli_status.h"
#include "cli/commands.h"
#include "cli/dest_dir.h"
#include "cli/output.h"
#include "cli/tree_walker.h"
#include "reader/chunk_pipeline.h"
#include "reader/image.h"

namespace squashlab::cli {
namespace {

struct PendingFile {
  RelPath rel;
  Inode inode;
};

class Extractor {
 public:
  Extractor(Image* image, DestDir* dest, int threads)
      : image_(image), dest_(dest), threads_(threads) {}

  // Creates the ancestors of `path` (as the image has them) and everything
  // at and below it.
  Status AddSubtree(const std::string& path);
  Status Finish();  // phases 2 and 3

 private:
  Status Visit(const WalkItem& item);
  StatusOr<Attributes> AttributesOf(const Inode& in);
  Status WriteFiles();

  Image* image_;
  DestDir* dest_;
  int threads_;
  std::unordered_map<uint32_t, RelPath> first_link_;  // inode number -> path
  std::unordered_map<uint32_t, bool> visited_dirs_;
  std::vector<PendingFile> files_;
  std::vector<std::pair<RelPath, RelPath>> links_;    // (existing, new)
  std::vector<PendingFile> dirs_;                     // in pre-order
};

StatusOr<Attributes> Extractor::AttributesOf(const Inode& in) {
  Attributes a;
  a.mode = in.permissions;
  SQL_ASSIGN_OR_RETURN(a.uid, image_->Uid(in));
  SQL_ASSIGN_OR_RETURN(a.gid, image_->Gid(in));
  a.mtime = in.mtime;
  SQL_ASSIGN_OR_RETURN(a.xattrs, image_->ListXattrs(in));
  return a;
}

Status Extractor::Visit(const WalkItem& item) {
  const Inode& in = item.inode;
  RelPath rel = SplitImagePath(item.path);
  if (in.type == InodeType::kDirectory) {
    if (visited_dirs_.emplace(in.inode_number, true).second) dirs_.push_back({rel, in});
    return dest_->MakeDir(rel);
  }
  if (in.nlink > 1) {
    auto [it, first] = first_link_.emplace(in.inode_number, rel);
    if (!first) {
      links_.emplace_back(it->second, rel);
      return Status::Ok();
    }
  }
  switch (in.type) {
    case InodeType::kFile:
      files_.push_back({std::move(rel), in});
      return Status::Ok();
    case InodeType::kSymlink:
      SQL_RETURN_IF_ERROR(dest_->MakeSymlink(rel, in.symlink_target));
      break;
    case InodeType::kBlockDevice:
    case InodeType::kCharDevice:
      if (!dest_->is_root()) {
        std::fprintf(stderr, "squashlab: %s: device node skipped (not root)\n", item.path.c_str());
        return Status::Ok();
      }
      SQL_RETURN_IF_ERROR(dest_->MakeNode(
          rel, in.type == InodeType::kBlockDevice ? S_IFBLK : S_IFCHR,
          makedev(in.rdev_major(), in.rdev_minor())));
      break;
    case InodeType::kFifo:
    case InodeType::kSocket:
      SQL_RETURN_IF_ERROR(dest_->MakeNode(rel, in.type == InodeType::kFifo ? S_IFIFO : S_IFSOCK, 0));
      break;
    case InodeType::kDirectory:
      break;
  }
  SQL_ASSIGN_OR_RETURN(Attributes a, AttributesOf(in));
  return dest_->SetAttributes(rel, in.type == InodeType::kSymlink, a, -1);
}

Status Extractor::AddSubtree(const std::string& path) {
  // Ancestors first, as directories with the image's attributes.
  RelPath parts = SplitImagePath(path);
  std::string sofar = "/";
  for (size_t i = 0; i < parts.size(); ++i) {
    SQL_ASSIGN_OR_RETURN(Inode dir, image_->Lookup(sofar));
    if (dir.type != InodeType::kDirectory) return Status::NotFound(path);
    SQL_RETURN_IF_ERROR(Visit(WalkItem{sofar, dir}));
    sofar = JoinImagePath(sofar, parts[i]);
  }
  SQL_ASSIGN_OR_RETURN(Inode start, image_->Lookup(path));
  return WalkTree(image_, path, start, true, [&](const WalkItem& item) { return Visit(item); });
}

namespace {
bool IsSparseChunk(const ChunkJob& job) {
  return job.chunk < job.layout->blocks.size() && job.layout->blocks[job.chunk].stored_size == 0;
}
}  // namespace

// Each job's tag is its output file's descriptor: workers write chunks with
// pwrite as they decode them (positions make order irrelevant), and the
// caller's in-order sink finishes a file once its last chunk is through.
Status Extractor::WriteFiles() {
  std::unordered_map<int, size_t> open;  // fd -> index in files_
  size_t next_file = 0;
  uint64_t next_chunk = 0;
  int next_fd = -1;
  std::shared_ptr<const FileLayout> layout;
  ChunkPipeline pipeline(&image_->data(), threads_);
  auto finish_file = [&](size_t f, int fd, bool ends_in_hole) -> Status {
    const Inode& in = files_[f].inode;
    Status st;
    // Only a file that ends in a hole is shorter than its size here.
    if (ends_in_hole && ftruncate(fd, static_cast<off_t>(in.file_size)) != 0)
      st = Status::IoError("truncate failed");
    if (st.ok()) {
      auto a = AttributesOf(in);
      st = a.ok() ? dest_->SetAttributes(files_[f].rel, false, *a, fd) : a.status();
    }
    close(fd);
    return st;
  };
  Status source_error;
  Status st = pipeline.Run(
      [&](ChunkJob* job) -> bool {
        while (!layout || next_chunk == layout->chunk_count()) {
          if (next_file == files_.size()) return false;
          const PendingFile& pf = files_[next_file];
          auto fd = dest_->CreateFile(pf.rel, pf.inode.permissions & 0777);
          auto l = fd.ok() ? image_->Layout(pf.inode) : StatusOr<FileLayout>(fd.status());
          if (!l.ok()) {
            if (fd.ok()) close(*fd);
            source_error = l.status();
            return false;
          }
          layout = std::make_shared<const FileLayout>(std::move(l).value());
          next_chunk = 0;
          if (layout->chunk_count() == 0) {
            source_error = finish_file(next_file++, *fd, false);
            layout.reset();
            if (!source_error.ok()) return false;
            continue;
          }
          next_fd = *fd;
          open[next_fd] = next_file++;
        }
        job->layout = layout;
        job->chunk = next_chunk++;
        job->tag = static_cast<uint64_t>(next_fd);
        return true;
      },
      [&](const ChunkJob& job, ByteSpan) -> Status {
        if (job.chunk + 1 < job.layout->chunk_count()) return Status::Ok();
        const int fd = static_cast<int>(job.tag);
        Status done = finish_file(open[fd], fd, IsSparseChunk(job));
        open.erase(fd);
        return done;
      },
      [](const ChunkJob& job, ByteSpan bytes) -> Status {
        if (IsSparseChunk(job)) return Status::Ok();
        return WriteAll(static_cast<int>(job.tag), bytes,
                        static_cast<off_t>(job.layout->chunk_offset(job.chunk)));
      });
  for (auto& [fd, file] : open) close(fd);
  if (!st.ok()) return st.WithContext(files_.empty() ? "" : "extracting file data");
  return source_error;
}

Status Extractor::Finish() {
  SQL_RETURN_IF_ERROR(WriteFiles());
  for (const auto& [existing, rel] : links_) SQL_RETURN_IF_ERROR(dest_->MakeHardLink(existing, rel));
  for (auto it = dirs_.rbegin(); it != dirs_.rend(); ++it) {
    SQL_ASSIGN_OR_RETURN(Attributes a, AttributesOf(it->inode));
    SQL_RETURN_IF_ERROR(dest_->SetAttributes(it->rel, false, a, -1));
  }
  return Status::Ok();
}

}  // namespace

int RunExtract(const Args& args) {
  int threads;
  Args rest;
  if (!TakeThreadsOption(args, &threads, &rest))
    return Usage("extract: -p takes a thread count from 1 to 256");
  if (rest.size() < 2) return Usage("extract takes an image and a destination");
  const std::string& img_path = rest[0];
  auto image = Image::Open(img_path);
  if (!image.ok()) return Fail(img_path, "", image.status());
  auto dest = DestDir::Open(rest[1]);
  if (!dest.ok()) return Fail("", rest[1], dest.status());
  // Files are created with their final permission bits.
  const mode_t saved_umask = umask(0);
  Extractor ex(image->get(), &*dest, threads);
  Args paths(rest.begin() + 2, rest.end());
  if (paths.empty()) paths.push_back("/");
  for (const std::string& p : paths) {
    const std::string path = CanonicalImagePath(p);
    Status st = ex.AddSubtree(path);
    if (!st.ok()) {
      umask(saved_umask);
      return Fail(img_path, path, st);
    }
  }
  Status st = ex.Finish();
  umask(saved_umask);
  for (const std::string& w : dest->warnings()) std::fprintf(stderr, "squashlab: warning: %s\n", w.c_str());
  if (!st.ok()) return Fail(img_path, "", st);
  return kExitOk;
}

}  // namespace squashlab::cli
