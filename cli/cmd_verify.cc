// This file implements `squashlab verify`: the model's exploration of every
// read-path variant x decompressor strategy over scenarios of a real image,
// printing a verdict table and, for each failure, the kernel-style report,
// the minimised schedule and the replay token.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "harness/verify.h"

namespace squashlab::cli {

namespace {

constexpr const char* kVerifyUsage =
    "usage: squashlab verify [--variant V]... [--decomp D]... [--workload W]...\n"
    "                        [--image IMG] [--strategy pct|random|exhaustive]\n"
    "                        [--budget N | --time S] [--faults eio|reada|bitflip|PLAN]\n"
    "                        [--device PROFILE[,bs=N]] [--kernel debug|prod]...\n"
    "                        [--seed N] [--preemption-bound N] [--no-por] [--classes] [--json FILE]\n"
    "  --budget N   schedules per variant x decompressor (default: by time)\n"
    "  --time S     seconds for the whole job (default 40)\n"
    "  --classes    keep exploring after a violation; report every class found\n"
    "               (on both kernels unless --kernel is given)\n"
    "  --kernel K   debug (KASAN, poisoning, DEBUG_VM; the default) or prod\n"
    "               (a production slab: freed objects reused, consequences play out)\n"
    "  --device P   run on an hw_emul device (emmc-hs200, kvm-hdb, usb-stick,\n"
    "               qspi-flash, nvme; bs=512|1024|4096) instead of the RAM disk;\n"
    "               --faults may then be any hw_emul fault plan (see hw_emul/README.md)\n"
    "  --no-por     exhaustive: the full search (no partial-order reduction, one\n"
    "               pass at the bound instead of bound 0, 1, ... in turn)\n";

}  // namespace

int RunVerifyCommand(const std::vector<std::string>& args) {
  using squashlab::VerifyOptions;
  VerifyOptions opt;
  std::string json;
  for (size_t i = 0; i < args.size(); i++) {
    const std::string& a = args[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= args.size()) return false;
      *out = args[++i];
      return true;
    };
    std::string v;
    if (a == "--variant" && value(&v)) opt.variants.push_back(v);
    else if (a == "--decomp" && value(&v)) opt.decomps.push_back(v);
    else if (a == "--workload" && value(&v)) opt.workloads.push_back(v);
    else if (a == "--image" && value(&v)) opt.image = v;
    else if (a == "--strategy" && value(&v)) opt.strategy = v;
    else if (a == "--budget" && value(&v)) opt.budget = std::atol(v.c_str());
    else if (a == "--time" && value(&v)) opt.seconds = std::atof(v.c_str());
    else if (a == "--faults" && value(&v)) opt.faults = v;
    else if (a == "--device" && value(&v)) opt.device = v;
    else if (a == "--kernel" && value(&v)) opt.kernels.push_back(v);
    else if (a == "--preemption-bound" && value(&v)) opt.preemption_bound = std::atoi(v.c_str());
    else if (a == "--seed" && value(&v)) opt.seed = std::strtoull(v.c_str(), nullptr, 10);
    else if (a == "--json" && value(&v)) json = v;
    else if (a == "--classes") opt.all_classes = true;
    else if (a == "--no-minimise") opt.minimise = false;
    else if (a == "--no-por") opt.por = opt.iterative = false;
    else {
      std::cerr << "squashlab verify: bad argument '" << a << "'\n" << kVerifyUsage;
      return 2;
    }
  }
  auto res = squashlab::RunVerify(opt, &std::cerr);
  if (!res.ok()) {
    std::cerr << "squashlab verify: " << res.status().ToString() << "\n" << kVerifyUsage;
    return 2;
  }
  std::cout << squashlab::FormatTable(res.value()) << "\n" << squashlab::FormatFailures(res.value());
  if (!json.empty()) {
    std::ofstream out(json);
    out << squashlab::ToJson(res.value(), opt);
    if (!out) {
      std::cerr << "squashlab verify: cannot write " << json << "\n";
      return 4;
    }
  }
  return 0;
}

}  // namespace squashlab::cli
