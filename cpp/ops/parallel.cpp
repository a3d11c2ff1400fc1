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

#ifdef ATTENTION_THREADS
namespace {

// Set on every thread while it runs pieces: a parallelFor inside one is serial.
thread_local bool insideParallel = false;

// Multiply-adds below which a piece is not worth a wake-up of the pool (tens
// of microseconds in wasm): about 0.1 ms of one thread's SIMD work.
constexpr double kMinWorkPerPiece = 1 << 18;
// Pieces per thread: dynamic claiming then balances a thread paused mid-call
// (a busy machine) at the cost of packing a's rows once per piece.
constexpr Index kPiecesPerThread = 4;

// Workers sleep on a condition variable; each parallelFor is a new generation
// that wakes them. A piece is claimed by a compare-and-swap on one 64-bit
// ticket, (generation << 32) | next piece, so a worker that wakes late (the
// machine is busy) can only claim a piece of the generation it read, while
// that generation's caller still waits for it. The caller takes pieces too
// and waits only for pieces claimed and not yet done, never for a worker that
// has not woken: on a loaded machine the split costs little over one thread.
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

  long long workerPieces() const { return workerPieces_.load(); }

  void resize(int n) {
    for (int t = static_cast<int>(workers_.size()); t < n - 1; ++t)
      workers_.emplace_back([this, t] { workLoop(t); });
    std::lock_guard<std::mutex> lock(mutex_);
    active_ = n;
  }

  void run(Index begin, Index end, const std::function<void(Index)>& fn) {
    std::uint32_t generation;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      fn_ = &fn;
      begin_ = begin;
      count_ = static_cast<std::uint32_t>(end - begin);
      done_.store(0);
      failed_.store(false);
      error_ = nullptr;
      generation = ++generation_;
      ticket_.store(std::uint64_t{generation} << 32);
    }
    wake_.notify_all();
    takePieces(generation, fn, begin, count_, false);
    std::unique_lock<std::mutex> lock(mutex_);
    finished_.wait(lock, [this] { return done_.load() == count_; });
    fn_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  // Claims and runs pieces of `generation` until none is left (or it is over).
  void takePieces(std::uint32_t generation, const std::function<void(Index)>& fn, Index begin,
                  std::uint32_t count, bool onWorker) {
    insideParallel = true;
    for (;;) {
      std::uint64_t ticket = ticket_.load();
      if (static_cast<std::uint32_t>(ticket >> 32) != generation) break;
      const std::uint32_t piece = static_cast<std::uint32_t>(ticket);
      if (piece >= count) break;
      if (!ticket_.compare_exchange_weak(ticket, ticket + 1)) continue;
      if (onWorker) workerPieces_.fetch_add(1, std::memory_order_relaxed);
      try {
        if (!failed_.load()) fn(begin + piece);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = std::current_exception();
        failed_.store(true);  // the remaining pieces are skipped (still counted as done)
      }
      if (done_.fetch_add(1) + 1 == count) {
        std::lock_guard<std::mutex> lock(mutex_);
        finished_.notify_all();
      }
    }
    insideParallel = false;
  }

  // Worker `index` (0 first) takes part while index < active_ - 1.
  void workLoop(int index) {
    std::uint32_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      if (index >= active_ - 1 || fn_ == nullptr) continue;
      const std::function<void(Index)>& fn = *fn_;
      const Index begin = begin_;
      const std::uint32_t count = count_;
      lock.unlock();
      takePieces(seen, fn, begin, count, true);
      lock.lock();
    }
  }

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  // The current generation's work (written under mutex_ before its ticket).
  const std::function<void(Index)>* fn_ = nullptr;
  Index begin_ = 0;
  std::uint32_t count_ = 0;
  std::atomic<std::uint64_t> ticket_{0};
  std::atomic<std::uint32_t> done_{0};
  std::atomic<bool> failed_{false};
  std::atomic<long long> workerPieces_{0};
  std::exception_ptr error_;
  int active_ = 1;
  std::uint32_t generation_ = 0;
  bool stop_ = false;
};

Pool& pool() {
  static Pool instance;
  return instance;
}

}  // namespace

bool threadsSupported() { return true; }

bool setThreadCount(int n) {
  if (n < 1 || n > kMaxThreads || insideParallel) return false;
  if (n != pool().size()) pool().resize(n);
  return true;
}

int threadCount() { return pool().size(); }

long long piecesOnWorkers() { return pool().workerPieces(); }

void parallelFor(Index begin, Index end, const std::function<void(Index)>& fn) {
  // (More than 2^31 - 1 pieces never comes from a kernel; the ticket holds 32 bits. Index
  // is 32 bits in wasm32, so the bound is written in long long.)
  const long long pieces = static_cast<long long>(end) - begin;
  if (pieces <= 1 || pieces > 0x7fffffffLL || insideParallel || pool().size() == 1) {
    for (Index i = begin; i < end; ++i) fn(i);
    return;
  }
  pool().run(begin, end, fn);
}

Index piecesFor(double work, Index most) {
  const Index threads = threadCount();
  if (threads <= 1 || insideParallel || most <= 1) return 1;
  const Index worthIt = std::max<Index>(1, static_cast<Index>(work / kMinWorkPerPiece));
  return std::min({threads * kPiecesPerThread, most, worthIt});
}

#else
bool threadsSupported() { return false; }

bool setThreadCount(int n) { return n == 1; }

int threadCount() { return 1; }

long long piecesOnWorkers() { return 0; }

void parallelFor(Index begin, Index end, const std::function<void(Index)>& fn) {
  for (Index i = begin; i < end; ++i) fn(i);
}
#endif

}  // namespace attention
