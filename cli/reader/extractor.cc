// SPDX-License-Identifier: GPL-2.0-only
// This file implements Extractor. The calling thread walks the image (whose
// metadata is not thread-safe) and makes directories, symlinks and special
// files in walk order. Files of one chunk (most files of a tree) are gathered
// by directory into batches, each one task for the WorkQueue: create, decode,
// write, set attributes, close each file, so that the file system's work for
// files runs on every core while two threads rarely create in the same
// directory (the file system serialises creations in one directory; a
// second thread there only spins on its lock). A larger file is
// created by the walk and each of its chunks is a task; the chunk that
// completes the file sets its attributes and closes it. A directory's mode
// and times are set once the walk has left it and its files exist (deepest
// first by construction); those that hard links go into, and the paths'
// ancestors, wait for Finish.
#include "cli/reader/extractor.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cstdio>

#include "cli/output.h"
#include "cli/reader/tree_walker.h"
#include "cli/reader/work_queue.h"

namespace squashlab::cli {
namespace {

// Tasks queued ahead of the workers: enough that the fragments the next
// files need are being decoded (see WarmFragment) while the workers write
// the files of the current one; few enough that those warmed ahead do not
// push out of the fragment cache the ones queued files still need (measured:
// 256 batches ahead decoded a third of the fragments twice), and to bound
// the descriptors that large files hold open while queued (a small file
// opens its own).
constexpr size_t kQueuedTasks = 32;

// A batch of small files ends with its directory's run in the walk, or at
// these sizes, so that a large directory still feeds every worker and a
// task stays short (about a millisecond of file-system work).
constexpr size_t kBatchFiles = 32;
constexpr uint64_t kBatchBytes = 1 << 20;

std::string BaseName(const std::string& image_path) {
  return image_path.substr(image_path.rfind('/') + 1);
}

bool IsSparseChunk(const FileLayout& l, uint64_t chunk) {
  return chunk < l.blocks.size() && l.blocks[chunk].stored_size == 0;
}

}  // namespace

// A regular file being written: workers write its chunks in place, and the
// one that writes the last remaining chunk finishes it.
struct Extractor::FileJob {
  int fd = -1;
  std::shared_ptr<const FileLayout> layout;
  Attributes attrs;  // read from the image on the walking thread
  bool chown = false;
  bool ends_in_hole = false;
  std::string shown;  // DEST/path, for messages
  std::atomic<uint64_t> remaining{0};
};

// A file of one chunk, created and written by its batch's task.
struct Extractor::SmallFile {
  DestDir::Location at;
  std::string shown;
  mode_t mode = 0;
  FileLayout layout;
  Attributes attrs;
  bool chown = false;
};

// Small files of one directory, in walk order.
struct Extractor::FileBatch {
  DirId dir = kDestRoot;
  std::atomic<int>* pending = nullptr;  // the directory's files to create
  std::vector<SmallFile> files;
  uint64_t bytes = 0;
};

struct Extractor::Slot {
  std::unique_ptr<DataReader::Context> ctx;
  std::vector<uint8_t> buf;
};

Extractor::Extractor(Image* image, DestDir* dest, int threads)
    : image_(image),
      dest_(dest),
      queue_(std::make_unique<WorkQueue>(threads, kQueuedTasks)) {
  for (int i = 0; i < queue_->slots(); ++i) {
    auto ctx = image_->data().NewContext();
    if (!ctx.ok()) {
      RecordError(ctx.status());
      return;
    }
    auto slot = std::make_unique<Slot>();
    slot->ctx = std::move(ctx).value();
    slot->buf.resize(image_->data().block_size());
    slots_.push_back(std::move(slot));
  }
}

Extractor::~Extractor() {
  failed_.store(true);  // queued chunks only close their files now
  queue_.reset();
}

void Extractor::RecordError(const Status& s) {
  std::lock_guard<std::mutex> lock(error_mu_);
  if (error_.ok()) error_ = s;
  failed_.store(true);
}

Status Extractor::FirstError() {
  if (!failed_.load()) return Status::Ok();
  std::lock_guard<std::mutex> lock(error_mu_);
  return error_;
}

StatusOr<Attributes> Extractor::AttributesOf(const Inode& in) {
  Attributes a;
  a.mode = in.permissions;
  SQL_ASSIGN_OR_RETURN(a.uid, image_->Uid(in));
  SQL_ASSIGN_OR_RETURN(a.gid, image_->Gid(in));
  a.mtime = in.mtime;
  SQL_ASSIGN_OR_RETURN(a.xattrs, image_->ListXattrs(in));
  return a;
}

// The destination directory for the first `depth` components of `parts`,
// made (with its attributes left for Finish) when first needed.
StatusOr<DirId> Extractor::AncestorDir(const RelPath& parts, size_t depth) {
  std::string path = "/";
  DirId parent = kDestRoot;
  for (size_t i = 0; i <= depth; ++i) {
    if (i > 0) path = JoinImagePath(path, parts[i - 1]);
    auto it = ancestors_.find(path);
    if (it != ancestors_.end()) {
      parent = it->second;
      continue;
    }
    SQL_ASSIGN_OR_RETURN(Inode dir, image_->Lookup(path));
    if (dir.type != InodeType::kDirectory) return Status::NotFound(path);
    DirId id = kDestRoot;
    if (i > 0) {
      SQL_ASSIGN_OR_RETURN(id, dest_->MakeDir(parent, parts[i - 1]));
      ++totals_.dirs;
    }
    ancestors_.emplace(path, id);
    ancestor_order_.push_back({id, dir});
    parent = id;
  }
  return parent;
}

Status Extractor::Add(const std::string& path) {
  SQL_RETURN_IF_ERROR(FirstError());
  const RelPath parts = SplitImagePath(path);
  SQL_ASSIGN_OR_RETURN(Inode start, image_->Lookup(path));
  SQL_ASSIGN_OR_RETURN(
      DirId parent, AncestorDir(parts, parts.empty() ? 0 : parts.size() - 1));
  bool first = true;
  const Status st = WalkTree(
      image_, path, start, true,
      [&](const WalkItem& item) -> Status {
        if (!first) return Visit(item, stack_.back().id);
        first = false;
        if (!parts.empty()) return Visit(item, parent);
        stack_.push_back(
            {kDestRoot, item.inode, true});  // the root: finished last
        return Status::Ok();
      },
      [&](const WalkItem&) { return Leave(); });
  FlushBatch();
  return st;
}

void Extractor::DeferOpenDirs() {
  for (auto it = stack_.rbegin(); it != stack_.rend() && !it->deferred; ++it)
    it->deferred = true;
}

std::atomic<int>* Extractor::PendingOf(DirId dir) {
  while (pending_.size() <= dir) pending_.emplace_back(0);
  return &pending_[dir];
}

Status Extractor::Leave() {
  FlushBatch();  // the files of the directory left
  const OpenDirState top = stack_.back();
  stack_.pop_back();
  if (top.id == kDestRoot) return Status::Ok();  // an ancestor, see Finish
  if (top.deferred) {
    deferred_.push_back({top.id, top.inode});
    return Status::Ok();
  }
  finishing_.push_back({top.id, top.inode});
  return FinishReady();
}

Status Extractor::FinishReady() {
  while (!finishing_.empty() &&
         PendingOf(finishing_.front().id)->load(std::memory_order_acquire) ==
             0) {
    const Deferred d = finishing_.front();
    finishing_.pop_front();
    SQL_ASSIGN_OR_RETURN(Attributes a, AttributesOf(d.inode));
    SQL_RETURN_IF_ERROR(dest_->FinishDir(d.id, a));
  }
  return Status::Ok();
}

Status Extractor::Visit(const WalkItem& item, DirId parent) {
  SQL_RETURN_IF_ERROR(FirstError());
  const Inode& in = item.inode;
  const std::string name = BaseName(item.path);
  if (in.type == InodeType::kDirectory) {
    FlushBatch();  // a batch holds the files of one directory
    SQL_ASSIGN_OR_RETURN(DirId id, dest_->MakeDir(parent, name));
    stack_.push_back({id, in, false});
    ++totals_.dirs;
    return Status::Ok();
  }
  if (in.nlink > 1) {
    // Both ends of a hard link stay writable (and private) until Finish.
    DeferOpenDirs();
    auto [it, first] = first_link_.try_emplace(in.inode_number, parent, name);
    if (!first) {
      links_.push_back({it->second.first, it->second.second, parent, name});
      ++totals_.hard_links;
      return Status::Ok();
    }
  }
  switch (in.type) {
    case InodeType::kFile:
      return AddFile(parent, item.path, in);
    case InodeType::kSymlink:
      SQL_RETURN_IF_ERROR(dest_->MakeSymlink(parent, name, in.symlink_target));
      ++totals_.symlinks;
      break;
    case InodeType::kBlockDevice:
    case InodeType::kCharDevice:
      if (!dest_->is_root()) {
        std::fprintf(stderr, "squashlab: %s: device node skipped (not root)\n",
                     item.path.c_str());
        return Status::Ok();
      }
      SQL_RETURN_IF_ERROR(dest_->MakeNode(
          parent, name, in.type == InodeType::kBlockDevice ? S_IFBLK : S_IFCHR,
          in.permissions, makedev(in.rdev_major(), in.rdev_minor())));
      ++totals_.specials;
      break;
    case InodeType::kFifo:
    case InodeType::kSocket:
      SQL_RETURN_IF_ERROR(dest_->MakeNode(
          parent, name, in.type == InodeType::kFifo ? S_IFIFO : S_IFSOCK,
          in.permissions, 0));
      ++totals_.specials;
      break;
    case InodeType::kDirectory:
      break;
  }
  SQL_ASSIGN_OR_RETURN(Attributes a, AttributesOf(in));
  return dest_->SetAttributes(parent, name, in.type == InodeType::kSymlink,
                              dest_->NeedsChown(parent, a), a);
}

Status Extractor::AddFile(DirId parent, const std::string& image_path,
                          const Inode& in) {
  if (in.file_size == 0) {
    // Nothing to write: made by name, without a descriptor.
    const std::string name = BaseName(image_path);
    SQL_ASSIGN_OR_RETURN(Attributes a, AttributesOf(in));
    SQL_RETURN_IF_ERROR(
        dest_->MakeNode(parent, name, S_IFREG, in.permissions, 0));
    SQL_RETURN_IF_ERROR(dest_->SetAttributes(parent, name, false,
                                             dest_->NeedsChown(parent, a), a));
    ++totals_.files;
    counters_.files.fetch_add(1, std::memory_order_relaxed);
    return Status::Ok();
  }
  SQL_ASSIGN_OR_RETURN(FileLayout layout, image_->Layout(in));
  WarmFragment(layout);
  if (layout.chunk_count() == 1)
    return AddSmallFile(parent, image_path, in, std::move(layout));
  auto job = std::make_shared<FileJob>();
  SQL_ASSIGN_OR_RETURN(job->attrs, AttributesOf(in));
  job->layout = std::make_shared<const FileLayout>(std::move(layout));
  job->chown = dest_->NeedsChown(parent, job->attrs);
  job->shown = dest_->path() + image_path;
  SQL_ASSIGN_OR_RETURN(job->fd, dest_->CreateFile(parent, BaseName(image_path),
                                                  in.permissions & 0777));
  ++totals_.files;
  totals_.bytes += in.file_size;
  const uint64_t n = job->layout->chunk_count();
  if (n == 0) {
    FinishFile(job.get());
    return FirstError();
  }
  job->ends_in_hole = IsSparseChunk(*job->layout, n - 1);
  job->remaining.store(n);
  for (uint64_t c = 0; c < n; ++c) {
    if (failed_.load()) {
      // Give up the chunks not queued; whoever brings the count to 0 closes.
      if (job->remaining.fetch_sub(n - c) == n - c) FinishFile(job.get());
      break;
    }
    queue_->Submit([this, job, c](int slot) { WriteChunk(job, c, slot); });
  }
  return FirstError();
}

void Extractor::WarmFragment(const FileLayout& layout) {
  if (!layout.has_tail || layout.fragment.start == last_fragment_ ||
      queue_->slots() < 2)
    return;
  last_fragment_ = layout.fragment.start;
  // Ahead of the queued files: a worker decodes it while the others still
  // write the files of the previous fragment.
  auto tail = std::make_shared<const FileLayout>(layout);
  // A failure is left for the files that need the fragment to report.
  queue_->SubmitFirst([this, tail](int slot) {
    if (failed_.load()) return;
    static_cast<void>(image_->data().WarmFragment(
        *tail, slots_[static_cast<size_t>(slot)]->ctx.get()));
  });
}

Status Extractor::AddSmallFile(DirId parent, const std::string& image_path,
                               const Inode& in, FileLayout layout) {
  SmallFile f;
  SQL_ASSIGN_OR_RETURN(f.attrs, AttributesOf(in));
  SQL_ASSIGN_OR_RETURN(f.at, dest_->LocateNew(parent, BaseName(image_path)));
  f.shown = dest_->path() + image_path;
  f.mode = in.permissions & 0777;
  f.layout = std::move(layout);
  f.chown = dest_->NeedsChown(parent, f.attrs);
  if (batch_ && batch_->dir != parent) FlushBatch();
  if (!batch_) {
    batch_ = std::make_shared<FileBatch>();
    batch_->dir = parent;
    batch_->pending = PendingOf(parent);
  }
  batch_->files.push_back(std::move(f));
  batch_->pending->fetch_add(1, std::memory_order_relaxed);
  batch_->bytes += in.file_size;
  ++totals_.files;
  totals_.bytes += in.file_size;
  if (batch_->files.size() >= kBatchFiles || batch_->bytes >= kBatchBytes)
    FlushBatch();
  return FirstError();
}

void Extractor::FlushBatch() {
  if (!batch_) return;
  std::shared_ptr<FileBatch> b = std::move(batch_);
  batch_.reset();
  queue_->Submit([this, b](int slot) { WriteBatch(b.get(), slot); });
}

void Extractor::WriteBatch(FileBatch* b, int slot) {
  for (SmallFile& f : b->files) {
    const Status st = WriteSmallFile(&f, b->pending, slot);
    if (!st.ok()) RecordError(st);
  }
}

Status Extractor::WriteSmallFile(SmallFile* f, std::atomic<int>* pending,
                                 int slot) {
  if (failed_.load()) {
    pending->fetch_sub(1, std::memory_order_release);
    return Status::Ok();
  }
  auto created = dest_->CreateFileAt(f->at, f->shown, f->mode);
  // The entry exists: its directory may be finished from now on.
  pending->fetch_sub(1, std::memory_order_release);
  if (!created.ok()) return created.status();
  const int fd = *created;
  Status st;
  const uint32_t len = f->layout.chunk_length(0);
  if (!IsSparseChunk(f->layout, 0)) {
    Slot& s = *slots_[static_cast<size_t>(slot)];
    st = image_->data().ReadChunk(f->layout, 0, s.ctx.get(), s.buf.data());
    if (st.ok()) st = WriteAll(fd, ByteSpan(s.buf.data(), len), 0);
    if (!st.ok()) st = st.WithContext(f->shown);
  } else if (ftruncate(fd, static_cast<off_t>(len)) != 0) {
    st = Status::IoError(f->shown + ": truncate failed");
  }
  if (st.ok()) st = dest_->SetFileAttributes(fd, f->shown, f->chown, f->attrs);
  close(fd);
  if (!st.ok()) return st;
  counters_.bytes.fetch_add(len, std::memory_order_relaxed);
  counters_.files.fetch_add(1, std::memory_order_relaxed);
  return Status::Ok();
}

void Extractor::WriteChunk(const std::shared_ptr<FileJob>& job, uint64_t chunk,
                           int slot) {
  if (!failed_.load()) {
    const FileLayout& l = *job->layout;
    const uint32_t len = l.chunk_length(chunk);
    Status st;
    if (!IsSparseChunk(l, chunk)) {
      Slot& s = *slots_[static_cast<size_t>(slot)];
      st = image_->data().ReadChunk(l, chunk, s.ctx.get(), s.buf.data());
      if (st.ok())
        st = WriteAll(job->fd, ByteSpan(s.buf.data(), len),
                      static_cast<off_t>(l.chunk_offset(chunk)));
    }
    if (st.ok()) {
      counters_.bytes.fetch_add(len, std::memory_order_relaxed);
    } else {
      RecordError(st.WithContext(job->shown));
    }
  }
  if (job->remaining.fetch_sub(1) == 1) FinishFile(job.get());
}

void Extractor::FinishFile(FileJob* job) {
  Status st;
  if (!failed_.load()) {
    // Only a file that ends in a hole is shorter than its size here.
    if (job->ends_in_hole &&
        ftruncate(job->fd, static_cast<off_t>(job->layout->file_size)) != 0)
      st = Status::IoError(job->shown + ": truncate failed");
    if (st.ok())
      st =
          dest_->SetFileAttributes(job->fd, job->shown, job->chown, job->attrs);
    if (st.ok()) counters_.files.fetch_add(1, std::memory_order_relaxed);
  }
  close(job->fd);
  job->fd = -1;
  if (!st.ok()) RecordError(st);
}

Status Extractor::Finish() {
  FlushBatch();
  queue_->Drain();
  SQL_RETURN_IF_ERROR(FirstError());
  SQL_RETURN_IF_ERROR(FinishReady());
  for (const PendingLink& l : links_)
    SQL_RETURN_IF_ERROR(
        dest_->MakeHardLink(l.from_dir, l.from_name, l.dir, l.name));
  for (const Deferred& d : deferred_) {
    SQL_ASSIGN_OR_RETURN(Attributes a, AttributesOf(d.inode));
    SQL_RETURN_IF_ERROR(dest_->FinishDir(d.id, a));
  }
  for (auto it = ancestor_order_.rbegin(); it != ancestor_order_.rend(); ++it) {
    SQL_ASSIGN_OR_RETURN(Attributes a, AttributesOf(it->inode));
    SQL_RETURN_IF_ERROR(dest_->FinishDir(it->id, a));
  }
  return Status::Ok();
}

std::vector<std::string> DisjointPaths(const std::vector<std::string>& paths) {
  auto covers = [](const std::string& outer, const std::string& p) {
    return outer == "/" || p == outer || p.rfind(outer + "/", 0) == 0;
  };
  std::vector<std::string> out;
  for (size_t i = 0; i < paths.size(); ++i) {
    bool covered = false;
    for (size_t j = 0; j < paths.size() && !covered; ++j) {
      if (j == i) continue;
      // Of two equal paths the first stays.
      covered = paths[j] == paths[i] ? j < i : covers(paths[j], paths[i]);
    }
    if (!covered) out.push_back(paths[i]);
  }
  return out;
}

StatusOr<ExtractTotals> CountTree(Image* image,
                                  const std::vector<std::string>& paths) {
  ExtractTotals t;
  std::unordered_map<uint32_t, bool> linked;
  for (const std::string& p : paths) {
    SQL_ASSIGN_OR_RETURN(Inode start, image->Lookup(p));
    SQL_RETURN_IF_ERROR(
        WalkTree(image, p, start, true, [&](const WalkItem& item) {
          const Inode& in = item.inode;
          if (in.type != InodeType::kFile) return Status::Ok();
          if (in.nlink > 1 && !linked.emplace(in.inode_number, true).second)
            return Status::Ok();
          ++t.files;
          t.bytes += in.file_size;
          return Status::Ok();
        }));
  }
  return t;
}

}  // namespace squashlab::cli
