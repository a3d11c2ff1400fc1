// A fixed pool of worker threads for the kernels' independent pieces: the
// column panels of a product, the row blocks of one attention head. The
// calling thread works too, so a pool of n threads has n - 1 workers, all
// started by setThreadCount (never in the middle of a forward pass: in the
// browser a new thread needs the event loop, which a running pass holds).
//
// Built without ATTENTION_THREADS (the single-threaded wasm modules) this is a
// plain loop and only one thread can be asked for; the choice is made at
// compile time, so those modules carry no locks or atomics.
//
// Every index runs exactly once, whatever thread takes it, so a kernel that
// gives each output to one index computes the same bits on 1 or n threads.
#pragma once

#include <functional>

#include "tensor.h"

namespace attention {

// True when this build can run more than one thread.
bool threadsSupported();

// Sets the pool to n threads (the caller included), starting the workers it
// lacks; with fewer, the others stay idle (none is stopped). In the browser
// every worker must have a preloaded Emscripten worker (model/core.js asks
// for at most those). Returns false, changing nothing, if n < 1 or
// n > kMaxThreads, or if n > 1 and the build has no threads, or inside a
// parallelFor.
constexpr int kMaxThreads = 16;
bool setThreadCount(int n);
int threadCount();

// fn(i) for every i in [begin, end), spread over the pool; returns when all
// are done. Inside a running parallelFor (a kernel called from another's
// piece) it runs serially on the calling thread.
void parallelFor(Eigen::Index begin, Eigen::Index end, const std::function<void(Eigen::Index)>& fn);

// Pieces run by the pool's workers (not by callers) since the start: the tests
// see that a split really reached another thread.
long long piecesOnWorkers();

// How many pieces (at most `most`) to cut `work` (a count of multiply-adds)
// into: a few per thread, so that a thread the system pauses holds up only a
// small piece while the others take the rest; fewer when pieces would be too
// small to pay for waking the pool, and 1 on one thread.
#ifdef ATTENTION_THREADS
Eigen::Index piecesFor(double work, Eigen::Index most);
#else
// Always 1: the kernels' split branches compile away (smaller modules).
inline Eigen::Index piecesFor(double, Eigen::Index) { return 1; }
#endif

}  // namespace attention
