// The k most likely entries of a probability vector (next tokens of GPT-2, masked tokens of BERT).

/** The k largest probabilities as { id, p }, most likely first (ties: lower id first). */
export function topK(probabilities, k) {
  const best = [];
  for (let id = 0; id < probabilities.length; id++) {
    const p = probabilities[id];
    if (best.length === k && p <= best[k - 1].p) continue;
    let at = best.length;
    while (at > 0 && best[at - 1].p < p) at--;
    best.splice(at, 0, { id, p });
    if (best.length > k) best.pop();
  }
  return best;
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
