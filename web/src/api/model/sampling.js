// Choosing the next token from a decoder's output (generate in causal_model.js):
// greedy (temperature 0: the most likely id, ties to the lower id, as runIds'
// first `next`), or a draw from softmax(logits / temperature) truncated to the
// topK most likely and then to the smallest most-likely set whose mass reaches
// topP (Holtzman et al. 2020, "The Curious Case of Neural Text Degeneration").
// Cost per token: O(V) without truncation; topK is topK()'s bounded selection,
// O(V log k); topP selects the m most likely for m = 64, 256, ... until their
// mass reaches topP, so it sorts only the candidates it needs.
import { topK } from './top-k.js';

/**
 * A seeded generator of uniform numbers in [0, 1): mulberry32 (Tommy Ettinger's
 * 32-bit generator, public domain): one 32-bit state, a Weyl step and a mix.
 * The same seed gives the same sequence on every engine (32-bit integer math only).
 * @param {number} seed an integer in [0, 2^32 - 1]
 */
export function seededUniform(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** The first candidates (most likely first) whose weights reach `mass` of `total`. */
function nucleus(ranked, weight, total, mass) {
  let sum = 0;
  for (let i = 0; i < ranked.length; i++) {
    sum += weight(ranked[i]);
    if (sum >= mass * total) return ranked.slice(0, i + 1);
  }
  return ranked;
}

/**
 * The next token: { id, p }, p its probability in the distribution it was drawn
 * from (1 for greedy).
 * @param {Float32Array} probabilities the model's softmax (ranks the ids; greedy's choice)
 * @param {Float32Array} logits the logits it is the softmax of
 * @param {{ temperature: number, topK: number | null, topP: number }} options
 * @param {() => number} uniform the seeded generator (one draw a sampled token)
 */
export function chooseToken(probabilities, logits, { temperature, topK: k, topP }, uniform) {
  const V = logits.length;
  if (temperature === 0) return { id: topK(probabilities, 1)[0].id, p: 1 };
  let max = -Infinity;
  for (let i = 0; i < V; i++) if (logits[i] > max) max = logits[i];
  // exp((logit - max) / T) in float64: the unnormalised tempered softmax.
  const weight = (id) => Math.exp((logits[id] - max) / temperature);
  // Candidates, most likely first (null: every id, in id order).
  let ranked = k === null ? null : topK(probabilities, k).map((e) => e.id);
  if (topP < 1) {
    let total = 0;
    if (ranked === null) for (let i = 0; i < V; i++) total += weight(i);
    else for (const id of ranked) total += weight(id);
    if (ranked !== null) ranked = nucleus(ranked, weight, total, topP);
    else {
      for (let m = Math.min(64, V); ; m = Math.min(4 * m, V)) {
        const top = topK(probabilities, m).map((e) => e.id);
        const kept = nucleus(top, weight, total, topP);
        if (kept.length < top.length || m === V) {
          ranked = kept;
          break;
        }
      }
    }
  }
  const ids = ranked ?? { length: V };
  const idAt = ranked === null ? (i) => i : (i) => ranked[i];
  let sum = 0;
  for (let i = 0; i < ids.length; i++) sum += weight(idAt(i));
  const target = uniform() * sum;
  // The first id where the running sum passes target (the last one with weight > 0
  // if rounding leaves target at the sum; an underflowed weight is never drawn).
  let chosen = -1;
  let chosenWeight = 0;
  let at = 0;
  for (let i = 0; i < ids.length; i++) {
    const w = weight(idAt(i));
    if (w === 0) continue;
    chosen = idAt(i);
    chosenWeight = w;
    at += w;
    if (at > target) break;
  }
  return { id: chosen, p: chosenWeight / sum };
}
