// Byte-pair encoding of one word: start from one symbol per byte-level character
// and keep merging the adjacent pair with the lowest merge rank (ties: the
// leftmost) until no adjacent pair has a merge. This gives the same tokens as
// the reference loop ("merge every occurrence of the best pair, repeat"), since a
// merge never creates another copy of the pair it merged.
//
// The reference loop rescans the word after each merge, O(n²) for an n-character
// word; here the symbols form a linked list and candidate pairs wait in a binary
// heap, so a word costs O(n log n) and no word needs to be cut short: a
// 100,000-character word gets exactly the tokens the reference would give.

/**
 * The merges as a lookup: pair of ids -> rank, and rank -> merged id. An open-addressing
 * hash table in one typed array (ids < 2^24, so a pair is two int32 keys), a slot's left id,
 * right id and rank side by side, so that a probe touches one cache line (three arrays: three
 * misses in a table of 12 MB): a million merges build in one linear pass with no per-entry
 * objects (a Map keyed by left * size + right held a boxed number per entry past 2^31, and its
 * garbage dominated the load).
 */
export class MergeTable {
  /** @param {number} count the most merges that will be added */
  constructor(count) {
    let capacity = 16;
    while (capacity < 2 * count) capacity *= 2;
    this.mask = capacity - 1;
    this.slots = new Int32Array(3 * capacity).fill(-1); // [left, right, rank]; left -1: empty
    this.mergedId = new Int32Array(count);
    this.size = 0;
    this.lastMerged = -2; // the merged id of the last merge added (the loader's guess at the next)
  }

  /** The slot (an index into slots) holding the pair, or the empty one where it would go. */
  slot(left, right) {
    const { slots, mask } = this;
    let i = (Math.imul(left, 0x9e3779b1) ^ Math.imul(right, 0x85ebca77)) & mask;
    while (slots[3 * i] !== -1 && (slots[3 * i] !== left || slots[3 * i + 1] !== right)) i = (i + 1) & mask;
    return 3 * i;
  }

  /** Adds the next merge (its rank is its order); a repeated pair keeps its first rank. */
  add(left, right, merged) {
    const at = this.slot(left, right);
    const slots = this.slots;
    if (slots[at] !== -1) return;
    slots[at] = left;
    slots[at + 1] = right;
    slots[at + 2] = this.size;
    this.mergedId[this.size++] = merged;
  }

  /** The pair's rank, or undefined when it has no merge. */
  rank(left, right) {
    const at = this.slot(left, right);
    return this.slots[at] === -1 ? undefined : this.slots[at + 2];
  }
}

/** A min-heap of (rank, position) pairs packed into one number, rank first. */
class PairHeap {
  constructor(width) {
    this.width = width; // positions are < width, so rank * width + position orders by rank, then position
    this.keys = [];
  }

  get size() {
    return this.keys.length;
  }

  push(rank, position) {
    const keys = this.keys;
    let i = keys.length;
    const key = rank * this.width + position;
    keys.push(key);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent] <= key) break;
      keys[i] = keys[parent];
      i = parent;
    }
    keys[i] = key;
  }

  /** Removes the smallest; returns [rank, position]. */
  pop() {
    const keys = this.keys;
    const top = keys[0];
    const last = keys.pop();
    const n = keys.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && keys[child + 1] < keys[child]) child++;
        if (keys[child] >= last) break;
        keys[i] = keys[child];
        i = child;
      }
      keys[i] = last;
    }
    return [Math.floor(top / this.width), top % this.width];
  }
}

/**
 * The token ids of one word given as the ids of its byte-level characters.
 * @param {number[]} symbols one id per byte-level character
 * @param {MergeTable} merges
 * @returns {number[]}
 */
export function bpe(symbols, merges) {
  const n = symbols.length;
  if (n < 2) return symbols.slice();
  const id = Int32Array.from(symbols);
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    next[i] = i + 1 < n ? i + 1 : -1;
    prev[i] = i - 1;
  }
  const alive = new Uint8Array(n).fill(1);
  const heap = new PairHeap(n);
  const consider = (left) => {
    const right = next[left];
    if (right === -1) return;
    const rank = merges.rank(id[left], id[right]);
    if (rank !== undefined) heap.push(rank, left);
  };
  for (let i = 0; i + 1 < n; i++) consider(i);

  while (heap.size > 0) {
    const [rank, left] = heap.pop();
    const right = next[left];
    // A stale entry: the left symbol was absorbed, or either side has grown since it was pushed.
    // A rank names exactly one pair, so the same rank means the same pair.
    if (!alive[left] || right === -1 || merges.rank(id[left], id[right]) !== rank) continue;
    id[left] = merges.mergedId[rank];
    alive[right] = 0;
    next[left] = next[right];
    if (next[right] !== -1) prev[next[right]] = left;
    if (prev[left] !== -1) consider(prev[left]);
    consider(left);
  }

  const out = [];
  for (let i = 0; i !== -1; i = next[i]) out.push(id[i]);
  return out;
}
