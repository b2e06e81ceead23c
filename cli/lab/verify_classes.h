// SPDX-License-Identifier: GPL-2.0-only
// This file declares one view of what a verify cell found: its distinct
// failure classes (kind and title), each with the kernel it was found on,
// when it was first found, its replay tokens and its root cause, whether
// the job collected every class or stopped at the first.
#ifndef SQUASHLAB_CLI_LAB_VERIFY_CLASSES_H_
#define SQUASHLAB_CLI_LAB_VERIFY_CLASSES_H_

#include <string>
#include <vector>

#include "harness/verify/verify.h"

namespace squashlab::cli {

struct FoundClass {
  std::string kind;         // ReportKindName
  std::string title;        // the kernel-style first line
  std::string kernel;       // "debug" or "prod"
  std::string scenario;     // the scenario's name
  long first_schedule = 0;  // schedules explored up to and including it
  double seconds_to_first = 0;
  std::string token;                 // replays the run as found
  std::string minimised_token;       // replays the minimised run
  const RunResult* found = nullptr;  // points into the CellResult
  const RunResult* minimised = nullptr;
  RootCause root;  // harness/root_cause.h
};

// The cell's classes in the order found; empty when the cell is clean.
std::vector<FoundClass> FoundClasses(const CellResult& cell);

// The key a class is shown under: its kind and title, except that a hang
// is one class whichever task hung.
std::string ClassKey(const FoundClass& c);

// The cell's classes, one for each key, in the order found.
std::vector<FoundClass> DistinctClasses(const CellResult& cell);

// The minimised run's schedule up to its report, as an ftrace listing.
std::string MinimisedListing(const FoundClass& c);

}  // namespace squashlab::cli

#endif  // SQUASHLAB_CLI_LAB_VERIFY_CLASSES_H_
