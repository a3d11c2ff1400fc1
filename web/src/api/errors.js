// The one place that turns what went wrong into an Error.
//
// Convention, for every public function and class:
//   TypeError  - a JS value of the wrong type (a string where a matrix goes, an
//                unknown option, a deleted object);
//   RangeError - a value or shape the maths cannot take (NaN, ragged rows,
//                sizes that disagree, results too large for the wasm memory).
// The message always starts with the public function's name and names the
// argument and its shape. The JS layer checks JS types and the sizes it must
// know before allocating; the C++ core checks values and shapes, once, and
// reports a StatusCode whose Error class it also names (cpp/status.h).

/** A short description of a value's type for messages ("a string", "null", "a Float32Array"). */
export function describe(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (ArrayBuffer.isView(value)) return `a ${value.constructor?.name ?? 'typed array'}`;
  if (typeof value === 'object') {
    if (isPlainObject(value)) return 'an object';
    const name = Object.getPrototypeOf(value)?.constructor?.name;
    return typeof name === 'string' && name !== '' ? `a ${name}` : 'an object';
  }
  return `a ${typeof value}`;
}

/** An object literal (its prototype is some realm's Object.prototype, or null). */
export function isPlainObject(value) {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * Throws the Error for a status the core returned; does nothing for Ok.
 * @param {any} core the Emscripten module
 * @param {{value: number}} code a bound StatusCode
 * @param {string} fn public function name
 */
export function throwForStatus(core, code, fn) {
  if (code === core.StatusCode.Ok) return;
  const ErrorClass = core._errorClass(code) === 'TypeError' ? TypeError : RangeError;
  throw new ErrorClass(`${fn}: ${core._lastError()}`);
}

/** `object[key]` if it is the object's own property, else undefined (Object.prototype is never read). */
export const ownProperty = (object, key) => (Object.hasOwn(object, key) ? object[key] : undefined);

/**
 * Runs `body`; a C++ exception that left the core through Embind (std::bad_alloc while it
 * converted an argument or constructed an object: a WebAssembly.Exception, not an Error)
 * becomes a RangeError naming `fn`.
 * @template T
 * @param {string} fn public function name
 * @param {() => T} body
 * @returns {T}
 */
export function coreCall(fn, body) {
  try {
    return body();
  } catch (error) {
    throw asError(error, fn);
  }
}

/** `error`, or for a WebAssembly.Exception (a C++ exception that left the core) a RangeError naming `fn`. */
export function asError(error, fn) {
  if (typeof WebAssembly.Exception === 'function' && error instanceof WebAssembly.Exception)
    return new RangeError(`${fn}: the wasm memory is full`, { cause: error });
  return error;
}

/** A number, else TypeError. */
export function requireNumber(value, fn, name) {
  if (typeof value !== 'number') throw new TypeError(`${fn}: ${name} must be a number, got ${describe(value)}`);
  return value;
}

/**
 * A safe integer in [min, max]: TypeError if not a number, RangeError otherwise.
 * Every integer that crosses into the core passes here first, so none wraps.
 */
export function requireInteger(value, fn, name, min, max) {
  requireNumber(value, fn, name);
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(`${fn}: ${name} must be an integer in [${min}, ${max}], got ${value}`);
  }
  return value;
}

export function requireBoolean(value, fn, name) {
  if (typeof value !== 'boolean') throw new TypeError(`${fn}: ${name} must be true or false, got ${describe(value)}`);
  return value;
}

export function requireString(value, fn, name) {
  if (typeof value !== 'string') throw new TypeError(`${fn}: ${name} must be a string, got ${describe(value)}`);
  return value;
}

/** One of `allowed` (strings): TypeError for a non-string, RangeError for another string. */
export function requireOneOf(value, allowed, fn, name) {
  requireString(value, fn, name);
  if (!allowed.includes(value)) {
    throw new RangeError(`${fn}: ${name} must be one of ${allowed.map((x) => `'${x}'`).join(', ')}, got '${value}'`);
  }
  return value;
}

/**
 * An options object whose keys are all in `known`, as a null-prototype copy of
 * its own enumerable properties made once (undefined reads as {}): an option
 * set on Object.prototype is never read, and a getter runs once, here, not
 * again in the middle of the call. Unknown keys are a TypeError naming them,
 * so typos never pass silently.
 * @returns {Record<string, any>}
 */
export function readOptions(options, known, fn, name = 'options') {
  const copy = Object.create(null);
  if (options === undefined) return copy;
  if (!isPlainObject(options)) {
    // A Map, Promise or class instance has no own option keys: taking it as {} would hide the mistake.
    throw new TypeError(`${fn}: ${name} must be a plain object ({ ... }), got ${describe(options)}`);
  }
  const keys = Object.keys(options);
  const unknown = keys.filter((key) => !known.includes(key));
  if (unknown.length > 0) {
    throw new TypeError(
      `${fn}: unknown ${unknown.length === 1 ? 'option' : 'options'} ${unknown.map((k) => `'${k}'`).join(', ')}${name === 'options' ? '' : ` in ${name}`} (known: ${known.join(', ')})`,
    );
  }
  for (const key of keys) copy[key] = options[key];
  return copy;
}
