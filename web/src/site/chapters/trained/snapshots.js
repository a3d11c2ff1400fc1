// The training dashboard's memory (no DOM): what the model looked like at each
// evaluation (step, loss, held-out accuracy and every head map), so a reader
// can scrub back and watch heads go from uniform to sharp. Bounded: when full,
// every other older snapshot is dropped (the first and the newest stay), so a
// long run keeps an even sample of its history in fixed memory.
export class Snapshots {
  /** @param {number} limit the most snapshots kept (at least 2) */
  constructor(limit = 32) {
    this.limit = Math.max(2, limit);
    /** @type {Array<{steps: number}>} */
    this.items = [];
  }

  get length() {
    return this.items.length;
  }

  clear() {
    this.items = [];
  }

  /** Adds a snapshot; one at the same step as the newest replaces it (a retranslation). */
  add(snapshot) {
    const last = this.items[this.items.length - 1];
    if (last && last.steps === snapshot.steps) this.items[this.items.length - 1] = snapshot;
    else this.items.push(snapshot);
    if (this.items.length > this.limit) {
      const newest = this.items[this.items.length - 1];
      this.items = this.items.slice(0, -1).filter((_, i) => i % 2 === 0);
      this.items.push(newest);
    }
  }

  at(i) {
    return this.items[i];
  }
}
