// SPDX-License-Identifier: GPL-2.0-only
// This file implements BlockDevice. One mutex guards the queue, the device
// timeline and the counters; it is never held across a scheduling point,
// a Delay, a Spawn or a bio_endio, so explore and simulate (fibers on one
// thread) never switch with it held and threads never deadlock on it.
#include "hw_emul/block_device.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "hw_emul/bio_flags.h"
#include "model/kernel/bio.h"
#include "model/kernel/blk_plug.h"
#include "model/kernel/kernel.h"
#include "reader/image_bytes.h"

namespace squashlab {

struct BlockDevice::Completion {
  std::unique_ptr<Request> req;
  uint64_t start_ns = 0;  // the command started
  uint64_t irq_ns = 0;
  size_t short_bio = SIZE_MAX;  // bios from this index on are not transferred
};

namespace {

const DeviceProfile& ProfileOrDie(const std::string& name) {
  const DeviceProfile* p = FindProfile(name);
  if (p == nullptr) {
    std::fprintf(stderr, "hw_emul: unknown device profile '%s'\n",
                 name.c_str());
    std::abort();
  }
  return *p;
}

}  // namespace

StatusOr<DeviceOptions> MakeDeviceOptions(const std::string& profile,
                                          const std::string& faults,
                                          unsigned block_size) {
  if (FindProfile(profile) == nullptr) {
    std::string known;
    for (const DeviceProfile& p : AllProfiles())
      known += std::string(known.empty() ? "" : ", ") + p.name;
    return Status::InvalidArgument("unknown device profile '" + profile +
                                   "' (known: " + known + ")");
  }
  if (block_size != 512 && block_size != 1024 && block_size != 4096)
    return Status::InvalidArgument("block size " + std::to_string(block_size) +
                                   " not in {512, 1024, 4096}");
  StatusOr<FaultPlan> plan = FaultPlan::Parse(faults);
  if (!plan.ok()) return plan.status();
  DeviceOptions o;
  o.profile = profile;
  o.block_size = block_size;
  o.faults = *plan;
  return o;
}

BlockDevice::BlockDevice(std::shared_ptr<const ImageBytes> image,
                         DeviceOptions options)
    : image_(std::move(image)),
      opt_(std::move(options)),
      profile_(&ProfileOrDie(opt_.profile)),
      queue_(profile_->max_request_bytes.value),
      timeline_(*profile_) {
  unsigned bs = opt_.block_size;
  if (bs != 512 && bs != 1024 && bs != 4096) {
    std::fprintf(stderr, "hw_emul: block size %u not in {512, 1024, 4096}\n",
                 bs);
    std::abort();
  }
  bdev_.driver = this;
  bdev_.logical_block_size = bs;
  bdev_.name = opt_.name;
  uint64_t blocks = (image_->size() + bs - 1) / bs;
  capacity_sectors_ = blocks * (bs / 512);
  counters_.depth_hist.assign(profile_->queue_depth.value + 1, 0);
}

BlockDevice::~BlockDevice() = default;

bool BlockDevice::Reject(bio* b) const {
  uint64_t bs = opt_.block_size;
  return (b->bi_rw & WRITE) != 0 || b->bi_size == 0 ||
         (b->bi_sector * 512) % bs != 0 || b->bi_size % bs != 0 ||
         b->bi_sector > capacity_sectors_ ||
         b->bi_size / 512 > capacity_sectors_ - b->bi_sector;  // no overflow
}

void BlockDevice::submit(bio* b) {
  uint64_t now = Kernel::Current().NowNs();
  {
    std::lock_guard<std::mutex> l(mu_);
    counters_.bios_submitted++;
    counters_.bytes_requested += b->bi_size;
  }
  if (Reject(b)) {
    {
      std::lock_guard<std::mutex> l(mu_);
      counters_.bios_rejected++;
    }
    CompleteNow({b}, -EIO, "rejected");
    return;
  }
  // A READA is refused when its request is allocated, before plugging
  // (get_request in 3.x); the kernel fails it in the submitter's context,
  // the model's contract wants an interrupt task: it runs at once.
  bool refused = false;
  if ((b->bi_rw & READA) != 0 && opt_.faults.reada_drop > 0) {
    std::lock_guard<std::mutex> l(mu_);
    bool congested = queue_.size() + inflight_.size() >= opt_.faults.congest;
    if (congested &&
        DrawLocked().Fires(opt_.faults.reada_drop, FaultSite::kReadaDrop,
                           b->bi_sector,
                           Nth(FaultSite::kReadaDrop, b->bi_sector))) {
      counters_.reada_dropped++;
      refused = true;
    }
  }
  if (refused) {
    CompleteNow({b}, -EIO, "reada refused");
    return;
  }
  if (blk_plug_add_current(b)) {
    {
      std::lock_guard<std::mutex> l(mu_);
      counters_.bios_plugged++;
    }
    ArmUnplugTimer(Kernel::Current().current_task());
    return;
  }
  {
    std::lock_guard<std::mutex> l(mu_);
    QueueLocked(b, now);
  }
  WakeHost();
}

void BlockDevice::SubmitBatch(const std::vector<bio*>& bios) {
  uint64_t now = Kernel::Current().NowNs();
  {
    std::lock_guard<std::mutex> l(mu_);
    for (bio* b : bios) QueueLocked(b, now);
  }
  WakeHost();
}

bool BlockDevice::QueueLocked(bio* b, uint64_t now) {
  int absorbed = 0;
  MergeKind m = queue_.Add(b, now, &next_seq_, &absorbed);
  if (m != MergeKind::kNone) counters_.merges++;
  if (m == MergeKind::kBack) counters_.back_merges++;
  if (m == MergeKind::kFront) counters_.front_merges++;
  counters_.request_merges += absorbed;
  counters_.max_queued =
      std::max<uint64_t>(counters_.max_queued, queue_.size());
  return true;
}

void BlockDevice::WakeHost() {
  Kernel& k = Kernel::Current();
  {
    std::lock_guard<std::mutex> l(mu_);
    if (host_running_ || queue_.empty()) return;
    host_running_ = true;
  }
  TaskSpec spec;
  spec.name = "mmcqd/" + opt_.name;
  spec.context = TaskContext::kProcess;
  spec.prio = opt_.host_prio;
  spec.start_ns = k.NowNs();
  spec.body = [this] { HostLoop(); };
  k.Spawn(std::move(spec));
}

void BlockDevice::ArmUnplugTimer(Task* owner) {
  const uint64_t timeout = opt_.unplug_timeout_ns;
  if (timeout == 0 || owner == nullptr) return;
  {
    std::lock_guard<std::mutex> l(mu_);
    if (std::find(unplug_armed_.begin(), unplug_armed_.end(), owner) !=
        unplug_armed_.end())
      return;
    unplug_armed_.push_back(owner);
  }
  Kernel& k = Kernel::Current();
  TaskSpec spec;
  spec.name = "kblockd";
  spec.context = TaskContext::kWorkqueue;
  spec.start_ns = k.NowNs() + timeout;
  uint64_t due = spec.start_ns;
  spec.body = [this, owner, due, timeout] {
    Kernel& ex = Kernel::Current();
    uint64_t now = ex.NowNs();
    if (due > now) ex.Delay(std::min(due - now, timeout));
    {
      std::lock_guard<std::mutex> l(mu_);
      unplug_armed_.erase(
          std::find(unplug_armed_.begin(), unplug_armed_.end(), owner));
    }
    size_t n = blk_flush_plug_of(owner);
    std::lock_guard<std::mutex> l(mu_);
    counters_.unplug_timer_bios += n;
  };
  k.Spawn(std::move(spec));
}

// mmc_queue_thread of 3.x: each iteration fetches a request (or finds the
// previous one still in flight) and counts fetch, or finds nothing and
// counts idle and sleeps (here: exits; the next submit spawns it again).
// After starting a request with the queue depth reached it waits for the
// earliest one in flight, as mmc_start_req waits for mqrq_prev.
void BlockDevice::HostLoop() {
  Kernel& k = Kernel::Current();
  Kernel& ex = k;
  const uint64_t depth = profile_->queue_depth.value;
  for (;;) {
    k.Point("mmc_queue_thread", 0);
    std::shared_ptr<Completion> started;
    bool must_wait = false;
    InFlight wait{0, 0, 0};
    {
      std::lock_guard<std::mutex> l(mu_);
      std::unique_ptr<Request> req;
      if (inflight_.size() < depth) req = queue_.PopFront();
      if (req == nullptr && inflight_.empty()) {
        counters_.idle++;
        host_running_ = false;
        return;
      }
      counters_.fetch++;
      if (req != nullptr) started = DispatchLocked(std::move(req), ex.NowNs());
      if (started == nullptr || inflight_.size() >= depth) {
        must_wait = true;
        wait = *std::min_element(inflight_.begin(), inflight_.end(),
                                 [](const InFlight& a, const InFlight& b) {
                                   return a.end_ns < b.end_ns;
                                 });
      }
    }
    if (started != nullptr) {
      TaskSpec spec;
      spec.name = "irq/" + opt_.name;
      spec.context = TaskContext::kInterrupt;
      spec.cpu = opt_.irq_cpu;
      spec.prio = 100;
      spec.start_ns = started->irq_ns;
      spec.body = [this, started] { Interrupt(started); };
      k.Spawn(std::move(spec));
    }
    if (must_wait) {
      uint64_t now = ex.NowNs();
      // Capped at the command's own service time: under threads, where
      // Delay is scaled down, the device's clock would otherwise run
      // further and further ahead of the wall clock.
      if (wait.end_ns > now)
        ex.Delay(std::min(wait.end_ns - now, wait.end_ns - wait.start_ns));
      std::lock_guard<std::mutex> l(mu_);
      inflight_.erase(
          std::find_if(inflight_.begin(), inflight_.end(),
                       [&](const InFlight& f) { return f.seq == wait.seq; }));
    }
  }
}

uint64_t BlockDevice::Occupy(uint64_t now_ns, uint64_t ns) {
  std::lock_guard<std::mutex> l(mu_);
  DeviceTimeline::Slot slot = timeline_.Reserve(now_ns, ns);
  counters_.busy_ns = timeline_.busy_ns();
  return slot.end_ns;
}

std::shared_ptr<BlockDevice::Completion> BlockDevice::DispatchLocked(
    std::unique_ptr<Request> r, uint64_t now) {
  const FaultPlan& plan = opt_.faults;
  auto c = std::make_shared<Completion>();
  DeviceTimeline::Slot slot = timeline_.Schedule(now, r->sector, r->bytes);
  counters_.requests++;
  if (r->reada) counters_.reada_requests++;
  if (r->sync) counters_.sync_requests++;
  counters_.commands += CommandCount(*profile_, r->bytes);
  counters_.busy_ns = timeline_.busy_ns();
  inflight_.push_back(InFlight{r->seq, slot.start_ns, slot.end_ns});
  counters_.depth_hist[std::min(inflight_.size(),
                                counters_.depth_hist.size() - 1)]++;
  uint64_t irq = slot.end_ns;
  FaultDraw draw = DrawLocked();
  if (draw.Fires(plan.delay, FaultSite::kDelay, r->sector,
                 Nth(FaultSite::kDelay, r->sector))) {
    irq += plan.delay_us * 1000;
    counters_.delayed++;
  }
  if (draw.Fires(plan.reorder, FaultSite::kReorder, r->sector,
                 Nth(FaultSite::kReorder, r->sector))) {
    irq += 2 * (slot.end_ns - slot.start_ns) + 1;
    counters_.reordered++;
  }
  if (draw.Fires(plan.short_completion, FaultSite::kShort, r->sector,
                 Nth(FaultSite::kShort, r->sector))) {
    c->short_bio = draw.Below(r->bios.size(), FaultSite::kShortPoint, r->sector,
                              Nth(FaultSite::kShortPoint, r->sector));
    counters_.short_requests++;
  }
  if (opt_.record_log) {
    log_.push_back(RequestRecord{r->seq, r->sector, r->bytes, r->bios.size(),
                                 r->reada, slot.sequential, r->queued_ns, now,
                                 slot.start_ns, slot.end_ns, irq});
  }
  c->start_ns = slot.start_ns;
  c->irq_ns = irq;
  c->req = std::move(r);
  return c;
}

void BlockDevice::Interrupt(const std::shared_ptr<Completion>& c) {
  Kernel& k = Kernel::Current();
  Kernel& ex = k;
  // Simulate starts this task at irq_ns; threads and explore start it at
  // once, so the latency passes here (a scaled sleep, a point), capped at
  // the request's own latency as in HostLoop.
  uint64_t now = ex.NowNs();
  if (c->irq_ns > now)
    ex.Delay(std::min(c->irq_ns - now, c->irq_ns - c->start_ns));
  k.Charge(CostKind::kIrqEntry);
  std::vector<bio*>& bios = c->req->bios;
  std::vector<int> errors(bios.size(), 0);
  {
    std::lock_guard<std::mutex> l(mu_);
    for (size_t i = 0; i < bios.size(); i++)
      errors[i] = BioErrorLocked(bios[i], i, c->short_bio);
  }
  for (size_t i = 0; i < bios.size(); i++)
    if (errors[i] == 0) errors[i] = CopyIn(bios[i]);
  {
    std::lock_guard<std::mutex> l(mu_);
    for (size_t i = 0; i < bios.size(); i++) {
      if (errors[i] == 0) {
        FlipLocked(bios[i]);
        counters_.bytes += bios[i]->bi_size;
      } else {
        counters_.bios_failed++;
      }
      counters_.bios_completed++;
    }
  }
  for (size_t i = 0; i < bios.size(); i++) bio_endio(bios[i], errors[i]);
}

DeviceCounters BlockDevice::counters() const {
  std::lock_guard<std::mutex> l(mu_);
  return counters_;
}

std::vector<RequestRecord> BlockDevice::log() const {
  std::lock_guard<std::mutex> l(mu_);
  return log_;
}

std::vector<FlipRecord> BlockDevice::flips() const {
  std::lock_guard<std::mutex> l(mu_);
  return flips_;
}

void BlockDevice::Reset() {
  std::lock_guard<std::mutex> l(mu_);
  queue_.Clear();
  timeline_.Reset();
  inflight_.clear();
  host_running_ = false;
  next_seq_ = 0;
  nth_.clear();
  unplug_armed_.clear();
  counters_ = DeviceCounters();
  counters_.depth_hist.assign(profile_->queue_depth.value + 1, 0);
  log_.clear();
  flips_.clear();
}

}  // namespace squashlab
