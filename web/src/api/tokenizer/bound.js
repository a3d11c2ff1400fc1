// A cheap lower bound on the number of tokens a tokenizer gives a text, so a
// model refuses a text that cannot fit its positions before tokenizing it
// (a 4 MB string is refused in O(1) or one early-stopping scan, not after
// seconds of encoding). Each tokenizer class implements it under this symbol:
// not public API, and provably never more than encode(text) would give.

/** `tokenizer[LEAST_TOKENS](text, most)`: a lower bound (it may stop counting once past `most`). */
export const LEAST_TOKENS = Symbol('leastTokens');
