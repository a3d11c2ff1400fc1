// Typed arrays read through their internal slots, never through properties a
// caller can redefine. A subclass may report any `length`, `buffer` or
// Symbol.toStringTag it likes, and a length-tracking view of a resizable
// ArrayBuffer may grow between a check and a copy; the one truth is what the
// %TypedArray%.prototype getters return when applied to the array itself.
// Every array that enters the wasm heap is first made into an exactView:
// a fixed-length Float64Array/Float32Array of exactly the entries the call
// counted (rows x cols), over the same memory.

const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const intrinsic = (name) => Object.getOwnPropertyDescriptor(TypedArrayPrototype, name).get;
const tagGetter = intrinsic(Symbol.toStringTag);
const lengthGetter = intrinsic('length');
const bufferGetter = intrinsic('buffer');
const byteOffsetGetter = intrinsic('byteOffset');
const byteLengthGetter = intrinsic('byteLength');
// Null prototype: a polluted Object.prototype adds no element type.
const FLOAT_TYPES = Object.freeze(Object.assign(Object.create(null), { Float64Array, Float32Array }));

/**
 * The element type of a typed array of any realm ('Float64Array', 'Uint8Array', ...), read
 * from its internal slot; undefined for anything else (a subclass cannot lie here).
 * @returns {string | undefined}
 */
export const typedArrayName = (value) => Reflect.apply(tagGetter, value, []);

/** True for a Float64Array or Float32Array of any realm, subclasses included. */
export const isFloatTypedArray = (value) => typedArrayName(value) in FLOAT_TYPES;

/** The true number of entries of a typed array (0 once its buffer is detached or shrunk away). */
export const entryCount = (value) => Reflect.apply(lengthGetter, value, []);

/**
 * True if `buffer` (a typed array's own buffer) is a SharedArrayBuffer of any realm, which another
 * thread may write while we copy. Read from its tag: calling SharedArrayBuffer's byteLength getter
 * and catching the TypeError costs a thrown exception per call (4.5% of a 128 x 128 attention call).
 */
const isShared = (buffer) => Object.prototype.toString.call(buffer) === '[object SharedArrayBuffer]';

/**
 * A fixed-length view of exactly `count` entries at the start of `data` (a Float64Array or
 * Float32Array, checked by the caller), or a RangeError naming `fn` and `arg`.
 * The view does not follow later growth of a resizable buffer; if the buffer is detached or
 * shrunk later, copying from it throws instead of reading past it (checked again in heap.js).
 * A SharedArrayBuffer-backed array is copied into a private buffer first: another thread may
 * go on writing the shared one, and the call must read one consistent snapshot.
 * @param {Float64Array | Float32Array} data
 * @param {number} count entries the call counted (rows x cols)
 * @param {string} fn public function name, for messages
 * @param {string} arg argument name, for messages
 * @param {boolean} [snapshotShared] false for an array the call writes (options.out)
 * @returns {Float64Array | Float32Array}
 */
export function exactView(data, count, fn, arg, snapshotShared = true) {
  const name = typedArrayName(data);
  const Type = FLOAT_TYPES[name];
  const length = entryCount(data);
  if (length !== count) {
    throw new RangeError(
      `${fn}: ${arg} has ${length} entries${length === 0 ? ' (or its buffer was detached)' : ''} but ${count} are needed`,
    );
  }
  const buffer = Reflect.apply(bufferGetter, data, []);
  const offset = Reflect.apply(byteOffsetGetter, data, []);
  if (snapshotShared && isShared(buffer)) {
    const snapshot = new Type(count);
    snapshot.set(new Type(buffer, offset, count));
    return snapshot;
  }
  return new Type(buffer, offset, count);
}

/** The bytes of a typed array (any element type, subclasses included) as a plain Uint8Array over the same memory. */
export function bytesView(value) {
  const buffer = Reflect.apply(bufferGetter, value, []);
  return new Uint8Array(buffer, Reflect.apply(byteOffsetGetter, value, []), Reflect.apply(byteLengthGetter, value, []));
}
