// SPDX-License-Identifier: GPL-2.0-only
// This file implements the planted data race of the ThreadSanitizer test:
// two readers share a plain counter, unlocked ("race") or under a mutex
// ("twin"), while both also read blocks through the buffer cache and pages
// through the page cache, so that the twin also shows the emulator's own
// internals race-free. Runs on the threads executor; exits 0 when the run
// ends without a report.
#include <cstdio>
#include <cstring>
#include <string>

#include "model/kernel/buffer_head.h"
#include "model/kernel/filemap.h"
#include "model/kernel/mutex.h"
#include "model/kernel/page.h"
#include "model/kernel/ram_disk.h"
#include "model/kernel/scenario.h"
#include "model/sched/threads_executor.h"

namespace squashlab {
namespace {

struct Shared {
  int counter = 0;  // plain memory, as a variant's own field
  mutex m;
  super_block sb;
  address_space* mapping = nullptr;
};

void Reader(Shared* st, bool locked, int id) {
  for (int i = 0; i < 50; i++) {
    buffer_head* bh = sb_bread(&st->sb, (i + id) % 8);
    if (bh) brelse(bh);
    page* p = grab_cache_page_nowait(st->mapping, i % 4);
    if (p) {
      if (!PageUptodate(p)) SetPageUptodate(p);
      unlock_page(p);
      page_cache_release(p);
    }
    if (locked) mutex_lock(&st->m);
    st->counter++;
    if (locked) mutex_unlock(&st->m);
  }
}

int Main(bool locked) {
  std::vector<unsigned char> medium(8 * 1024, 0x42);
  RamDisk disk(medium);
  Shared* shared = nullptr;
  Scenario sc{
      locked ? "tsan_twin" : "tsan_race", {}, [&](Kernel& k) {
        Shared* st = k.New<Shared>();
        shared = st;
        mutex_init(&st->m);
        st->sb.s_bdev = disk.bdev();
        st->mapping = new_address_space("file");
        for (int id = 0; id < 2; id++)
          k.Spawn(TaskSpec{"dd", TaskContext::kProcess, id, 0, 0,
                           [st, locked, id] { Reader(st, locked, id); }});
      }};
  ThreadsExecutor exec;
  ScenarioOutcome out = RunScenario(sc, exec, 1);
  std::printf("%s: %s\n", sc.name.c_str(),
              out.ok() ? "no report" : out.report.ToString().c_str());
  (void)shared;
  return out.ok() ? 0 : 1;
}

}  // namespace
}  // namespace squashlab

int main(int argc, char** argv) {
  if (argc != 2 ||
      (std::strcmp(argv[1], "race") && std::strcmp(argv[1], "twin"))) {
    std::fprintf(stderr, "usage: %s race|twin\n", argv[0]);
    return 2;
  }
  return squashlab::Main(std::strcmp(argv[1], "twin") == 0);
}
