// Reads back the arithmetic of an explanation (web/src/site/explain/): the
// expression before a story's last " = " is evaluated in interval arithmetic,
// every printed number standing for the interval it was rounded from (4
// significant digits as formatCell prints, 3 in exponent form), so a test can
// check that the numbers shown really give the value shown, within the
// printed precision.
import assert from 'node:assert/strict';

/** Half a unit in the last place formatCell keeps for `text` (e.g. "0.1192" → 5e-5). */
export function halfUnit(text) {
  const [mantissa, exponent] = text.split('e');
  if (exponent !== undefined) return 0.5 * 10 ** (Number(exponent) - (mantissa.split('.')[1]?.length ?? 0));
  const x = Math.abs(Number(text));
  if (x === 0) return 0;
  return 0.5 * 10 ** (Math.floor(Math.log10(x)) - 3);
}

const NUMBER = /^\d+(?:\.\d+)?(?:e[−-]?\d+)?/;

function tokenize(text) {
  const tokens = [];
  let s = text.trim();
  while (s.length > 0) {
    const number = NUMBER.exec(s);
    const name = /^(tanh|erf|max|sin|cos|exp)\b/.exec(s);
    if (number) {
      tokens.push({ number: number[0].replace('−', '-') });
      s = s.slice(number[0].length);
    } else if (name) {
      tokens.push({ name: name[1] });
      s = s.slice(name[0].length);
    } else if ('+−-·×/^()√,e'.includes(s[0])) {
      tokens.push({ op: s[0] === '-' ? '−' : s[0] === '×' ? '·' : s[0] });
      s = s.slice(1);
    } else if (s[0] === ' ') {
      s = s.slice(1);
    } else {
      throw new SyntaxError(`cannot read "${s}" in "${text}"`);
    }
  }
  return tokens;
}

const span = (values) => [Math.min(...values), Math.max(...values)];
const exact = (x) => [x, x];
/** f over [lo, hi]: its ends and 64 points between (the intervals are tiny; sin and cos may turn inside). */
const through = (f, [lo, hi]) => span(Array.from({ length: 65 }, (_, i) => f(lo + ((hi - lo) * i) / 64)));
const erf = (x) => {
  // Abramowitz and Stegun 7.1.26 (|error| < 1.5e-7), enough for 4 printed digits.
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return Math.sign(x) * y;
};
const FUNCTIONS = { tanh: Math.tanh, erf, sin: Math.sin, cos: Math.cos, exp: Math.exp };

/** Parses and evaluates the expression: [lo, hi] containing every value the printed numbers allow. */
export function evaluate(text) {
  const tokens = tokenize(text);
  let i = 0;
  const peek = () => tokens[i];
  const take = (op) => {
    if (peek()?.op !== op) throw new SyntaxError(`expected ${op} at token ${i} of "${text}"`);
    i++;
  };
  function expression() {
    let v = term();
    while (peek()?.op === '+' || peek()?.op === '−') {
      const op = tokens[i++].op;
      const w = term();
      v = op === '+' ? [v[0] + w[0], v[1] + w[1]] : [v[0] - w[1], v[1] - w[0]];
    }
    return v;
  }
  function term() {
    let v = unary();
    while (peek()?.op === '·' || peek()?.op === '/') {
      const op = tokens[i++].op;
      const w = unary();
      if (op === '/') assert.ok(w[0] > 0 || w[1] < 0, `division by an interval holding 0 in "${text}"`);
      const x = op === '/' ? [1 / w[1], 1 / w[0]] : w;
      v = span([v[0] * x[0], v[0] * x[1], v[1] * x[0], v[1] * x[1]]);
    }
    return v;
  }
  function unary() {
    if (peek()?.op === '−') {
      i++;
      const v = unary();
      return [-v[1], -v[0]];
    }
    return power();
  }
  function power() {
    const base = atom();
    if (peek()?.op !== '^') return base;
    i++;
    const e = unary();
    assert.ok(base[0] > 0, `a power of a base that may be ≤ 0 in "${text}"`);
    return span([base[0] ** e[0], base[0] ** e[1], base[1] ** e[0], base[1] ** e[1]]);
  }
  function atom() {
    const t = tokens[i++];
    if (!t) throw new SyntaxError(`"${text}" ends too soon`);
    if (t.number) {
      const h = halfUnit(t.number);
      return [Number(t.number) - h, Number(t.number) + h];
    }
    if (t.op === 'e') return exact(Math.E);
    if (t.op === '(') {
      const v = expression();
      take(')');
      return v;
    }
    if (t.op === '√') {
      const v = atom();
      return [Math.sqrt(v[0]), Math.sqrt(v[1])];
    }
    if (t.name === 'max') {
      take('(');
      const a = expression();
      take(',');
      const b = expression();
      take(')');
      return [Math.max(a[0], b[0]), Math.max(a[1], b[1])];
    }
    if (t.name) {
      take('(');
      const v = expression();
      take(')');
      return through(FUNCTIONS[t.name], v);
    }
    throw new SyntaxError(`unexpected ${JSON.stringify(t)} in "${text}"`);
  }
  const v = expression();
  if (i !== tokens.length) throw new SyntaxError(`"${text}" has more after token ${i}`);
  return v;
}

/**
 * The last step of a story: "… = <expression> = <value>…" → { expression, printed }
 * (printed: the number after the last " = ", with its text).
 */
export function lastStep(story) {
  const end = story.lastIndexOf(' = ');
  const start = story.lastIndexOf(' = ', end - 1);
  const printed = /^−?\d+(?:\.\d+)?(?:e[−-]?\d+)?/.exec(story.slice(end + 3));
  assert.ok(printed, `no number after the last " = " of "${story}"`);
  return { expression: story.slice(start + 3, end), printed: printed[0] };
}

/** A printed number's value ("−0.5" → -0.5, "1.23e-5"). */
export const valueOf = (text) => Number(text.replace(/−/g, '-'));

/**
 * Asserts that the story's last expression, evaluated from its printed numbers,
 * allows `value` (the op's own number, computed by the API), and that the
 * printed result is `value` within its last printed digit.
 */
export function assertArithmetic(story, value, label = story) {
  const { expression, printed } = lastStep(story);
  const [lo, hi] = evaluate(expression);
  const slack = 1e-12 * (1 + Math.abs(value)); // the computation's own rounding
  assert.ok(lo - slack <= value && value <= hi + slack, `${label}: ${expression} gives [${lo}, ${hi}], not ${value}`);
  const unit = halfUnit(printed.replace('−', ''));
  assert.ok(
    Math.abs(valueOf(printed) - value) <= unit + slack,
    `${label}: prints ${printed} for ${value} (half unit ${unit})`,
  );
}
