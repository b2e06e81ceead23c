// SPDX-License-Identifier: GPL-2.0-only
// This file implements the generator of bench/sim/README.md's fidelity
// table: it runs `squashlab bench fidelity` (the same code, the committed
// constants) and replaces the block between the README's two markers.
// `bazel run //bench/sim:fidelity_md` rewrites the README of the workspace;
// with a path argument it rewrites that file; `-` prints the block.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "bench/sim/bench.h"
#include "bench/sim/fidelity.h"
#include "bench/sim/fidelity_md.h"

int main(int argc, char** argv) {
  using namespace squashlab;
  std::string path = argc > 1 ? argv[1] : "";
  if (path.empty()) {
    const char* ws = std::getenv("BUILD_WORKSPACE_DIRECTORY");
    if (ws == nullptr) {
      std::cerr << "usage: fidelity_md [README.md | -] (or bazel run)\n";
      return 2;
    }
    path = std::string(ws) + "/bench/sim/README.md";
  }
  BenchOptions opt;
  opt.scenario = "fidelity";
  opt.jobs = 2;
  auto res = RunBench(opt, &std::cerr);
  if (!res.ok()) {
    std::cerr << res.status().ToString() << "\n";
    return 1;
  }
  std::string block = FidelityMarkdown(*res);
  if (path == "-") {
    std::cout << block;
    return 0;
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  auto out = ReplaceFidelityBlock(text.str(), block);
  if (!out) {
    std::cerr << path << ": no fidelity markers\n";
    return 1;
  }
  std::ofstream(path) << *out;
  std::cerr << "wrote " << path << "\n";
  return 0;
}
