// SPDX-License-Identifier: GPL-2.0-only
// This file implements the loading of a user's tree.
#include "harness/source_tree.h"

#include "harness/linux_mount.h"
#include "harness/scenario_spec.h"
#include "model/linux/source_build.h"
#include "model/sched/replay_token.h"

namespace squashlab {

StatusOr<LoadedSourceTree> LoadSourceTree(const std::string& dir,
                                          std::ostream* log, bool kcsan) {
  auto tree = BuildSourceTree(dir, log, kcsan);
  if (!tree.ok()) return tree.status();
  RegisterSourceTree(*tree);
  return LoadedSourceTree{tree->dir, tree->cached, tree->by_mount};
}

bool TokenIsKcsan(const std::string& token) {
  auto t = ReplayToken::Parse(token);
  if (!t.ok()) return false;
  auto spec = ScenarioSpec::Parse(t->scenario);
  return spec.ok() &&
         ("+" + spec->kernel + "+").find("+kcsan+") != std::string::npos;
}

}  // namespace squashlab
