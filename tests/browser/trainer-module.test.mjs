// The trainers and their wasm module (dist/lib/trainers.js, cpp/trainer_bindings.cpp)
// load when a page first asks for them, not with the page: the site's lessons
// take the API without them (site-api.js). In the site (classic scripts) the API
// injects the data script attention-lab-trainers.js from beside itself, which
// loads from file:// too; a trainer read before that is a TypeError saying so.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FILE_URL, openPage, useBrowser } from './harness.mjs';

const env = useBrowser();

async function trainInPage(url) {
  const page = await openPage(env.browser, url);
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  const before = await page.evaluate(() => [...document.scripts].some((s) => /attention-lab-trainers/.test(s.src)));
  assert.equal(before, false, 'the trainers are not part of the page load');
  const result = await page.evaluate(async () => {
    const lib = globalThis.attentionLabData['attention-lab'];
    const a = await lib.loadAttention({ trainers: false });
    let early;
    try {
      void a.Seq2SeqTrainer;
    } catch (error) {
      early = `${error.name}: ${error.message}`;
    }
    const same = (await lib.loadAttention()) === a; // the default loads the trainers
    const t = new a.Seq2SeqTrainer({ task: 'reverse', hidden: 4, embedding: 2, batch: 2, seed: 0 });
    const step = t.train(2).step;
    const isMatrix = t.translate('12').attention instanceof a.Matrix;
    t.delete();
    return { early, same, step, isMatrix };
  });
  assert.match(
    result.early,
    /^TypeError: Seq2SeqTrainer: the trainers are not loaded: await a\.loadTrainers\(\) first/,
  );
  assert.deepEqual({ ...result, early: undefined }, { early: undefined, same: true, step: 2, isMatrix: true });
  const loads = requests.filter((u) => u.endsWith('attention-lab-trainers.js'));
  assert.equal(loads.length, 1, 'the trainers load attention-lab-trainers.js once');
  assert.deepEqual(page.errors, []);
  await page.context().close();
}

test('site from file://: the trainers load on first use from their data script', () => trainInPage(FILE_URL));
test('site over http: the trainers load on first use from their data script', () => trainInPage(env.url));
