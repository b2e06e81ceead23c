// SPDX-License-Identifier: GPL-2.0-only
// This file implements AllocationMeter: the largest single allocation made
// through operator new while a meter is armed, so a test can assert that no
// untrusted count sized an allocation. Linking allocation_meter.cc replaces
// the global operator new/delete of the test binary.
#ifndef SQUASHLAB_PROPTESTS_ALLOCATION_METER_H_
#define SQUASHLAB_PROPTESTS_ALLOCATION_METER_H_

#include <cstddef>

namespace squashlab::proptests {

class AllocationMeter {
 public:
  AllocationMeter();   // arms the meter and resets the maximum
  ~AllocationMeter();  // disarms it
  static size_t largest();
};

}  // namespace squashlab::proptests

#endif  // SQUASHLAB_PROPTESTS_ALLOCATION_METER_H_
