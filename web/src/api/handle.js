// The base of every object that owns memory in the wasm core (RandomState,
// Embeddings, Seq2SeqTrainer). It holds the raw Embind object and frees it in
// delete(), in `using` blocks ([Symbol.dispose]) and, as a safety net, when the
// JS object is garbage-collected without either (FinalizationRegistry).

const dispose = Symbol.dispose ?? Symbol.for('Symbol.dispose');

const dropped = new FinalizationRegistry((raw) => {
  try {
    raw.delete();
  } catch {
    // already freed: nothing to do
  }
});

export class OwnedHandle {
  /** @type {any} the Embind object; null once freed */
  #raw;
  #kind;

  /**
   * @param {any} raw an Embind object this wrapper now owns
   * @param {string} kind the public class name, for messages
   */
  constructor(raw, kind) {
    this.#raw = raw;
    this.#kind = kind;
    dropped.register(this, raw, this);
  }

  /** The raw object, or a TypeError naming `method` if this object was deleted. */
  raw(method) {
    if (this.#raw === null) throw new TypeError(`${this.#kind}.${method}: this ${this.#kind} was deleted`);
    return this.#raw;
  }

  /** True once delete() ran. */
  get deleted() {
    return this.#raw === null;
  }

  /** Frees the wasm memory now. Later calls throw TypeError; a second delete() does nothing. */
  delete() {
    if (this.#raw === null) return;
    dropped.unregister(this);
    this.#raw.delete();
    this.#raw = null;
  }

  [dispose]() {
    this.delete();
  }
}
