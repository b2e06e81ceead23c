// SPDX-License-Identifier: GPL-2.0-only
// This file declares the root cause of a failure class: what a debug kernel
// reports first on the class's minimised schedule. When that first report
// is KASAN's and names a freed object, the cause is the object's allocation
// and free sites (mm/kasan/report.c prints them: "Allocated by task ...",
// "Freed by task ..."); otherwise it is that first invalid access itself.
// Classes with one cause are one mistake seen from several places: a
// use-after-free in the decompressor, a paging request and a NULL pointer
// dereference in the page actor, all of one object freed too early.
#ifndef SQUASHLAB_HARNESS_ROOT_CAUSE_H_
#define SQUASHLAB_HARNESS_ROOT_CAUSE_H_

#include <string>

#include "model/base/report.h"

namespace squashlab {

class Explorer;
struct RunResult;
struct Scenario;

struct RootCause {
  // Classes with equal keys share the cause.
  std::string key;
  // The first report on the debug kernel: the first invalid access.
  std::string first_kind;  // ReportKindName
  std::string first_title;
  // The freed object's sites, when KASAN names one ("" otherwise).
  std::string alloc_site, free_site;
  // The class was found on a production kernel and its schedule was
  // replayed on the debug one to find the first invalid access.
  bool replayed_on_debug = false;

  // One line: "an object allocated in A and freed in B, then used" or the
  // first access's title.
  std::string Describe() const;
};

// The cause a debug kernel's report stands for: the object it names as
// freed, else the report itself.
RootCause RootCauseOf(const Report& r);

// The root cause of the class whose minimised run is `minimised`, found on
// `sc`: the minimised run's first report when `sc` is a debug kernel, else
// that of its schedule replayed on the debug kernel (the two kernels differ
// only in what a freed object holds, so the schedule is the same up to the
// first invalid access). A replay that reports nothing leaves the class
// its own cause.
RootCause FindRootCause(Explorer& e, const Scenario& sc,
                        const RunResult& minimised);

}  // namespace squashlab

#endif  // SQUASHLAB_HARNESS_ROOT_CAUSE_H_
