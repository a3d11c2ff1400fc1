// The trainers' option tables (web/src/api/trainer-options.js) against
// everything made from them: the generated C++ headers and .d.ts interfaces
// are what scripts/build-trainer-options.mjs makes now (so neither can drift
// from the table), and every option's bounds and wrong types, with cases
// generated from its row, get the error the table promises from the built core.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadAttention } from '../../dist/lib/index.js';
import { DTS_PATH, TRAINERS, cppHeader, dtsInterface, findInterface } from '../../scripts/build-trainer-options.mjs';
import { rangeText } from '../../web/src/api/trainer-options.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (path) => readFileSync(`${ROOT}/${path}`, 'utf8');
const a = await loadAttention();
const REGENERATE = 'run `node scripts/build-trainer-options.mjs`';

for (const t of TRAINERS) {
  test(`${t.trainer}: ${t.header} is what the table makes`, () => {
    assert.equal(read(t.header), cppHeader(t), `${t.header} differs from ${t.tableName}: ${REGENERATE}`);
  });

  test(`${t.trainer}: index.d.ts's ${t.tsInterface} and its enum types are what the table makes`, () => {
    const dts = read(DTS_PATH);
    const [start, end] = findInterface(dts, t.tsInterface);
    assert.equal(dts.slice(start, end), dtsInterface(t), `${t.tsInterface} differs from ${t.tableName}: ${REGENERATE}`);
    for (const row of t.table.filter((r) => r.type === 'string')) {
      const alias = new RegExp(`export type ${row.tsType} = ([^;]*);`).exec(dts);
      assert.ok(alias, `index.d.ts declares ${row.tsType}`);
      assert.deepEqual(
        alias[1].split('|').map((s) => s.trim()),
        row.values.map((v) => `'${v}'`),
      );
    }
  });

  test(`${t.trainer}: options come back in the table's order with its defaults`, () => {
    const trainer = new a[t.trainer]();
    try {
      assert.deepEqual(
        Object.entries(trainer.options),
        t.table.map((row) => [row.name, row.default]),
      );
    } finally {
      trainer.delete();
    }
  });
}

/** Options valid with `name` set to any in-range value: the defaults, and 1 head when d_model varies. */
function baseFor(table, name) {
  const base = Object.fromEntries(table.map((row) => [row.name, row.default]));
  for (const row of table) if (row.divides === name) base[row.name] = 1;
  return base;
}

const NEXT_UP = (x) => x + Math.max(Math.abs(x), 1) * Number.EPSILON;
const NEXT_DOWN = (x) => x - Math.max(Math.abs(x), 1) * Number.EPSILON;

/**
 * The cases of one option: [value, undefined] for a value the trainer takes,
 * [value, ErrorClass, message or RegExp] for one it refuses.
 */
function casesFor(row, base) {
  const range = (v) => `${row.name} must be an integer in ${rangeText(row)}, got ${v}`;
  switch (row.type) {
    case 'string':
      return [
        ...row.values.map((v) => [v]),
        ['nope', RangeError, `${row.name} must be one of ${row.values.map((v) => `'${v}'`).join(', ')}, got 'nope'`],
        [row.values[0].toUpperCase(), RangeError, /must be one of/],
        [1, TypeError, `${row.name} must be a string, got`],
        [null, TypeError, `${row.name} must be a string, got`],
      ];
    case 'uint32':
      return [
        [0],
        [2 ** 32 - 1],
        [-1, RangeError, range(-1)],
        [2 ** 32, RangeError, range(2 ** 32)],
        [0.5, RangeError, range(0.5)],
        ['0', TypeError, `${row.name} must be a number, got`],
      ];
    case 'int': {
      const cases = [
        [row.min],
        [row.max],
        [row.min - 1, RangeError, range(row.min - 1)],
        [row.max + 1, RangeError, range(row.max + 1)],
        [
          row.min + 0.5,
          RangeError,
          `${row.name} must be an integer in [-2147483648, 2147483647], got ${row.min + 0.5}`,
        ],
        [2 ** 31, RangeError, /must be an integer in \[-2147483648, 2147483647\]/],
        [NaN, RangeError, /must be an integer in/],
        [String(row.default), TypeError, `${row.name} must be a number, got`],
      ];
      if (row.even) cases.push([row.min + 1, RangeError, `${row.name} must be even (${row.even}), got ${row.min + 1}`]);
      if (row.divides) {
        const other = base[row.divides];
        assert.equal(other % row.max, 0, `${row.divides}'s default lets ${row.name} reach ${row.max}`);
        let v = row.min;
        while (other % v === 0) v++;
        cases.push([v, RangeError, `${row.name} = ${v} must divide ${row.divides} = ${other}`]);
      }
      return cases;
    }
    case 'number': {
      const shown = (v) => (Number.isNaN(v) ? 'NaN' : String(v));
      const refused = (v) => [v, RangeError, `${row.name} must be in ${rangeText(row)}, got ${shown(v)}`];
      return [
        row.minOpen ? refused(row.min) : [row.min],
        row.maxOpen ? refused(row.max) : [row.max],
        [NEXT_UP(row.min)],
        [NEXT_DOWN(row.max)],
        refused(row.min - 1),
        refused(row.max + 1),
        refused(NaN),
        [Infinity, RangeError, `${row.name} must be in ${rangeText(row)}, got`],
        [String(row.default), TypeError, `${row.name} must be a number, got`],
      ];
    }
    default:
      throw new Error(`unknown option type ${row.type}`);
  }
}

for (const t of TRAINERS) {
  for (const row of t.table) {
    test(`${t.trainer} option ${row.name} (${row.type}): every case made from its row`, () => {
      const base = baseFor(t.table, row.name);
      const cases = casesFor(row, base);
      for (const [value, ErrorClass, message] of cases) {
        const options = { ...base, [row.name]: value };
        const what = `${row.name}: ${typeof value === 'string' ? `'${value}'` : String(value)}`;
        if (!ErrorClass) {
          const trainer = new a[t.trainer](options);
          try {
            assert.equal(trainer.options[row.name], value, what);
          } finally {
            trainer.delete();
          }
          continue;
        }
        assert.throws(
          () => new a[t.trainer](options).delete(),
          (error) => {
            assert.ok(error instanceof ErrorClass, `${what}: ${error.name} ${error.message}`);
            assert.ok(error.message.startsWith(`${t.trainer}: `), `${what}: names the function: ${error.message}`);
            if (typeof message === 'string') assert.ok(error.message.includes(message), `${what}: ${error.message}`);
            else assert.match(error.message, message, what);
            return true;
          },
          what,
        );
      }
      assert.ok(cases.length >= 4);
    });
  }

  test(`${t.trainer}: only own keys are options; an inherited bad value is not read, an unknown key is named`, () => {
    // Every option set (to a bad value) on Object.prototype: none is read.
    for (const row of t.table) Object.prototype[row.name] = 12345.5;
    try {
      const trainer = new a[t.trainer]({});
      assert.deepEqual(
        Object.entries(trainer.options),
        t.table.map((row) => [row.name, row.default]),
      );
      trainer.delete();
    } finally {
      for (const row of t.table) delete Object.prototype[row.name];
    }
    assert.throws(() => new a[t.trainer]({ bogus: 1 }), {
      name: 'TypeError',
      message: `${t.trainer}: unknown option 'bogus' (known: ${t.table.map((row) => row.name).join(', ')})`,
    });
    assert.throws(() => new a[t.trainer](new Map()), { name: 'TypeError', message: /options must be a plain object/ });
    // The module keeps working after every refusal above.
    new a[t.trainer]().delete();
  });
}
