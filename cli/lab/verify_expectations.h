// SPDX-License-Identifier: GPL-2.0-only
// This file declares what a `squashlab verify` run is expected to find, per
// read-path variant ("clean" or "fail"), and the check of a result against
// it: the verify command's exit status is 0 exactly when every expectation
// holds.
#ifndef SQUASHLAB_CLI_LAB_VERIFY_EXPECTATIONS_H_
#define SQUASHLAB_CLI_LAB_VERIFY_EXPECTATIONS_H_

#include <map>
#include <string>
#include <vector>

namespace squashlab {
struct VerifyResult;
}

namespace squashlab::cli {

// variant name -> true when the variant is expected to fail (a violation in
// every one of its cells), false when expected clean (none in any cell).
using Expectations = std::map<std::string, bool>;

// Parses "VARIANT=clean" or "VARIANT=fail" into *out; "" on success, else
// the problem.
std::string ParseExpectation(const std::string& text, Expectations* out);

// The expectations of the default job: the seed's buggy async-2013 read
// path fails, every other variant is clean.
Expectations DefaultExpectations(const std::vector<std::string>& variants);

// Variants a run is expected to fail when none was stated: none, so that
// any violation is a failure of the run.
Expectations AllClean(const std::vector<std::string>& variants);

// One line per cell whose verdict differs from its expectation (cells of
// variants without one are expected clean); empty when all hold.
std::vector<std::string> UnmetExpectations(const VerifyResult& r,
                                           const Expectations& e);

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_LAB_VERIFY_EXPECTATIONS_H_
