// SPDX-License-Identifier: GPL-2.0-only
// Tests of WorkQueue: every task runs once on a valid slot, Drain waits for
// all of them, and a full queue makes the producer run tasks itself.
#include "cli/reader/work_queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace squashlab::cli {
namespace {

TEST(WorkQueueTest, EveryTaskRunsOnceBeforeDrainReturns) {
  for (int threads : {1, 2, 4}) {
    WorkQueue q(threads, 8);
    EXPECT_EQ(q.slots(), threads < 1 ? 1 : threads);
    std::atomic<int> sum{0}, bad_slot{0};
    for (int i = 1; i <= 1000; ++i) {
      q.Submit([&, i](int slot) {
        if (slot < 0 || slot >= q.slots()) bad_slot.fetch_add(1);
        sum.fetch_add(i);
      });
    }
    q.Drain();
    EXPECT_EQ(sum.load(), 500500) << threads;
    EXPECT_EQ(bad_slot.load(), 0);
  }
}

TEST(WorkQueueTest, AFullQueueIsWorkedOffByTheProducer) {
  WorkQueue q(2, 1);
  std::atomic<bool> release{false};
  std::atomic<int> on_producer{0};
  // Block the only worker, then fill the queue: the producer must run tasks.
  q.Submit([&](int) {
    while (!release.load())
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  for (int i = 0; i < 10; ++i) {
    q.Submit([&](int slot) { on_producer.fetch_add(slot == 0 ? 1 : 0); });
  }
  EXPECT_GE(on_producer.load(), 8);
  release.store(true);
  q.Drain();
}

}  // namespace
}  // namespace squashlab::cli
