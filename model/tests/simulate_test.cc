// SPDX-License-Identifier: GPL-2.0-only
// This file implements the simulate executor's tests: exact virtual-time
// arithmetic, parallelism over CPUs, timers, preemption that respects
// preempt_disable (the percpu decompressor of the 2018 RT thread) and not a
// local lock on PREEMPT_RT, interrupts, and determinism.
#include <gtest/gtest.h>

#include "model/kernel/buffer_head.h"
#include "model/kernel/preempt.h"
#include "model/kernel/ram_disk.h"
#include "model/kernel/scenario.h"
#include "model/sched/simulate_executor.h"

namespace squashlab {
namespace {

TaskSpec Proc(std::string name, int prio, uint64_t start,
              std::function<void()> body) {
  return TaskSpec{std::move(name), TaskContext::kProcess, -1, prio,
                  start,           std::move(body)};
}

void Work(int chunks, uint64_t ns) {
  for (int i = 0; i < chunks; i++) {
    model_charge(CostKind::kCompute, ns);
    model_point("chunk");
  }
}

Scenario TwoWorkers(int ncpus) {
  KernelConfig config;
  config.ncpus = ncpus;
  return Scenario{"two_workers", config, [](Kernel& k) {
                    for (int i = 0; i < 2; i++)
                      k.Spawn(Proc("w", 0, 0, [] { Work(10, 100000); }));
                  }};
}

TEST(Simulate, SerialTimeOnOneCpu) {
  SimulateExecutor exec;
  ScenarioOutcome out = RunScenario(TwoWorkers(1), exec, 1);
  ASSERT_TRUE(out.ok()) << out.report.ToString();
  // Per task: a context switch (2000) + 10 x (100000 + an API call of 50).
  EXPECT_EQ(out.run.end_ns, 2u * (2000 + 10 * 100050));
}

TEST(Simulate, ParallelTimeOnTwoCpus) {
  SimulateExecutor exec;
  ScenarioOutcome out = RunScenario(TwoWorkers(2), exec, 1);
  ASSERT_TRUE(out.ok()) << out.report.ToString();
  EXPECT_EQ(out.run.end_ns, 2000u + 10 * 100050);
}

TEST(Simulate, TimersAdvanceVirtualTime) {
  SimulateExecutor exec;
  Scenario sc{"timer", {}, [&exec](Kernel& k) {
                k.Spawn(Proc("sleeper", 0, 0, [&exec] {
                  for (int i = 0; i < 3; i++) exec.Delay(5000000);
                }));
              }};
  ScenarioOutcome out = RunScenario(sc, exec, 1);
  ASSERT_TRUE(out.ok());
  // Four dispatches of 2000 each, three sleeps of 5 ms.
  EXPECT_EQ(out.run.end_ns, 4u * 2000 + 3u * 5000000);
}

struct Stream {
  int uses = 0;
};

// the 2018 RT thread: a reader decompresses inside get_cpu_ptr (8 ms,
// non-preemptible) or inside the RT local lock (preemptible); a
// cyclictest-like task of higher priority wakes at 1 ms on the same CPU.
uint64_t CyclicLatency(bool locallock, uint64_t* end_ns = nullptr,
                       ScheduleTrace* trace = nullptr) {
  KernelConfig config;
  config.ncpus = 1;
  config.preempt_rt = locallock;
  SimulateExecutor exec(CostModel(), trace != nullptr);
  Scenario sc{
      "rt_latency", config, [locallock](Kernel& k) {
        auto* streams = k.New<percpu<Stream>>();
        streams->slots.resize(1);
        auto* lock = k.New<local_irq_lock>();
        k.Spawn(Proc("reader", 0, 0, [=] {
          Stream* s =
              locallock ? get_locked_ptr(*lock, streams) : get_cpu_ptr(streams);
          s->uses++;
          Work(80, 100000);  // squashfs_decompress: 80 x 100 us
          if (locallock)
            put_locked_ptr(*lock, s);
          else
            put_cpu_ptr(s);
        }));
        k.Spawn(Proc("cyclictest", 99, 1000000, [] { model_point("wakeup"); }));
      }};
  ScenarioOutcome out = RunScenario(sc, exec, 1);
  EXPECT_TRUE(out.ok()) << out.report.ToString();
  if (end_ns) *end_ns = out.run.end_ns;
  if (trace) *trace = exec.trace();
  return exec.stats(1).max_wakeup_latency_ns;
}

TEST(Simulate, PreemptDisabledSectionDelaysAHigherPriorityTask) {
  uint64_t percpu = CyclicLatency(false);
  uint64_t locallock = CyclicLatency(true);
  std::printf("cyclictest latency: percpu %.1f us, local_lock %.1f us\n",
              percpu / 1e3, locallock / 1e3);
  // The section started at ~2 us and lasts 8 ms: the waiter waits ~7 ms.
  EXPECT_GT(percpu, 7000000u);
  EXPECT_LT(percpu, 8000000u);
  // Preemptible: at most one 100 us chunk and a point.
  EXPECT_LE(locallock, 100000u + 50);
}

// PREEMPT_RT: a charge of a preemptible task (here one 8 ms inflate charge
// under kmap_atomic, which on RT only disables migration) is cut where a
// task of higher priority wakes; under preempt_disable it is not.
uint64_t OneLongCharge(bool preempt_off, uint64_t slice_ns) {
  KernelConfig config;
  config.ncpus = 1;
  config.preempt_rt = true;
  CostModel cost;
  cost.preemptible_charge_slice_ns = slice_ns;
  SimulateExecutor exec(cost);
  Scenario sc{
      "rt_charge", config, [preempt_off](Kernel& k) {
        k.Spawn(Proc("reader", 0, 0, [preempt_off] {
          if (preempt_off) preempt_disable();
          Work(1, 8000000);
          if (preempt_off) preempt_enable();
        }));
        k.Spawn(Proc("cyclictest", 99, 1000000, [] { model_point("wakeup"); }));
      }};
  ScenarioOutcome out = RunScenario(sc, exec, 1);
  EXPECT_TRUE(out.ok()) << out.report.ToString();
  return exec.stats(1).max_wakeup_latency_ns;
}

TEST(Simulate, PreemptibleChargesAreCutOnPreemptRt) {
  // Without slicing the waker waits for the whole charge (~7 ms).
  EXPECT_GT(OneLongCharge(false, 0), 6900000u);
  // Sliced: at most one slice.
  EXPECT_LE(OneLongCharge(false, 1000), 1000u);
  // preempt_disable keeps the charge whole whatever the slice.
  EXPECT_GT(OneLongCharge(true, 1000), 6900000u);
}

TEST(Simulate, InterruptsPreemptNonPreemptibleSections) {
  KernelConfig config;
  config.ncpus = 1;
  SimulateExecutor exec;
  Scenario sc{
      "irq", config, [](Kernel& k) {
        k.Spawn(Proc("reader", 0, 0, [] {
          preempt_disable();
          Work(50, 100000);
          preempt_enable();
        }));
        k.Spawn(TaskSpec{"irq/mmc", TaskContext::kInterrupt, 0, 100, 1000000,
                         [] { model_charge(CostKind::kIrqEntry, 1); }});
      }};
  ScenarioOutcome out = RunScenario(sc, exec, 1);
  ASSERT_TRUE(out.ok()) << out.report.ToString();
  EXPECT_LE(exec.stats(1).max_wakeup_latency_ns, 100000u + 50);
}

TEST(Simulate, IsDeterministic) {
  uint64_t end1 = 0, end2 = 0;
  ScheduleTrace t1, t2;
  uint64_t l1 = CyclicLatency(true, &end1, &t1);
  uint64_t l2 = CyclicLatency(true, &end2, &t2);
  EXPECT_EQ(l1, l2);
  EXPECT_EQ(end1, end2);
  EXPECT_TRUE(t1 == t2);
  EXPECT_GT(t1.events.size(), 80u);
}

// A synchronous block read: the reader sleeps in wait_on_buffer for the
// device's latency; the completion runs as an interrupt on CPU 0.
uint64_t SyncReadTime(uint64_t latency_ns) {
  RamDisk disk(std::vector<unsigned char>(8192, 7));
  disk.set_latency_ns(latency_ns);
  SimulateExecutor exec;
  Scenario sc{"sync_read", {}, [&disk](Kernel& k) {
                auto* sb = k.New<super_block>();
                sb->s_bdev = disk.bdev();
                k.Spawn(Proc("dd", 0, 0, [sb] {
                  buffer_head* bh = sb_bread(sb, 3);
                  BUG_ON(bh == nullptr || bh->b_data[0] != 7);
                  brelse(bh);
                }));
              }};
  ScenarioOutcome out = RunScenario(sc, exec, 1);
  EXPECT_TRUE(out.ok()) << out.report.ToString();
  return out.run.end_ns;
}

TEST(Simulate, DeviceLatencyIsVirtualTime) {
  uint64_t fast = SyncReadTime(0);
  uint64_t slow = SyncReadTime(1000000);
  // The latency, plus the reader's switch back in after sleeping through it
  // (with no latency the interrupt overlaps the reader on the other CPU).
  EXPECT_GE(slow - fast, 1000000u);
  EXPECT_LE(slow - fast, 1000000u + CostModel().context_switch_ns);
  EXPECT_EQ(SyncReadTime(1000000), slow);
}

TEST(Simulate, SleepingInAPercpuSectionIsReported) {
  KernelConfig config;
  config.ncpus = 1;
  SimulateExecutor exec;
  Scenario sc{"percpu_sleep", config, [](Kernel& k) {
                auto* streams = k.New<percpu<Stream>>();
                streams->slots.resize(1);
                k.Spawn(Proc("reader", 0, 0, [=] {
                  Stream* s = get_cpu_ptr(streams);
                  might_sleep();
                  put_cpu_ptr(s);
                }));
              }};
  ScenarioOutcome out = RunScenario(sc, exec, 1);
  // might_sleep's report (a debug kernel): the code can sleep here.
  EXPECT_EQ(out.report.kind, ReportKind::kSleepInvalidContext)
      << out.report.ToString();
}

}  // namespace
}  // namespace squashlab
