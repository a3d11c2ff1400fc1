// Compiled by `tsc --strict`: loadTokenizer as a page uses it.
import { loadTokenizer, type BpeTokenizer, type TokenizerFiles } from '../../dist/lib/index.js';

export function tokenizerUsage(json: ArrayBuffer, vocab: string, merges: string): number {
  const files: TokenizerFiles = { 'tokenizer.json': json, 'config.json': 'ignored' };
  const t = loadTokenizer(files);
  // @ts-expect-error a WordPiece tokenizer may come back: narrow by kind first
  t.encode('Hello', { addSpecialTokens: false });
  if (t.kind !== 'bpe') return t.encode('Hello', 'a pair').typeIds.length;
  const bpe: BpeTokenizer = t;
  const { ids, tokens, pieces } = bpe.encode('Hello', { addSpecialTokens: false });
  const gpt2 = loadTokenizer({ 'vocab.json': vocab, 'merges.txt': merges });
  // @ts-expect-error merges.txt is text or bytes, not parsed JSON
  loadTokenizer({ 'merges.txt': { a: 1 } });
  // @ts-expect-error encode takes text
  bpe.encode(['Hello']);
  return (
    ids.length + tokens.length + pieces.length + bpe.decode(ids).length + bpe.tokenText(ids[0]).length + gpt2.vocabSize
  );
}
