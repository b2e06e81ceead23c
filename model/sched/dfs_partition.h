// SPDX-License-Identifier: GPL-2.0-only
// This file implements DfsPartition: how a depth-first search of schedules
// is split into disjoint parts. The search tree is cut at a depth (a number
// of choice points): every node at that depth roots a subtree, and every
// run that ends above it (a leaf of the top of the tree) is a subtree of
// its own. Subtrees are numbered in depth-first order, the order one
// process meets them in, and subtree k belongs to part k mod total, or to
// the part a planned assignment names (`owners`: every process computes the
// same one, see partition_plan.h) — or,
// with a claim function (parts in one process), to the first part that
// claims it when it gets there, so that a part busy in a large subtree
// leaves the next ones to the others. Every part walks the top of the tree (one
// short run per subtree it does not own) and searches only its own subtrees
// below the cut, so the parts together run exactly the runs of the whole
// search, each once.
#ifndef SQUASHLAB_MODEL_SCHED_DFS_PARTITION_H_
#define SQUASHLAB_MODEL_SCHED_DFS_PARTITION_H_

#include <functional>
#include <memory>
#include <vector>

namespace squashlab {

// Subtrees planned per part: enough that a few large subtrees do not leave
// the other parts idle.
constexpr long kSubtreesPerPart = 8;

struct DfsPartition {
  int cut = -1;  // the depth of the cut; negative: no partition
  int total = 1;
  int index = 0;  // negative: own no subtree (planning the cut)
  // Subtrees to leave out although owned (finished before a resume).
  std::function<bool(long subtree)> done;
  // If set: true for the first part to ask for a subtree, false after.
  std::function<bool(long subtree)> claim;
  // If set: the part of each subtree (beyond its end: k mod total).
  std::shared_ptr<const std::vector<int>> owners;
  bool active() const { return cut >= 0; }
  // Asked once per subtree, when the part gets to it.
  bool Owns(long subtree) const {
    if (index < 0 || (done && done(subtree))) return false;
    return claim ? claim(subtree) : PlannedPart(subtree) == index;
  }
  // The part a subtree is planned for (without claims).
  int PlannedPart(long subtree) const {
    if (owners && subtree < static_cast<long>(owners->size()))
      return (*owners)[static_cast<size_t>(subtree)];
    return static_cast<int>(subtree % total);
  }
};

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_SCHED_DFS_PARTITION_H_
