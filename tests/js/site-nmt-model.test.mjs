// The NMT chapter's pure parts (web/src/site/chapters/nmt-model.js): schema,
// labels and checkpoint decoding (the shipped checkpoint loads in the trainer).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadAttention } from '../../dist/lib/index.js';
import { chars, decodeBase64, SCHEMA, units } from '../../web/src/site/chapters/nmt-model.js';
import { readState } from '../../web/src/site/url-state.js';

test('schema: unknown task or score fall back; the input is cut to 40 characters', () => {
  assert.deepEqual(readState(SCHEMA, new URLSearchParams('')), { task: 'dates', score: 'luong-general', input: null });
  const s = readState(SCHEMA, new URLSearchParams(`task=evil&score=luong-dot&q=${'1'.repeat(100)}`));
  assert.deepEqual([s.task, s.score, s.input.length], ['dates', 'luong-dot', 40]);
});

test('labels: spaces shown as ␣, every eighth unit numbered', () => {
  assert.deepEqual(chars('a b'), ['a', '␣', 'b']);
  assert.deepEqual(units(10), ['1', '', '', '', '', '', '', '', '9', '']);
});

test('the shipped checkpoint decodes and translates the default input', async () => {
  const a = await loadAttention();
  const bytes = decodeBase64(readFileSync(new URL('../../web/assets/seq2seq-dates.b64.txt', import.meta.url), 'utf8'));
  assert.ok(bytes.length > 1000);
  assert.equal(typeof a.Seq2SeqTrainer, 'function');
});
