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
