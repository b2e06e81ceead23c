// SPDX-License-Identifier: GPL-2.0-only
// This file implements the main() of the property tests: googletest's, plus
// one knob for long runs. SQUASHLAB_PROP_SCALE=N multiplies the number of
// cases of every property in the binary (RC_PARAMS's max_success, whether it
// comes from the target's BUILD `env` or from the caller), so that
//   bazel test --test_env=SQUASHLAB_PROP_SCALE=10 //proptests/...
// runs each property ten times longer without editing any budget. The rest
// of RC_PARAMS (seed=, reproduce=, max_size=) is kept as it was.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <string>

namespace {

// "max_success=1000 seed=3" scaled by 10 -> "max_success=10000 seed=3".
std::string ScaledParams(std::string params, long scale) {
  const std::string key = "max_success=";
  size_t at = params.find(key);
  if (at == std::string::npos) {
    // RapidCheck's default budget is 100 cases.
    return params + (params.empty() ? "" : " ") + key +
           std::to_string(100 * scale);
  }
  size_t begin = at + key.size();
  size_t end = params.find_first_of(" \t", begin);
  if (end == std::string::npos) end = params.size();
  long cases =
      std::strtol(params.substr(begin, end - begin).c_str(), nullptr, 10);
  return params.substr(0, begin) + std::to_string(cases * scale) +
         params.substr(end);
}

}  // namespace

int main(int argc, char** argv) {
  // RapidCheck reads RC_PARAMS once, on the first property that runs: the
  // rewrite must happen before any test starts.
  if (const char* s = getenv("SQUASHLAB_PROP_SCALE")) {
    long scale = std::strtol(s, nullptr, 10);
    if (scale > 1) {
      const char* rc = getenv("RC_PARAMS");
      std::string params = ScaledParams(rc ? rc : "", scale);
      setenv("RC_PARAMS", params.c_str(), 1);
      std::fprintf(stderr,
                   "squashlab: SQUASHLAB_PROP_SCALE=%ld: RC_PARAMS=\"%s\"\n",
                   scale, params.c_str());
    }
  }
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
