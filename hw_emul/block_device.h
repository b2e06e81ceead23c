// SPDX-License-Identifier: GPL-2.0-only
// This file implements BlockDevice: an emulated block device with a real
// part's timing. Bios are submitted from process context (through a task's
// plug or straight into the request queue, where adjacent bios merge); a
// host-controller task (the mmcqd of the 2013 thread) fetches requests, keeps
// up to the profile's queue depth in flight and counts its fetch and idle
// iterations as the seed did; each request completes from its own
// interrupt-context task at the time the profile gives, with the faults of
// the run's FaultPlan. The same code runs under explore (completions are
// tasks to schedule), simulate (virtual time) and threads (scaled real
// delays).
#ifndef SQUASHLAB_HW_EMUL_BLOCK_DEVICE_H_
#define SQUASHLAB_HW_EMUL_BLOCK_DEVICE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "hw_emul/fault_plan.h"
#include "hw_emul/profile.h"
#include "hw_emul/request_queue.h"
#include "model/kernel/block_device.h"
#include "reader/status.h"

namespace squashlab {

class ImageBytes;
struct Task;

struct DeviceOptions {
  std::string profile = "emmc-hs200";  // a name from AllProfiles()
  unsigned block_size = 1024;          // 512, 1024 or 4096: logical_block_size
  FaultPlan faults;
  std::string name = "mmcblk0";
  int irq_cpu = 0;    // the CPU completion interrupts run on
  int host_prio = 1;  // the host task's priority (simulate): above readers,
                      // standing in for CFS wakeup preemption
  bool record_log = false;  // keep a RequestRecord per request
  // A plug still holding bios is flushed by a "kblockd" task after this
  // long (0: never, the default). A task that sleeps flushes its own plug
  // (Kernel::Sleep), as schedule() does, so this is only the pre-2.6.39
  // block layer's unplug_delay (3 ms) for experiments that want it.
  uint64_t unplug_timeout_ns = 0;
};

// Options from command-line / replay-token strings: kInvalidArgument for an
// unknown profile, a bad fault plan or a block size not in {512, 1024, 4096}.
StatusOr<DeviceOptions> MakeDeviceOptions(const std::string& profile,
                                          const std::string& faults,
                                          unsigned block_size = 1024);

struct DeviceCounters {
  uint64_t bios_submitted = 0;
  uint64_t bios_completed = 0;     // bio_endio called (exactly once per bio)
  uint64_t bios_failed = 0;        // completed with an error
  uint64_t bios_plugged = 0;       // held in a plug before reaching the queue
  uint64_t unplug_timer_bios = 0;  // of which the unplug timer flushed
  uint64_t bios_rejected = 0;      // writes, misaligned, beyond the end
  uint64_t requests = 0;           // requests dispatched to the hardware
  uint64_t reada_requests = 0;     // of which every bio was READA
  uint64_t sync_requests = 0;      // of which some bio carried REQ_SYNC
  uint64_t commands = 0;  // device commands (requests split by command_bytes)
  uint64_t merges = 0;    // bios merged into a queued request
  uint64_t back_merges = 0;
  uint64_t front_merges = 0;
  uint64_t request_merges = 0;   // requests a merge joined to their neighbour
  uint64_t bytes = 0;            // bytes delivered into bios without error
  uint64_t bytes_requested = 0;  // bytes of all submitted bios
  uint64_t fetch = 0;            // host loop iterations with work (seed 000)
  uint64_t idle = 0;             // host loop iterations that found none
  uint64_t busy_ns = 0;          // device time spent servicing requests
  uint64_t max_queued = 0;       // longest the queue got
  std::vector<uint64_t> depth_hist;  // [d]: dispatches that left d in flight
  // Faults injected.
  uint64_t eio = 0;
  uint64_t reada_dropped = 0;
  uint64_t flips = 0;
  uint64_t short_requests = 0;
  uint64_t delayed = 0;
  uint64_t reordered = 0;
};

// One dispatched request, when DeviceOptions::record_log is set.
struct RequestRecord {
  uint64_t seq = 0;
  uint64_t sector = 0;
  uint64_t bytes = 0;
  size_t nbios = 0;
  bool reada = false;
  bool sequential = false;
  uint64_t queued_ns = 0;
  uint64_t dispatch_ns = 0;  // the host fetched it
  uint64_t start_ns = 0;     // the command started
  uint64_t end_ns = 0;       // the transfer ended
  uint64_t irq_ns = 0;       // the completion interrupt is raised
};

// A bit flip the device injected: the oracle may see these bytes differ.
struct FlipRecord {
  uint64_t byte = 0;  // offset on the device
  int bit = 0;
};

class BlockDevice : public BlockDriver {
 public:
  // REQUIRES: a known profile, block_size in {512, 1024, 4096}.
  BlockDevice(std::shared_ptr<const ImageBytes> image, DeviceOptions options);
  ~BlockDevice() override;
  BlockDevice(const BlockDevice&) = delete;
  BlockDevice& operator=(const BlockDevice&) = delete;

  block_device* bdev() { return &bdev_; }
  const DeviceProfile& profile() const { return *profile_; }
  const DeviceOptions& options() const { return opt_; }
  // Capacity in 512-byte sectors: the image rounded up to whole blocks.
  uint64_t capacity_sectors() const { return capacity_sectors_; }

  // BlockDriver: in process context. Each bio completes exactly once, by
  // bio_endio from an interrupt-context task.
  void submit(bio* b) override;
  // Queues `bios` together (a flushed plug) and wakes the host once.
  void SubmitBatch(const std::vector<bio*>& bios);
  void submit_batch(const std::vector<bio*>& bios) override {
    SubmitBatch(bios);
  }

  // The device busy for `ns` with work that is not one of its queue's
  // requests, after the requests it has started (DeviceTimeline::Reserve);
  // returns when that ends on the run's clock. Requests dispatched later
  // wait for it. Thread-safe.
  uint64_t Occupy(uint64_t now_ns, uint64_t ns);
  // Snapshots; thread-safe.
  DeviceCounters counters() const;
  std::vector<RequestRecord> log() const;
  std::vector<FlipRecord> flips() const;
  // Forgets the queue, counters, log and device time. REQUIRES: no run in
  // progress (call between runs when the device outlives a Kernel).
  void Reset();

 private:
  struct InFlight {
    uint64_t seq;
    uint64_t start_ns;
    uint64_t end_ns;
  };
  struct Completion;

  bool Reject(bio* b) const;
  void CompleteNow(std::vector<bio*> bios, int error, const char* why);
  // Under mu_: queues one bio; false when a READA was refused.
  bool QueueLocked(bio* b, uint64_t now);
  void WakeHost();
  void ArmUnplugTimer(Task* owner);
  void HostLoop();
  std::shared_ptr<Completion> DispatchLocked(std::unique_ptr<Request> r,
                                             uint64_t now);
  void Interrupt(const std::shared_ptr<Completion>& c);
  int BioErrorLocked(const bio* b, size_t index, size_t short_bio);
  int CopyIn(bio* b);
  void FlipLocked(bio* b);
  uint64_t Nth(FaultSite site, uint64_t key);
  FaultDraw DrawLocked();

  std::shared_ptr<const ImageBytes> image_;
  DeviceOptions opt_;
  const DeviceProfile* profile_;
  block_device bdev_;
  uint64_t capacity_sectors_ = 0;

  mutable std::mutex mu_;
  RequestQueue queue_;
  DeviceTimeline timeline_;
  std::vector<InFlight> inflight_;
  bool host_running_ = false;
  uint64_t next_seq_ = 0;
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> nth_;
  std::vector<const Task*> unplug_armed_;  // tasks with a timer pending
  DeviceCounters counters_;
  std::vector<RequestRecord> log_;
  std::vector<FlipRecord> flips_;
};

}  // namespace squashlab

#endif  // SQUASHLAB_HW_EMUL_BLOCK_DEVICE_H_
