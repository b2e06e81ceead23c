// SPDX-License-Identifier: GPL-2.0-only
// This file implements Extractor, the engine of `squashlab extract`: one
// walk of the image that creates directories, symlinks and special files as
// it reaches them, hands files to worker threads, and sets each directory's
// attributes as soon as everything in it has been created.
#ifndef SQUASHLAB_CLI_READER_EXTRACTOR_H_
#define SQUASHLAB_CLI_READER_EXTRACTOR_H_

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "cli/reader/dest_dir.h"
#include "cli/reader/progress.h"
#include "reader/image.h"

namespace squashlab::cli {

class WorkQueue;
struct WalkItem;

// Thread-compatible: one thread calls Add and Finish; the workers it
// starts only write file data and file attributes.
class Extractor {
 public:
  // `image` and `dest` must outlive the Extractor. REQUIRES: umask 0.
  Extractor(Image* image, DestDir* dest, int threads);
  ~Extractor();  // waits for the workers

  // Creates the ancestors of `path` (as the image has them) and everything
  // at and below it. REQUIRES: no earlier path contains or equals `path`
  // (see DisjointPaths).
  Status Add(const std::string& path);
  // Waits for the file data, makes the hard links, and sets the attributes
  // of the directories left for the end (ancestors of the paths, and those
  // hard links go into).
  Status Finish();

  const ExtractTotals& totals() const { return totals_; }
  const ProgressCounters& counters() const { return counters_; }

 private:
  struct OpenDirState {
    DirId id;
    Inode inode;
    bool deferred;  // finished by Finish, not when the walk leaves it
  };
  struct Deferred {
    DirId id;
    Inode inode;
  };
  struct PendingLink {
    DirId from_dir;
    std::string from_name;
    DirId dir;
    std::string name;
  };
  struct FileJob;
  struct SmallFile;
  struct FileBatch;

  Status Visit(const WalkItem& item, DirId parent);
  Status Leave();
  // Finishes the directories left by the walk whose files all exist.
  Status FinishReady();
  Status AddFile(DirId parent, const std::string& name, const Inode& in);
  Status AddSmallFile(DirId parent, const std::string& image_path,
                      const Inode& in, FileLayout layout);
  // Queues the small files gathered so far (all in one directory) as one
  // task.
  void FlushBatch();
  void WriteBatch(FileBatch* b, int slot);
  Status WriteSmallFile(SmallFile* f, std::atomic<int>* pending, int slot);
  void WriteChunk(const std::shared_ptr<FileJob>& job, uint64_t chunk,
                  int slot);
  void FinishFile(FileJob* job);
  std::atomic<int>* PendingOf(DirId dir);
  // Starts decoding the fragment of `layout` on a worker when it is the
  // first file of it that the walk meets.
  void WarmFragment(const FileLayout& layout);
  StatusOr<Attributes> AttributesOf(const Inode& in);
  StatusOr<DirId> AncestorDir(const RelPath& parts, size_t depth);
  void DeferOpenDirs();
  void RecordError(const Status& s);
  Status FirstError();

  Image* image_;
  DestDir* dest_;
  std::unique_ptr<WorkQueue> queue_;
  struct Slot;
  std::vector<std::unique_ptr<Slot>> slots_;  // per WorkQueue slot
  std::vector<OpenDirState> stack_;           // the walk's open directories
  std::unordered_map<std::string, DirId> ancestors_;  // image path -> dir
  std::vector<Deferred> ancestor_order_;              // in creation order
  std::vector<Deferred> deferred_;                    // deepest first
  // Left by the walk, in that order (deepest first), waiting for the files
  // that workers create in them: pending_[id] counts those not yet created.
  std::deque<Deferred> finishing_;
  std::deque<std::atomic<int>> pending_;
  std::shared_ptr<FileBatch> batch_;  // small files not yet queued
  std::unordered_map<uint32_t, std::pair<DirId, std::string>> first_link_;
  std::vector<PendingLink> links_;
  uint64_t last_fragment_ = ~uint64_t{0};  // start of the last fragment warmed
  ExtractTotals totals_;
  ProgressCounters counters_;
  std::atomic<bool> failed_{false};
  std::mutex error_mu_;
  Status error_;
};

// Drops every path that equals or lies below an earlier or later one in the
// list (canonical image paths), keeping the order of the rest.
std::vector<std::string> DisjointPaths(const std::vector<std::string>& paths);

// Files and bytes below the paths, for the progress bar's totals.
StatusOr<ExtractTotals> CountTree(Image* image,
                                  const std::vector<std::string>& paths);

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_READER_EXTRACTOR_H_
