// A host page's root font size does not reach inside the elements: with the
// common `html { font-size: 62.5% }` (1rem = 10px), every element of a Basics
// and a Q/K/V lesson (its matrix editors) and of a heatmap has the computed font
// size it has on a page without the rule, and the lessons are as tall (their
// paddings and margins did not shrink either). Lesson text used to drop to 9.5 px.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openPage, SITE_DIR, startBrowser } from './harness.mjs';
import { serve } from '../../scripts/serve.mjs';

const ELEMENTS = `<script type="module" src="elements/attention-lab-elements.js"></script>
<p id="host-text">Course text</p>
<attention-lesson chapter="basics"></attention-lesson>
<attention-lesson chapter="qkv"></attention-lesson>
<attention-heatmap data="[[1,2],[3,4]]" row-labels='["a","b"]' col-labels='["x","y"]'></attention-heatmap>`;

let env;
let hostDir;
let host;
before(async () => {
  env = await startBrowser();
  hostDir = mkdtempSync(join(tmpdir(), 'attention-lab-root-font-'));
  for (const dir of ['lib', 'elements', 'classic', 'site']) symlinkSync(join(SITE_DIR, '..', dir), join(hostDir, dir));
  const page = (head) => `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">${head}\n${ELEMENTS}`;
  writeFileSync(join(hostDir, 'plain.html'), page(''));
  writeFileSync(join(hostDir, 'small-root.html'), page('<style>html { font-size: 62.5%; }</style>'));
  host = await serve({ root: hostDir });
});
after(async () => {
  await env?.close();
  if (host) await new Promise((ok) => host.server.close(ok));
  if (hostDir) rmSync(hostDir, { recursive: true, force: true });
});

/** The host's text size, and per element (lessons, heatmap): every node's computed font size and the element's height. */
async function measure(name) {
  const page = await openPage(env.browser, `${host.url}${name}.html`, { waitForReady: false });
  for (const id of ['basics', 'qkv'])
    await page
      .locator(`attention-lesson[chapter="${id}"] article[data-chapter="${id}"] .formula .katex`)
      .first()
      .waitFor();
  await page.locator('attention-heatmap canvas').first().waitFor();
  await page.evaluate(() => document.fonts.ready);
  const result = await page.evaluate(() => ({
    host: getComputedStyle(document.getElementById('host-text')).fontSize,
    elements: [...document.querySelectorAll('attention-lesson, attention-heatmap')].map((element) => ({
      name: element.getAttribute('chapter') ?? element.localName,
      height: element.getBoundingClientRect().height,
      sizes: [...element.shadowRoot.querySelectorAll('*')].map(
        (node) => `${node.localName}.${node.getAttribute('class') ?? ''}: ${getComputedStyle(node).fontSize}`,
      ),
    })),
  }));
  assert.deepEqual(page.errors, []);
  await page.context().close();
  return result;
}

test('html { font-size: 62.5% } on the host page: lessons and heatmaps keep their font sizes and heights', async () => {
  const plain = await measure('plain');
  const small = await measure('small-root');
  assert.equal(plain.host, '16px');
  assert.equal(small.host, '10px', 'the rule applies to the host page');
  const body = (m) => m.elements[0].sizes.filter((s) => s.startsWith('p.'));
  console.log(
    `# lesson paragraph sizes: ${[...new Set(body(plain))].join(', ')} | with the rule: ${[...new Set(body(small))].join(', ')}`,
  );
  for (const [i, element] of plain.elements.entries()) {
    const other = small.elements[i];
    assert.ok(
      element.sizes.length > 50 || element.name === 'attention-heatmap',
      `${element.name}: ${element.sizes.length}`,
    );
    const differ = element.sizes.filter((s, j) => s !== other.sizes[j]);
    assert.equal(other.sizes.length, element.sizes.length, element.name);
    assert.deepEqual(differ.slice(0, 5), [], `${element.name}: ${differ.length} nodes' font sizes changed`);
    assert.ok(
      Math.abs(other.height - element.height) < 0.5,
      `${element.name}: ${element.height} → ${other.height} px tall`,
    );
  }
});
