#include "parallel.h"

#include <algorithm>

#ifdef ATTENTION_THREADS
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>
#endif

namespace attention {

using Eigen::Index;

namespace {

// Set on every thread while it runs pieces: a parallelFor inside one is serial.
thread_local bool insideParallel = false;

// Multiply-adds below which a piece is not worth a wake-up of the pool (tens
// of microseconds in wasm): about 0.1 ms of one thread's SIMD work.
constexpr double kMinWorkPerPiece = 1 << 18;

#ifdef ATTENTION_THREADS
// Workers sleep on a condition variable; each parallelFor is a new generation
// that wakes them. Pieces are handed out by an atomic counter, so a thread that
// finishes early takes the next; the caller waits until every worker in use
// has looked at the generation (so none can see a stale range later).
// Workers are never stopped before exit: fewer threads leave some idle. (In
// the browser a thread that ends hands its worker back only once the page's
// event loop runs, so a new thread right after could wait for a worker forever.)
class Pool {
 public:
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
  }

  int size() const { return active_; }

  void resize(int n) {
    for (int t = static_cast<int>(workers_.size()); t < n - 1; ++t)
      workers_.emplace_back([this, t] { workLoop(t); });
    std::lock_guard<std::mutex> lock(mutex_);
    active_ = n;
  }

  void run(Index begin, Index end, const std::function<void(Index)>& fn) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      fn_ = &fn;
      next_.store(begin);
      end_ = end;
      error_ = nullptr;
      pending_ = active_ - 1;
      ++generation_;
    }
    wake_.notify_all();
    takePieces();
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
    fn_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void takePieces() {
    insideParallel = true;
    try {
      for (Index i = next_.fetch_add(1); i < end_; i = next_.fetch_add(1)) (*fn_)(i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(errorMutex_);
      if (!error_) error_ = std::current_exception();
      next_.store(end_);  // the others stop at their next piece
    }
    insideParallel = false;
  }

  // Worker `index` (0 first) takes part while index < active_ - 1.
  void workLoop(int index) {
    std::uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      if (index >= active_ - 1) continue;
      lock.unlock();
      takePieces();
      lock.lock();
      if (--pending_ == 0) done_.notify_one();
    }
  }

  std::vector<std::thread> workers_;
  std::mutex mutex_, errorMutex_;
  std::condition_variable wake_, done_;
  const std::function<void(Index)>* fn_ = nullptr;
  std::atomic<Index> next_{0};
  Index end_ = 0;
  std::exception_ptr error_;
  int active_ = 1;
  int pending_ = 0;
  std::uint64_t generation_ = 0;
  bool stop_ = false;
};

Pool& pool() {
  static Pool instance;
  return instance;
}
#endif

}  // namespace

#ifdef ATTENTION_THREADS
bool threadsSupported() { return true; }

bool setThreadCount(int n) {
  if (n < 1 || n > kMaxThreads || insideParallel) return false;
  if (n != pool().size()) pool().resize(n);
  return true;
}

int threadCount() { return pool().size(); }

void parallelFor(Index begin, Index end, const std::function<void(Index)>& fn) {
  if (end - begin <= 1 || insideParallel || pool().size() == 1) {
    for (Index i = begin; i < end; ++i) fn(i);
    return;
  }
  pool().run(begin, end, fn);
}
#else
bool threadsSupported() { return false; }

bool setThreadCount(int n) { return n == 1; }

int threadCount() { return 1; }

void parallelFor(Index begin, Index end, const std::function<void(Index)>& fn) {
  for (Index i = begin; i < end; ++i) fn(i);
}
#endif

Index piecesFor(double work, Index most) {
  const Index threads = threadCount();
  if (threads <= 1 || insideParallel || most <= 1) return 1;
  const Index worthIt = std::max<Index>(1, static_cast<Index>(work / kMinWorkPerPiece));
  return std::min({threads, most, worthIt});
}

}  // namespace attention
