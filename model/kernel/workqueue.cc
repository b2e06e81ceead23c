// SPDX-License-Identifier: GPL-2.0-only
// This file implements workqueues over the run's executor: a queued item
// becomes a kworker task.
#include "model/kernel/workqueue.h"

#include <mutex>

#include "model/kernel/checkers/symbolize.h"
#include "model/kernel/kernel.h"
#include "model/kernel/kernel_internal.h"
#include "model/kernel/quiescence.h"

namespace squashlab {
namespace {

wait_queue_head_t& WorkWait(Kernel& k, const work_struct* w) {
  return KernelInternal::Waitqueue(k, Kernel::WaitOn::kWork, w->wait_key);
}

bool Busy(Kernel& k, const work_struct* w) {
  std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
  auto it = KernelInternal::Works(k).find(w);
  return it != KernelInternal::Works(k).end() &&
         (it->second.queued || it->second.running > 0);
}

bool RunningElsewhere(Kernel& k, const work_struct* w) {
  std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
  auto it = KernelInternal::Works(k).find(w);
  return it != KernelInternal::Works(k).end() && it->second.running > 0;
}

// process_one_work(): waits for a running instance, clears pending, runs.
void WorkerBody(work_struct* work) {
  Kernel& k = Kernel::Current();
  k.Charge(CostKind::kWorkDispatch);
  k.Point("process_one_work", work->wait_key);
  k.Sleep(
      WorkWait(k, work), [&k, work] { return !RunningElsewhere(k, work); },
      "process_one_work", 0);
  work_func_t fn = nullptr;
  {
    std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
    WorkState& st = KernelInternal::Works(k)[work];
    st.queued = false;
    st.running = 1;
    st.runner_id = k.current_task()->id;
    fn = work->func;
  }
  // A work item whose memory another object took over (a production
  // slab reuses a freed object for any allocation of its size class)
  // holds no function there: the kernel jumps to it and faults.
  if (fn == nullptr)
    k.CheckPtr(nullptr, "process_one_work");  // NULL: that oops
  if (!IsFunctionStart(reinterpret_cast<uintptr_t>(fn))) {
    k.Bug(Check::kPagingRequest,
          "BUG: unable to handle kernel paging request in process_one_work",
          "BUG: unable to handle kernel paging request at " +
              Hex16(reinterpret_cast<uintptr_t>(fn)) +
              "\nIP: process_one_work: work->func is no function (the work "
              "item's memory was freed and reused)\nOops: 0010 [#1] SMP");
  }
  work->data.fetch_and(~(1UL << WORK_STRUCT_PENDING_BIT));
  wait_queue_head_t& done = WorkWait(k, work);  // before fn may free work
  fn(work);  // may free the work item (legal once claimed, as here)
  {
    std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
    KernelInternal::Works(k).erase(work);
  }
  k.Wake(done);
}

}  // namespace

workqueue_struct* system_wq() {
  static workqueue_struct wq{"events"};
  return &wq;
}

void INIT_WORK(work_struct* work, work_func_t func) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(work, "INIT_WORK");
  work->data.store(0);
  work->func = func;
  work->wait_key = KernelInternal::NextObjectId(k);
}

bool queue_work(workqueue_struct* wq, work_struct* work) {
  Kernel& k = Kernel::Current();
  k.CheckPtr(work, "queue_work");
  kasan_check_write(work, sizeof *work);
  k.Point("queue_work", work->wait_key);
  if (work->data.fetch_or(1UL << WORK_STRUCT_PENDING_BIT) &
      (1UL << WORK_STRUCT_PENDING_BIT))
    return false;
  if (work->func == nullptr)
    k.Bug(Check::kWorkFuncNull,
          "BUG: unable to handle kernel NULL pointer dereference in queue_work",
          "BUG: unable to handle kernel NULL pointer dereference at "
          "0000000000000000\n"
          "IP: process_one_work: work->func is NULL (INIT_WORK missing)");
  {
    std::lock_guard<RunMutex> l(KernelInternal::TreeLock(k));
    KernelInternal::Works(k)[work].queued = true;
  }
  Task* cur = k.current_task();
  TaskSpec spec;
  spec.name = "kworker/" + std::to_string(cur ? cur->cpu : 0) + ":" +
              std::to_string(KernelInternal::NextWorkerId(k));
  spec.context = TaskContext::kWorkqueue;
  spec.cpu = cur ? cur->cpu : -1;
  spec.body = [work] { WorkerBody(work); };
  (void)wq;
  k.Spawn(std::move(spec));
  return true;
}

bool schedule_work(work_struct* work) { return queue_work(system_wq(), work); }

int work_pending(work_struct* work) {
  Kernel::Current().Point("work_pending", 0);
  return (work->data.load() >> WORK_STRUCT_PENDING_BIT) & 1;
}

bool flush_work(work_struct* work) {
  Kernel& k = Kernel::Current();
  k.MightSleep("flush_work");
  k.Point("flush_work", 0);
  bool busy = Busy(k, work);
  k.Sleep(
      WorkWait(k, work), [&k, work] { return !Busy(k, work); }, "flush_work",
      0);
  return busy;
}

// At quiescence no work item is queued or running.
void CheckWorkAtQuiescence(Kernel& k) {
  for (auto& [w, st] : KernelInternal::Works(k)) {
    if (st.queued || st.running)
      return k.Lint(Check::kWorkQueuedAtQuiescence,
                    "work item still queued at quiescence", "");
  }
}
const QuiescenceCheckRegistration kWorkAtQuiescence(40, "work",
                                                    CheckWorkAtQuiescence);

}  // namespace squashlab
