// The k most likely entries of a probability vector (next tokens of GPT-2, masked tokens of BERT).
//
// A bounded selection: a binary min-heap of the k best so far (the worst of them on top), so a
// vector of V entries costs O(V log k) and k = V costs one O(V log V) sort, never O(V * k).

/** True when entry `a` ranks before entry `b`: more likely, ties to the lower id. */
const before = (p, a, b) => p[a] > p[b] || (p[a] === p[b] && a < b);

/**
 * The k largest probabilities as { id, p }, most likely first (ties: lower id first).
 * @param {ArrayLike<number>} probabilities
 * @param {number} k an integer in [1, probabilities.length]
 * @param {string} [fn] the calling function, for the error
 */
export function topK(probabilities, k, fn = 'topK') {
  const n = probabilities.length;
  if (!Number.isInteger(k) || k < 1 || k > n)
    throw new RangeError(`${fn}: options.k must be an integer in [1, ${n}] (the vocabulary's size), got ${k}`);
  const p = probabilities;
  const heap = new Int32Array(k); // ids; heap[0] ranks last of the k kept
  let size = 0;
  const siftDown = (from) => {
    const id = heap[from];
    let i = from;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && before(p, heap[child], heap[child + 1])) child++;
      if (!before(p, id, heap[child])) break;
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = id;
  };
  for (let id = 0; id < n; id++) {
    if (size < k) {
      // Sift up: ids come in increasing order, so an equal p never moves above its parent.
      let i = size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!before(p, heap[parent], id)) break;
        heap[i] = heap[parent];
        i = parent;
      }
      heap[i] = id;
    } else if (before(p, id, heap[0])) {
      heap[0] = id;
      siftDown(0);
    }
  }
  const ids = Array.from(heap.subarray(0, size)).sort((a, b) => (before(p, a, b) ? -1 : 1));
  return ids.map((id) => ({ id, p: p[id] }));
}

/** softmax of float32 logits, in float64 (max subtracted first). */
export function softmaxOf(logits) {
  let max = -Infinity;
  for (const x of logits) if (x > max) max = x;
  const p = new Float64Array(logits.length);
  let sum = 0;
  for (let i = 0; i < logits.length; i++) sum += p[i] = Math.exp(logits[i] - max);
  for (let i = 0; i < p.length; i++) p[i] /= sum;
  return p;
}
