// Building a large tokenizer's tables is written as generators that yield every
// few thousand entries. loadTokenizer runs them straight through (synchronous,
// as before); openModel's path runs them with a pause to the event loop once a
// slice has taken SLICE_MS (and at least every SLICE_STEPS yields, so a fast
// machine pauses too), so the page can draw and an AbortSignal lands. In a
// worker nothing is drawn: only the abort needs a turn, and 50 ms slices keep
// it prompt while pausing a sixth as often (Gemma 3's 262,144-token file in a
// Chromium worker: 3.5x JSON.parse with 8 ms slices, bench/tokenizer-browser.mjs).

/** Entries between two yields of a building loop. */
export const STEP = 4096;
const inWorker = typeof globalThis.WorkerGlobalScope === 'function' && typeof globalThis.document === 'undefined';
const SLICE_MS = inWorker ? 50 : 8;
const SLICE_STEPS = inWorker ? 100 : 16;

/** Runs a step generator to its end at once: its return value. */
export function runSteps(steps) {
  for (;;) {
    const { done, value } = steps.next();
    if (done) return value;
  }
}

// A turn of the event loop: setImmediate in Node; in a browser a message through one
// MessageChannel kept for all pauses (each message resolves the oldest waiting pause),
// since nested setTimeout waits at least 4 ms each (a third of a slice lost to every pause).
let channel = null;
const waiting = [];
function pause() {
  if (globalThis.setImmediate) return new Promise((resolve) => globalThis.setImmediate(resolve));
  if (typeof MessageChannel !== 'function') return new Promise((resolve) => setTimeout(resolve));
  if (channel === null) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => waiting.shift()?.();
  }
  return new Promise((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });
}

/** Runs a step generator, giving the event loop a turn every SLICE_MS; rejects with the signal's reason. */
export async function runStepsAsync(steps, signal) {
  let since = performance.now();
  let count = 0;
  for (;;) {
    if (signal?.aborted) throw signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
    const { done, value } = steps.next();
    if (done) return value;
    if (++count >= SLICE_STEPS || performance.now() - since >= SLICE_MS) {
      await pause();
      since = performance.now();
      count = 0;
    }
  }
}
