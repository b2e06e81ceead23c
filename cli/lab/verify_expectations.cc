// SPDX-License-Identifier: GPL-2.0-only
// This file implements verify's expectations and their check.
#include "cli/lab/verify_expectations.h"

#include "harness/verify/verify.h"

namespace squashlab::cli {

std::string ParseExpectation(const std::string& text, Expectations* out) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    return "'" + text + "': expected VARIANT=clean or VARIANT=fail";
  const std::string variant = text.substr(0, eq), verdict = text.substr(eq + 1);
  if (verdict != "clean" && verdict != "fail")
    return "'" + text + "': the verdict is clean or fail, not '" + verdict +
           "'";
  (*out)[variant] = verdict == "fail";
  return "";
}

Expectations DefaultExpectations(const std::vector<std::string>& variants) {
  Expectations e = AllClean(variants);
  e["async-2013"] = true;
  return e;
}

Expectations AllClean(const std::vector<std::string>& variants) {
  Expectations e;
  for (const auto& v : variants) e[v] = false;
  return e;
}

std::vector<std::string> UnmetExpectations(const VerifyResult& r,
                                           const Expectations& e) {
  std::vector<std::string> unmet;
  for (const CellResult& c : r.cells) {
    auto it = e.find(c.variant);
    const bool expect_fail = it != e.end() && it->second;
    if (c.found == expect_fail) continue;
    unmet.push_back(
        c.variant + " x " + c.decomp + ": expected " +
        (expect_fail ? "a violation, found none" : "clean, found a violation"));
  }
  return unmet;
}

}  // namespace squashlab::cli
