// Strings cross into the core as UTF-8. A lone surrogate (one half of a UTF-16
// pair) has no UTF-8 form, and Embind's encoder would fuse it with the next
// code unit, swallowing a character. Every string is made well-formed first:
// each lone surrogate becomes U+FFFD, exactly what TextEncoder writes.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `text` with every unpaired surrogate replaced by U+FFFD. */
export function wellFormed(text) {
  if (typeof text.isWellFormed === 'function') return text.isWellFormed() ? text : text.toWellFormed();
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/** UTF-8 bytes of a well-formed string. */
function utf8Length(text) {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4; // a pair (the string is well-formed)
      i++;
    } else bytes += 3;
  }
  return bytes;
}

// Strings up to this many UTF-16 units cross unchecked: even if the heap were full, Embind's
// copy would land below the core's static data (Emscripten's GLOBAL_BASE, 1024).
const SHORT_STRING = 64;
// Room for what the same call allocates before it copies the string (a trainer, its options).
const STRING_SLACK = 1 << 16;

/**
 * `text` made well-formed, once the wasm heap is known to hold its UTF-8 form. Embind copies a
 * string argument into memory from _malloc without checking for 0: a string that does not fit
 * would be written from address 0 over the core's static data (a full heap and a 12 MB string
 * trapped the whole module). So the room is allocated and freed first: in a single-threaded heap
 * the copy that follows gets it.
 * @param {any} core the Emscripten module
 * @param {string} text
 * @param {string} fn public function name, for messages
 * @param {string} arg argument name, for messages
 */
export function coreString(core, text, fn, arg) {
  const formed = wellFormed(text);
  if (formed.length <= SHORT_STRING) return formed;
  const bytes = utf8Length(formed);
  const room = core._malloc(bytes + STRING_SLACK) >>> 0;
  if (room === 0) throw new RangeError(`${fn}: ${arg} (${bytes} bytes of UTF-8) does not fit in the wasm memory`);
  core._free(room);
  return formed;
}
