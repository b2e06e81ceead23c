// This file implements `squashlab extract [-p N] IMG DEST [PATH...]`.
// Phase 1 walks the tree and creates directories, symlinks and special
// files; phase 2 decodes every regular file through the parallel pipeline;
// phase 3 makes the deferred hard links and finally sets directory modes and
// times deepest first (so that read-only directories can still be filled).
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <memory>
#include <unordered_map>
#include <unordered_set>

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
  std::unordered_set<uint32_t> visited_dirs_;  // directory inode numbers
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
    if (visited_dirs_.insert(in.inode_number).second) dirs_.push_back({rel, in});
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
  return dest_->SetAttributes(rel, in.type == InodeType::kSymlink, a);
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

// A file being written. Workers write its chunks in place; the one that
// writes the last remaining chunk finishes it (length, attributes, close).
struct OpenFile {
  int fd = -1;
  const RelPath* rel = nullptr;
  Attributes attrs;  // read from the image on the caller's thread
  uint64_t size = 0;
  bool ends_in_hole = false;
  std::atomic<uint64_t> remaining{0};
};

Status FinishFile(DestDir* dest, OpenFile* f) {
  Status st;
  // Only a file that ends in a hole is shorter than its size here.
  if (f->ends_in_hole && ftruncate(f->fd, static_cast<off_t>(f->size)) != 0)
    st = Status::IoError("truncate failed");
  if (st.ok()) st = dest->SetFileAttributes(f->fd, *f->rel, f->attrs);
  close(f->fd);
  f->fd = -1;
  return st;
}

}  // namespace

// The image's metadata is read on the calling thread (Source); decoding,
// writing and finishing happen on the workers; the in-order sink only
// forgets files whose last chunk has gone through.
Status Extractor::WriteFiles() {
  std::unordered_map<OpenFile*, std::unique_ptr<OpenFile>> open;
  size_t next_file = 0;
  uint64_t next_chunk = 0;
  OpenFile* current = nullptr;
  std::shared_ptr<const FileLayout> layout;
  ChunkPipeline pipeline(&image_->data(), threads_);
  Status source_error;
  auto open_next = [&]() -> Status {
    const PendingFile& pf = files_[next_file++];
    auto f = std::make_unique<OpenFile>();
    f->rel = &pf.rel;
    f->size = pf.inode.file_size;
    SQL_ASSIGN_OR_RETURN(f->attrs, AttributesOf(pf.inode));
    SQL_ASSIGN_OR_RETURN(FileLayout l, image_->Layout(pf.inode));
    layout = std::make_shared<const FileLayout>(std::move(l));
    SQL_ASSIGN_OR_RETURN(f->fd, dest_->CreateFile(pf.rel, pf.inode.permissions & 0777));
    next_chunk = 0;
    if (layout->chunk_count() == 0) return FinishFile(dest_, f.get());
    ChunkJob last{layout, layout->chunk_count() - 1, 0};
    f->ends_in_hole = IsSparseChunk(last);
    f->remaining = layout->chunk_count();
    current = f.get();
    open[current] = std::move(f);
    return Status::Ok();
  };
  Status st = pipeline.Run(
      [&](ChunkJob* job) -> bool {
        while (!current || next_chunk == layout->chunk_count()) {
          current = nullptr;
          if (next_file == files_.size()) return false;
          source_error = open_next();
          if (!source_error.ok()) return false;
        }
        job->layout = layout;
        job->chunk = next_chunk++;
        job->tag = reinterpret_cast<uint64_t>(current);
        return true;
      },
      [&](const ChunkJob& job, ByteSpan) -> Status {
        if (job.chunk + 1 == job.layout->chunk_count())
          open.erase(reinterpret_cast<OpenFile*>(job.tag));  // finished by a worker
        return Status::Ok();
      },
      [this](const ChunkJob& job, ByteSpan bytes) -> Status {
        auto* f = reinterpret_cast<OpenFile*>(job.tag);
        if (!IsSparseChunk(job)) {
          SQL_RETURN_IF_ERROR(
              WriteAll(f->fd, bytes, static_cast<off_t>(job.layout->chunk_offset(job.chunk))));
        }
        if (f->remaining.fetch_sub(1) != 1) return Status::Ok();
        return FinishFile(dest_, f);
      });
  for (auto& [ptr, f] : open) {
    if (f->fd >= 0) close(f->fd);
  }
  if (!st.ok()) return st.WithContext(files_.empty() ? "" : "extracting file data");
  return source_error;
}

Status Extractor::Finish() {
  SQL_RETURN_IF_ERROR(WriteFiles());
  for (const auto& [existing, rel] : links_) SQL_RETURN_IF_ERROR(dest_->MakeHardLink(existing, rel));
  for (auto it = dirs_.rbegin(); it != dirs_.rend(); ++it) {
    SQL_ASSIGN_OR_RETURN(Attributes a, AttributesOf(it->inode));
    SQL_RETURN_IF_ERROR(dest_->SetAttributes(it->rel, false, a));
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
