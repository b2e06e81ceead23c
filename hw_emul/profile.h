// SPDX-License-Identifier: GPL-2.0-only
// This file implements DeviceProfile: the timing of a real storage part as
// data (command overhead, bandwidth, seek and rotation, request size limit,
// queue depth), every number with its source, and DeviceTimeline, the pure
// arithmetic that turns a request stream into service start and end times.
#ifndef SQUASHLAB_HW_EMUL_PROFILE_H_
#define SQUASHLAB_HW_EMUL_PROFILE_H_

#include <cstdint>
#include <string_view>
#include <vector>

namespace squashlab {

// A profile number and where it comes from (a seed line, a derivation, a
// datasheet, or "assumption").
struct Sourced {
  uint64_t value = 0;
  const char* source = "";
};

struct DeviceProfile {
  const char* name = "";
  const char* summary = "";
  Sourced command_overhead_ns;  // per command: protocol, controller, FTL lookup
  Sourced bandwidth_bytes_per_s;  // data transfer once the command runs
  Sourced seek_ns;                // average seek, for a non-sequential request
  Sourced rotation_ns;            // average rotational latency (half a turn)
  Sourced max_request_bytes;      // merge limit of the block-layer queue
  Sourced command_bytes;          // most bytes one device command moves
  Sourced queue_depth;  // requests the host controller keeps in flight
  Sourced channels;     // commands whose access latency overlaps
  Sourced nr_requests;  // block-layer queue size (congestion at 7/8)
};

// All profiles: emmc-hs200, kvm-hdb, usb-stick, qspi-flash, nvme.
const std::vector<DeviceProfile>& AllProfiles();
// The profile named `name`, or nullptr.
const DeviceProfile* FindProfile(std::string_view name);

// Commands needed for `bytes` (command_bytes each; at least one).
uint64_t CommandCount(const DeviceProfile& p, uint64_t bytes);
// ceil(bytes * 1e9 / bandwidth).
uint64_t TransferNs(const DeviceProfile& p, uint64_t bytes);
// Seek + rotation when not sequential, plus one overhead per command.
uint64_t AccessNs(const DeviceProfile& p, uint64_t bytes, bool sequential);
// The whole service time of one request on an idle device.
inline uint64_t ServiceNs(const DeviceProfile& p, uint64_t bytes,
                          bool sequential) {
  return AccessNs(p, bytes, sequential) + TransferNs(p, bytes);
}

// When the device services each request. A request occupies one of
// `channels` command slots from its start to its end; its access phase
// (seek, rotation, command overhead) runs in that slot, then its transfer
// runs on the one data link, after any earlier transfer. With one channel
// (eMMC, a disk, SPI flash) requests run strictly one after another; with
// several (NVMe) access latencies overlap and transfers serialise.
// Not thread-safe: the device calls it under its lock.
class DeviceTimeline {
 public:
  explicit DeviceTimeline(const DeviceProfile& profile);

  struct Slot {
    uint64_t start_ns = 0;  // the command starts
    uint64_t end_ns = 0;    // the transfer ends: the completion interrupt
    bool sequential = false;
  };
  // Schedules a request issued at `now_ns` for [sector, sector + bytes/512).
  Slot Schedule(uint64_t now_ns, uint64_t sector, uint64_t bytes);
  // Holds every channel and the data link for `ns` from `now_ns` or from
  // when the work already scheduled ends: the device busy with something
  // that is not a request of this queue. Later requests start after it.
  Slot Reserve(uint64_t now_ns, uint64_t ns);
  // Total ns some command was being serviced (union of busy intervals).
  uint64_t busy_ns() const { return busy_ns_; }
  void Reset();

 private:
  const DeviceProfile& p_;
  std::vector<uint64_t> channel_free_;
  uint64_t link_free_ = 0;
  uint64_t next_sector_ = UINT64_MAX;  // where the previous request ended
  uint64_t busy_until_ = 0;
  uint64_t busy_ns_ = 0;
};

}  // namespace squashlab

#endif  // SQUASHLAB_HW_EMUL_PROFILE_H_
