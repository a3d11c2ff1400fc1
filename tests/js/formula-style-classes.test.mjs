// scripts/formula-style-classes.mjs: KaTeX's inline styles become classes (so
// the prerendered formulas need no style attribute under style-src 'self'), and
// the stylesheet gives each class exactly its style back.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import katex from 'katex';
import { classifyStyles, parseStyleSheet, styleClass, styleSheet } from '../../scripts/formula-style-classes.mjs';
import { KATEX_OPTIONS } from '../../web/src/site/formula-forms.js';

test('classifyStyles: the style goes into the class attribute, made when missing or empty; other attributes stay', () => {
  const styles = new Map();
  const a = styleClass('height:0.4306em;');
  const b = styleClass('top:-3.05em;');
  assert.equal(
    classifyStyles(
      '<span class="strut" style="height:0.4306em;"></span><span style="top:-3.05em;">x</span>' +
        '<span class="" style="top:-3.05em;"></span><mstyle displaystyle="true"></mstyle>' +
        '<svg xmlns="http://www.w3.org/2000/svg" width="1em" style="height:0.4306em;" viewBox="0 0 1 1"></svg>',
      styles,
    ),
    `<span class="strut ${a}"></span><span class="${b}">x</span>` +
      `<span class="${b}"></span><mstyle displaystyle="true"></mstyle>` +
      `<svg xmlns="http://www.w3.org/2000/svg" width="1em" class="${a}" viewBox="0 0 1 1"></svg>`,
  );
  assert.deepEqual(
    [...styles],
    [
      [a, 'height:0.4306em;'],
      [b, 'top:-3.05em;'],
    ],
  );
});

test('classifyStyles: two styles with one class name are refused', () => {
  const styles = new Map([[styleClass('height:1em;'), 'width:2em;']]);
  assert.throws(() => classifyStyles('<span style="height:1em;"></span>', styles), /share the class ks-/);
});

test('KaTeX output: no style attribute left, and the sheet maps every class back to its style (!important)', () => {
  const html = katex.renderToString('e = h^\\top H = \\big[\\, h^\\top \\bar h_1,\\; \\dots \\,\\big] + \\sqrt{d_k}', {
    ...KATEX_OPTIONS,
    displayMode: true,
  });
  const inline = [...html.matchAll(/\sstyle="([^"]*)"/g)].map((m) => m[1]);
  assert.ok(inline.length > 10, `${inline.length} style attributes in KaTeX's HTML`);
  const styles = new Map();
  const classified = classifyStyles(html, styles);
  assert.doesNotMatch(classified, /\sstyle="/);
  assert.deepEqual(new Set(styles.values()), new Set(inline));
  // The same text outside the tags (KaTeX's HTML minus every attribute is unchanged).
  const text = (h) => h.replace(/<[^>]*>/g, '');
  assert.equal(text(classified), text(html));
  const sheet = styleSheet(styles);
  assert.match(sheet, /^\.ks-\w+\{height:[\d.]+em!important(;vertical-align:-?[\d.]+em!important)?\}$/m);
  // Each class's declarations are its style's (less the style's final semicolon).
  const expected = [...styles].map(([name, style]) => [name, style.replace(/;$/, '')]);
  assert.deepEqual(parseStyleSheet(sheet), new Map(expected.sort(([x], [y]) => (x < y ? -1 : 1))));
});
