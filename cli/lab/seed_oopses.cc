// SPDX-License-Identifier: GPL-2.0-only
// This file implements the seed thread's reports. Its "Ooops 1" is three
// printouts on one machine: eight "Bad page state" lines in a kworker
// (flags error|uptodate), a "stack segment" oops in klogd's
// __kmalloc_track_caller (a corrupted slab freelist: the model's title
// names the function) and "VFS: brelse: Trying to free free buffer" in
// jbd2; its "Oops 2" is a NULL pointer dereference in zlib_uncompress run
// from the work queue.
#include "cli/lab/seed_oopses.h"

namespace squashlab::cli {

const std::vector<SeedOops>& SeedOopses() {
  static const std::vector<SeedOops> kOopses = {
      {"oops 1", "BUG: Bad page state (kworker, error|uptodate)",
       "BUG: Bad page state"},
      {"oops 1", "stack segment in __kmalloc_track_caller (klogd)",
       "__kmalloc_track_caller"},
      {"oops 1", "VFS: brelse: Trying to free free buffer (jbd2)",
       "VFS: brelse: Trying to free free buffer"},
      {"oops 2", "NULL pointer dereference in zlib_uncompress (kworker)",
       "NULL pointer dereference in zlib_uncompress"},
  };
  return kOopses;
}

std::vector<const SeedOops*> SeedOopsesOf(const std::string& title) {
  std::vector<const SeedOops*> out;
  for (const SeedOops& o : SeedOopses())
    if (title.find(o.title_part) != std::string::npos) out.push_back(&o);
  return out;
}

}  // namespace squashlab::cli
