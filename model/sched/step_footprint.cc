// SPDX-License-Identifier: GPL-2.0-only
// This file implements StepFootprint and the conflict relation between
// two steps' footprints.
#include "model/sched/step_footprint.h"

namespace squashlab {

void StepFootprint::Add(Class c, uint64_t identity, uint8_t f, uint8_t w,
                        uint8_t r, bool counted, bool zero_all) {
  if (c == 0) return;
  if (n == 3) {
    all = true;
    return;
  }
  cls[n] = c;
  fields[n] = f | w;
  writes[n] = w;
  // The whole object includes its reference count.
  if (r == kNoRef && w == kAllFields) r = kRefRead;
  ref[n] = counted ? r : static_cast<uint8_t>(kNoRef);
  zero_is_all[n] = zero_all;
  id[n++] = identity;
}

void StepFootprint::AddWaits(const StepInfo& step) {
  for (const void* q : step.waited) {
    if (nwaited == 2)
      many_queues = true;
    else
      waited[nwaited++] = q;
  }
  for (const void* q : step.woke) {
    if (nwoke == 2)
      many_queues = true;
    else
      woke[nwoke++] = q;
  }
}

namespace {

// Whether a step that slept on `waited` and one that woke `woke` meet.
bool Meet(const StepFootprint& sleeper, const StepFootprint& waker) {
  if (sleeper.nwaited == 0 || waker.nwoke == 0) return false;
  if (sleeper.many_queues || waker.many_queues) return true;
  for (int i = 0; i < sleeper.nwaited; i++)
    for (int j = 0; j < waker.nwoke; j++)
      if (sleeper.waited[i] == waker.woke[j]) return true;
  return false;
}

bool SameObject(const StepFootprint& a, int i, const StepFootprint& b, int j) {
  if (a.id[i] == b.id[j]) return true;
  return (a.zero_is_all[i] || b.zero_is_all[j]) &&
         (a.id[i] == 0 || b.id[j] == 0);
}

}  // namespace

bool Conflict(const StepFootprint& a, const StepFootprint& b) {
  if (a.all || b.all) return true;
  for (int i = 0; i < a.n; i++)
    for (int j = 0; j < b.n; j++)
      if (a.cls[i] == b.cls[j] && SameObject(a, i, b, j) &&
          (((a.writes[i] & b.fields[j]) | (b.writes[j] & a.fields[i])) != 0 ||
           (a.ref[i] != StepFootprint::kNoRef &&
            b.ref[j] != StepFootprint::kNoRef && a.ref[i] != b.ref[j])))
        return true;
  return Meet(a, b) || Meet(b, a);
}

}  // namespace squashlab
