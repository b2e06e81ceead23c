// SPDX-License-Identifier: GPL-2.0-only
// This file declares verify's JSON output (its shape is
// docs/schema/verify.schema.json): the options, the expectations, and per
// cell its counts and every failure class with its replay tokens.
#ifndef SQUASHLAB_CLI_LAB_VERIFY_JSON_H_
#define SQUASHLAB_CLI_LAB_VERIFY_JSON_H_

#include <string>

#include "cli/lab/verify_expectations.h"
#include "reader/status.h"

namespace squashlab {
struct VerifyOptions;
struct VerifyResult;
}  // namespace squashlab

namespace squashlab::cli {

std::string VerifyJson(const VerifyResult& r, const VerifyOptions& opt,
                       const Expectations& expected);

Status WriteVerifyJson(const std::string& path, const VerifyResult& r,
                       const VerifyOptions& opt, const Expectations& expected);

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_LAB_VERIFY_JSON_H_
