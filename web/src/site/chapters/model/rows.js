// The attention rows the chapter holds for one text (no DOM): the run's maps for
// the sentence's tokens, then one row per position that generation adds. A row
// is stored under its query's position (its length − 1 for a causal model: a
// query reads itself and every earlier token), so the maps grow a row a step.

export class AttentionRows {
  /**
   * @param {{ rows: number, cols: number, data: ArrayLike<number> }[][]} attentions the run's (T × T) maps, layers × heads
   * @param {boolean} causal
   */
  constructor(attentions, causal) {
    this.layers = attentions.length;
    this.heads = attentions[0]?.length ?? 0;
    this.causal = causal;
    this.promptLength = attentions[0]?.[0]?.rows ?? 0;
    /** position -> layers × heads rows */
    this.byPosition = [];
    const T = this.promptLength;
    for (let i = 0; i < T; i++)
      this.byPosition[i] = attentions.map((heads) =>
        heads.map((m) => Float32Array.from({ length: causal ? i + 1 : T }, (_, j) => m.data[i * m.cols + j])),
      );
  }

  /** Adds a generated step's rows (layers × heads, each over every position up to its query's): returns that position. */
  add(attentions) {
    const at = attentions[0][0].length - 1;
    if (attentions.length !== this.layers || attentions[0].length !== this.heads)
      throw new RangeError(
        `AttentionRows.add: a step has ${attentions.length} × ${attentions[0].length} rows, the model ${this.layers} × ${this.heads}`,
      );
    this.byPosition[at] = attentions.map((heads) => heads.map((row) => Float32Array.from(row)));
    return at;
  }

  /** How many positions have rows (the first missing one ends them). */
  get length() {
    let n = 0;
    while (this.byPosition[n]) n++;
    return n;
  }

  /** Layer `l`, head `h`'s row of query `i`. */
  row(l, h, i) {
    return this.byPosition[i][l][h];
  }

  /** Layer `l`, head `h`'s map over the first `n` positions (n × n, zero above the rows' ends). */
  matrix(l, h, n = this.length) {
    const data = new Float32Array(n * n);
    for (let i = 0; i < n; i++) {
      const row = this.row(l, h, i);
      data.set(row.length > n ? row.subarray(0, n) : row, i * n);
    }
    return { rows: n, cols: n, data };
  }
}
