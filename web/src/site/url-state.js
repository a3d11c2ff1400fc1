// All state lives in the URL hash (#chapter=basics&step=3&h=5,1,20), so a link
// restores the view. Values are strings; helpers below encode numbers.
// A state store reads and writes that text: the site uses the one over the
// URL hash (urlStore); every custom element gets its own memoryStore(), so two
// lessons on one page never share inputs and never touch the host page's URL.

/**
 * A store over `backend` ({ read(): string, write(text) }): the hash helpers
 * and a chapter's readState/writeState, bound to that text.
 */
export function createStore(backend) {
  const read = () => new URLSearchParams(backend.read().replace(/^#/, ''));
  const write = (params) => {
    const text = params.toString().replace(/%2C/g, ',').replace(/%3B/g, ';');
    if (text !== backend.read().replace(/^#/, '')) backend.write(text);
  };
  const setValues = (entries) => {
    const params = read();
    for (const [key, value] of Object.entries(entries)) {
      if (value === null || value === undefined) params.delete(key);
      else params.set(key, String(value));
    }
    write(params);
  };
  return {
    readHash: read,
    writeHash: write,
    setHashValues: setValues,
    readState: (schema) => readState(schema, read()),
    writeState: (schema, state) => setValues(stateEntries(schema, state)),
  };
}

/** The page's URL hash; replaced without adding a history entry for every keystroke. */
export const urlStore = createStore({
  read: () => globalThis.location?.hash ?? '',
  write: (text) => history.replaceState(history.state, '', `${location.pathname}${location.search}#${text}`),
});

/** A store of its own, in memory (custom elements on someone else's page). */
export function memoryStore(initial = '') {
  let text = initial;
  return createStore({ read: () => text, write: (next) => (text = next) });
}

export function readHash(hash) {
  return hash === undefined ? urlStore.readHash() : new URLSearchParams(hash.replace(/^#/, ''));
}

/** Writes the hash; no history write when it is unchanged. */
export const writeHash = (params) => urlStore.writeHash(params);

/**
 * Updates several keys at once (null or undefined deletes one; other values are
 * stringified) with a single write, so one edit is one history.replaceState.
 * @param {Record<string, unknown>} entries
 */
export const setHashValues = (entries) => urlStore.setHashValues(entries);

/** Updates one key (null deletes it) and writes the hash. */
export function setHashValue(key, value) {
  setHashValues({ [key]: value });
}

// ---- schemas ------------------------------------------------------------------
//
// Each chapter declares its URL state once, as TensorFlow Playground's
// State.PROPS does, and reads and writes it only through readState/writeState:
//
//   { key: 'len', name: 'inputLength', type: 'int', default: 5, min: 1, max: 20 }
//
// key       the hash key (kept short; existing permalinks keep working)
// name      the state property (default: key)
// type      'number' | 'int'    a finite number, clamped to [min, max]
//           'vector'            "1,2,3": `length` entries exactly (or up to maxLength)
//           'rows'              "1,2;3,4": `cols` numbers per row, minLength..maxLength rows
//           'bool'              '1' / '0' ('true' / 'false')
//           'enum'              one of `values` (numbers or strings)
//           'string'            at most maxLength characters (longer text is cut)
// default   the value when the key is absent or malformed; a value equal to it
//           is not written, so default states give short links
// valid     optional predicate on the parsed value (false → default)
//
// Malformed values fall back to the default; out-of-range numbers are clamped;
// sizes and lengths are bounded like the chapter's own controls, so a permalink
// can never request a giant matrix. Entries of vectors and rows must be finite
// and within ±1e12.

const MAX_ENTRY = 1e12;
const clamp = (x, min = -Infinity, max = Infinity) => Math.min(max, Math.max(min, x));

const PARSERS = {
  number: (text, p) => {
    const x = text.trim() === '' ? NaN : Number(text);
    return Number.isFinite(x) ? clamp(x, p.min, p.max) : undefined;
  },
  int: (text, p) => {
    const x = /^\s*[-+]?\d+\s*$/.test(text) ? Number(text) : NaN;
    return Number.isSafeInteger(x) ? clamp(x, p.min, p.max) : undefined;
  },
  vector: (text, p) => {
    const v = decodeVector(text);
    if (!v || v.some((x) => Math.abs(x) > MAX_ENTRY)) return undefined;
    if (p.length !== undefined ? v.length !== p.length : v.length > (p.maxLength ?? 64)) return undefined;
    return v;
  },
  rows: (text, p) => {
    const rows = decodeRows(text, p.cols);
    if (!rows || rows.length < (p.minLength ?? 1) || rows.length > (p.maxLength ?? 16)) return undefined;
    return rows.some((r) => r.some((x) => Math.abs(x) > MAX_ENTRY)) ? undefined : rows;
  },
  bool: (text) => ({ 1: true, true: true, 0: false, false: false })[text],
  enum: (text, p) => p.values.find((v) => String(v) === text),
  string: (text, p) =>
    Array.from(text)
      .slice(0, p.maxLength ?? 200)
      .join(''),
};

const ENCODERS = {
  vector: (v) => encodeVector(v),
  rows: (r) => encodeRows(r),
  bool: (b) => (b ? '1' : '0'),
};

const encode = (prop, value) => (ENCODERS[prop.type] ?? String)(value);
const nameOf = (prop) => prop.name ?? prop.key;

/** Parses one property's text (null when absent): its value, or its default. */
export function parseProp(prop, text) {
  if (!PARSERS[prop.type]) throw new TypeError(`url-state: unknown type ${prop.type} for key ${prop.key}`);
  if (text === null || text === undefined) return prop.default;
  const value = PARSERS[prop.type](String(text), prop);
  return value === undefined || (prop.valid && !prop.valid(value)) ? prop.default : value;
}

/**
 * Reads a chapter's state from the hash (or from `params`, for tests):
 * an object with one property per schema entry.
 * @param {Array<object>} schema
 * @param {URLSearchParams} [params]
 */
export function readState(schema, params = readHash()) {
  return Object.fromEntries(schema.map((prop) => [nameOf(prop), parseProp(prop, params.get(prop.key))]));
}

/**
 * The hash entries for a state: defaults and null/undefined values are left out.
 * @returns {Record<string, string|null>}
 */
export function stateEntries(schema, state) {
  return Object.fromEntries(
    schema.map((prop) => {
      const value = state[nameOf(prop)];
      if (value === null || value === undefined) return [prop.key, null];
      const text = encode(prop, value);
      const fallback = prop.default === null || prop.default === undefined ? null : encode(prop, prop.default);
      return [prop.key, text === fallback ? null : text];
    }),
  );
}

/** Writes a chapter's state into the hash with one history write. */
export function writeState(schema, state) {
  urlStore.writeState(schema, state);
}

export const encodeVector = (v) => v.map((x) => String(x)).join(',');
export const encodeRows = (rows) => rows.map(encodeVector).join(';');

/** Parses "1,2,3" into numbers; returns null unless every entry is a finite number. */
export function decodeVector(text, length) {
  if (!text) return null;
  const v = text.split(',').map(Number);
  if (v.some((x) => !Number.isFinite(x)) || (length !== undefined && v.length !== length)) return null;
  return v;
}

/** Parses "1,2;3,4" into rows of equal length; null if malformed. */
export function decodeRows(text, cols) {
  if (!text) return null;
  const rows = text.split(';').map((r) => decodeVector(r, cols));
  if (rows.some((r) => r === null) || rows.length === 0) return null;
  const width = rows[0].length;
  return rows.every((r) => r.length === width) ? rows : null;
}
