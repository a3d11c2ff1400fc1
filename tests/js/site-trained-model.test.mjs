// The pure parts of the chapter "A Transformer trained in your browser"
// (web/src/site/chapters/trained/model.js): the labels of the three uses' maps
// and the measures behind its sentences about the heads, on hand-made maps
// whose answers are worked out here (the claims on the shipped checkpoint,
// against their baselines: site-trained-claims.test.mjs).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  copyAlignment,
  dateFields,
  decoderPatterns,
  encoderPatterns,
  END,
  fieldAlignment,
  labelsFor,
  speedWhy,
  START,
  unreadable,
} from '../../web/src/site/chapters/trained/model.js';

/** A {rows, cols, data} matrix from an array of rows. */
const matrix = (rows) => ({ rows: rows.length, cols: rows[0].length, data: Float64Array.from(rows.flat()) });
/** A one-hot row of length n at j. */
const oneHot = (n, j) => Array.from({ length: n }, (_, k) => (k === j ? 1 : 0));

test('labelsFor: encoder n×n, decoder rows = output + end, decoder self keys = start + output', () => {
  assert.deepEqual(labelsFor('encoderSelf', 'a b', 'xy'), { rowLabels: ['a', '␣', 'b'], colLabels: ['a', '␣', 'b'] });
  assert.deepEqual(labelsFor('decoderSelf', 'a b', 'xy'), { rowLabels: ['x', 'y', END], colLabels: [START, 'x', 'y'] });
  assert.deepEqual(labelsFor('cross', 'a b', 'xy'), { rowLabels: ['x', 'y', END], colLabels: ['a', '␣', 'b'] });
});

test('dateFields: finds year, month (name or number) and day spans; null when a field is ambiguous', () => {
  assert.deepEqual(dateFields('21 November 2026', '2026-11-21'), { year: [12, 16], month: [3, 11], day: [0, 2] });
  assert.deepEqual(dateFields('Saturday 21/11/26', '2026-11-21'), { year: [15, 17], month: [12, 14], day: [9, 11] });
  assert.deepEqual(dateFields('2026 Nov 21st', '2026-11-21'), { year: [0, 4], month: [5, 8], day: [9, 11] });
  assert.deepEqual(dateFields('nov 3, 1999', '1999-11-03'), { year: [7, 11], month: [0, 3], day: [4, 5] });
  assert.equal(dateFields('11/11/11', '2011-11-11'), null); // every field is "11"
  assert.equal(dateFields('21 November 2026', '2026-11-2'), null); // not an ISO date
  assert.equal(dateFields('4 jul 1776', '1976-07-04'), null); // a wrong year is not found in the input
});

test('fieldAlignment: the share of each digit step on its input field, averaged over the 8 digits', () => {
  // input "3 may 2001" → "2001-05-03": day [0,1), month [2,5), year [6,10); 11 decoder steps × 10 input characters.
  const input = '3 may 2001';
  const output = '2001-05-03';
  const rows = [];
  // year steps 0..3 all on the year's first digit (in field), step 4 ('-') anywhere,
  // month steps 5, 6 half on 'm' (in field) and half on the day (out), step 7 anywhere,
  // day steps 8, 9 on the day, end step anywhere.
  for (let t = 0; t < 4; t++) rows.push(oneHot(10, 6));
  rows.push(oneHot(10, 1));
  for (let t = 5; t < 7; t++) rows.push(oneHot(10, 2).map((x, j) => (j === 2 ? 0.5 : j === 0 ? 0.5 : 0)));
  rows.push(oneHot(10, 1));
  for (let t = 8; t < 10; t++) rows.push(oneHot(10, 0));
  rows.push(oneHot(10, 9));
  // (4·1 + 2·0.5 + 2·1) / 8 = 0.875
  assert.equal(fieldAlignment(matrix(rows), input, output), 0.875);
  assert.ok(Number.isNaN(fieldAlignment(matrix(rows), '11/11/11', '2011-11-11')));
});

test('copyAlignment: the share on input characters equal to the one written', () => {
  // reverse "123" → "321": step t should look at input position 2 - t.
  const perfect = matrix([oneHot(3, 2), oneHot(3, 1), oneHot(3, 0), oneHot(3, 0)]);
  assert.equal(copyAlignment(perfect, '123', '321'), 1);
  const uniform = matrix(Array.from({ length: 4 }, () => [1 / 3, 1 / 3, 1 / 3]));
  assert.ok(Math.abs(copyAlignment(uniform, '123', '321') - 1 / 3) < 1e-15);
});

test('decoderPatterns: start token, the token just read (diagonal), the last "-"', () => {
  // output "1-2": keys ▶ 1 - 2; rows: steps writing 1, -, 2, end.
  const self = matrix([
    [1, 0, 0, 0],
    [0.5, 0.5, 0, 0], // reads "1": start 0.5, diagonal 0.5
    [0, 0, 1, 0], // reads "-": diagonal 1, last "-" (key 2) 1
    [0.25, 0, 0.75, 0], // reads "2": start 0.25, diagonal 0, last "-" 0.75
  ]);
  const p = decoderPatterns(self, '1-2');
  assert.equal(p.start, (0.5 + 0 + 0.25) / 3);
  assert.equal(p.current, (0.5 + 1 + 0) / 3);
  assert.equal(p.separator, (1 + 0.75) / 2);
});

test('encoderPatterns: the share inside a character’s own word or number', () => {
  // "ab 1": runs "ab" [0,2) and "1" [3,4); the space belongs to none.
  const self = matrix([
    [0.5, 0.5, 0, 0],
    [0, 0.25, 0.5, 0.25],
    [1, 0, 0, 0],
    [0, 0, 0, 1],
  ]);
  const p = encoderPatterns(self, 'ab 1');
  assert.equal(p.ownRun, (1 + 0.25 + 1) / 3);
  assert.equal(p.itself, (0.5 + 0.25 + 0 + 1) / 4);
});

test('unreadable: the first character outside the alphabet', () => {
  assert.equal(unreadable('12 mai', 'abcdefghijklmnopqrstuvwxyz0123456789 '), null);
  assert.equal(unreadable('12 mai!', 'abcdefghijklmnopqrstuvwxyz0123456789 '), '!');
});

test('speedWhy: gives a reason only for the direction the measurements show', () => {
  const row = (model, stepsToTarget, stepsPerSecondCpu) => ({
    model,
    task: 'dates',
    reached: true,
    stepsToTarget,
    stepsPerSecondCpu,
  });
  const both = speedWhy({ results: [row('transformer', 2100, 44), row('seq2seq (RNN + attention)', 300, 29.5)] });
  assert.match(
    both,
    /^Why, by design \(the benchmark does not separate these causes\): the RNN reads the characters in order/,
  );
  assert.match(both, /a Transformer step computes every position/);
  // The Transformer needing fewer steps and stepping slower: neither reason applies.
  assert.equal(speedWhy({ results: [row('transformer', 200, 20), row('seq2seq (RNN + attention)', 300, 29.5)] }), '');
  // Not reached: nothing to explain.
  assert.equal(speedWhy({ results: [{ ...row('transformer', 1, 1), reached: false }, row('seq2seq', 300, 29.5)] }), '');
});
