// SPDX-License-Identifier: GPL-2.0-only
// This file implements the explore-mode benchmark: complete schedules,
// steps (scheduling points) and task switches per second for a 3-task,
// ~200-step scenario
// written against the kernel API (page cache, page lock, a mutex, marked
// accesses), under the random and PCT strategies.
//   bazel run -c opt //model/tests:explore_bench [-- SECONDS]
//   explore_bench --runs N [random|pct]   exactly N schedules of each (or
//   one) strategy, for instruction counts (valgrind --tool=callgrind)
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "model/base/rng.h"
#include "model/kernel/atomic.h"
#include "model/kernel/filemap.h"
#include "model/kernel/mutex.h"
#include "model/kernel/page.h"
#include "model/kernel/scenario.h"
#include "model/sched/explorer.h"
#include "model/sched/run_spec.h"

namespace squashlab {
namespace {

// Each task: 11 rounds of 6 scheduling points, ~66 points: ~200 steps.
Scenario ThreeReaders() {
  return Scenario{
      "bench3", {}, [](Kernel& k) {
        struct State {
          address_space* mapping;
          mutex m;
          int counter = 0;
        };
        State* st = k.New<State>();
        st->mapping = new_address_space("file");
        mutex_init(&st->m);
        for (int t = 0; t < 3; t++) {
          k.Spawn(TaskSpec{"dd", TaskContext::kProcess, -1, 0, 0, [st, t] {
                             for (int i = 0; i < 11; i++) {
                               page* p = find_get_page(st->mapping, t);
                               if (p == nullptr) {
                                 p = page_cache_alloc(st->mapping);
                                 if (add_to_page_cache_lru(p, st->mapping, t,
                                                           GFP_KERNEL) == 0) {
                                   SetPageUptodate(p);
                                   unlock_page(p);
                                 }
                               }
                               mutex_lock(&st->m);
                               WRITE_ONCE(st->counter,
                                          READ_ONCE(st->counter) + 1);
                               mutex_unlock(&st->m);
                               put_page(p);
                             }
                           }});
        }
      }};
}

// CPU time of this process: the machine is shared, so wall-clock rates
// understate what one core does.
double CpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

// Runs until `seconds` of wall time have passed, or exactly `runs`
// schedules when runs > 0.
void Bench(const char* strategy, double seconds, long max_runs) {
  const RunSpec sc = ThreeReaders();  // one campaign: one lockdep graph
  ExploreOptions opt;
  opt.strategy = strategy;
  opt.pct_depth = 3;
  std::unique_ptr<Strategy> s = MakeStrategy(opt);
  Explorer e;
  long runs = 0, steps = 0, switches = 0, failures = 0;
  // With --runs, a digest of every schedule (its choices and length): the
  // same seeds must give the same digest whatever is optimised underneath.
  uint64_t digest = 0;
  auto start = std::chrono::steady_clock::now();
  double cpu_start = CpuSeconds();
  double elapsed = 0;
  while (max_runs > 0 ? runs < max_runs : elapsed < seconds) {
    for (int i = 0; i < 256 && (max_runs <= 0 || runs < max_runs);
         i++, runs++) {
      RunResult r = e.RunOnce(sc, *s, Rng::Mix(1, runs), false);
      steps += r.steps;
      switches += r.switches;
      failures += r.failed();
      if (max_runs > 0) {  // counted runs only: timed runs stay lean
        digest = Rng::Mix(digest, static_cast<uint64_t>(r.steps));
        for (int c : r.choices) digest = Rng::Mix(digest, c);
      }
    }
    elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
  }
  double cpu = CpuSeconds() - cpu_start;
  std::printf(
      "%-7s %8ld schedules, %.0f steps each, %ld failures, digest %016llx\n",
      strategy, runs, static_cast<double>(steps) / runs, failures,
      static_cast<unsigned long long>(digest));
  std::printf(
      "        per CPU second: %9.0f schedules/s, %11.0f steps/s, %11.0f task "
      "switches/s\n",
      runs / cpu, steps / cpu, switches / cpu);
  std::printf(
      "        per wall second: %8.0f schedules/s, %11.0f steps/s, %11.0f task "
      "switches/s (%.2f s)\n",
      runs / elapsed, steps / elapsed, switches / elapsed, elapsed);
}

}  // namespace
}  // namespace squashlab

int main(int argc, char** argv) {
  double seconds = 2.0;
  long runs = 0;
  const char* only = nullptr;
  if (argc > 2 && std::strcmp(argv[1], "--runs") == 0) {
    runs = std::atol(argv[2]);
    if (argc > 3) only = argv[3];
  } else if (argc > 1) {
    seconds = std::atof(argv[1]);
  }
  std::printf(
      "explore executor, 3 tasks, one core; a step is one scheduling "
      "point (a\nstrategy decision); a task switch is one Boost.Context "
      "jump from task to task,\nor a resume from the scheduler with the "
      "suspend back: a step whose task is\npicked again continues without "
      "one\n");
  for (const char* strategy : {"random", "pct"})
    if (only == nullptr || std::strcmp(only, strategy) == 0)
      squashlab::Bench(strategy, seconds, runs);
  return 0;
}
