// The base of every object that owns memory in the wasm core (RandomState,
// Embeddings, Seq2SeqTrainer). It holds the raw Embind object and frees it in
// delete(), in `using` blocks ([Symbol.dispose]) and, as a safety net, when the
// JS object is garbage-collected without either (FinalizationRegistry).
//
// The raw object is reachable only through rawOf(), which this package's
// modules import and callers cannot: Embind methods take heap addresses, so
// handing one out would let a caller choose where the core writes. A method
// takes the raw object after reading its arguments (a getter among them may
// call delete()), so a deletion mid-call is this file's TypeError naming the
// object, never Embind's.

const dispose = Symbol.dispose ?? Symbol.for('Symbol.dispose');

const dropped = new FinalizationRegistry((raw) => {
  try {
    raw.delete();
  } catch {
    // already freed: nothing to do
  }
});

/**
 * The raw Embind object of `handle`, or a TypeError naming `method` if it was deleted.
 * @type {(handle: OwnedHandle, method: string) => any}
 */
export let rawOf;

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

  static {
    rawOf = (handle, method) => {
      if (!(#raw in handle)) throw new TypeError(`${method}: not an attention-lab object`);
      if (handle.#raw === null) throw new TypeError(`${handle.#kind}.${method}: this ${handle.#kind} was deleted`);
      return handle.#raw;
    };
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
