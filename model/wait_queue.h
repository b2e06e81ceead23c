// This file implements wait_queue_head_t, the kernel's wait queue, and its
// calls init_waitqueue_head / wait_event / wake_up. Executors keep their own
// sleeping state in it: a waiter list (explore, simulate) or a real condition
// variable (threads).
#ifndef SQUASHLAB_MODEL_WAIT_QUEUE_H_
#define SQUASHLAB_MODEL_WAIT_QUEUE_H_

#include <condition_variable>
#include <functional>
#include <mutex>
#include <vector>

namespace squashlab {

struct Task;

struct wait_queue_head_t {
  std::vector<Task*> waiters;  // explore / simulate: tasks asleep here
  std::mutex mu;               // threads: guards the sleep/wake handshake
  std::condition_variable cv;
};

inline void init_waitqueue_head(wait_queue_head_t* wq) { wq->waiters.clear(); }

// Sleeps until cond() holds (might_sleep). The condition is re-evaluated on
// every wake_up(wq), so a waker that forgets wake_up leaves the task asleep:
// a hang, reported at quiescence, as in the kernel.
void wait_event(wait_queue_head_t& wq, const std::function<bool()>& cond);
void wake_up(wait_queue_head_t* wq);
inline void wake_up_all(wait_queue_head_t* wq) { wake_up(wq); }

}  // namespace squashlab

#endif  // SQUASHLAB_MODEL_WAIT_QUEUE_H_
