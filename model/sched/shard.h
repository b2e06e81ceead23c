// SPDX-License-Identifier: GPL-2.0-only
// This file implements Shard: Bazel's test sharding protocol
// (TEST_TOTAL_SHARDS, TEST_SHARD_INDEX, TEST_SHARD_STATUS_FILE), used to
// split the runs (seeds) of an exploration across shards.
#ifndef SQUASHLAB_MODEL_SCHED_SHARD_H_
#define SQUASHLAB_MODEL_SCHED_SHARD_H_

namespace squashlab {

struct Shard {
  int index = 0;
  int total = 1;
  bool Owns(long run) const { return run % total == index; }
};

// Reads the environment and, when sharding is on, touches the status file
// to tell Bazel this test supports sharding.
Shard ShardFromEnv();

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_SHARD_H_
