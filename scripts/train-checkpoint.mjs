// Trains the checkpoint the chapter loads when it opens:
// web/assets/seq2seq-dates.b64.txt (the checkpoint bytes of save(), base64, so
// that the site bundle can inline it as text and work from file://), from `new Seq2SeqTrainer({ seed: 0 })` (the
// defaults: dates, luong-general) trained for a fixed number of steps. Training
// is deterministic, so rerunning this reproduces the file byte for byte on the
// same build of the wasm core.
//
//   npm run train-checkpoint          (after npm run build)
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAttention } from '../dist/lib/index.js';

export const CHECKPOINT_STEPS = 1200;
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'web', 'assets', 'seq2seq-dates.b64.txt');

const a = await loadAttention();
const trainer = new a.Seq2SeqTrainer({ seed: 0 });
const start = Date.now();
while (trainer.steps < CHECKPOINT_STEPS) {
  const { loss } = trainer.train(100);
  console.log(`step ${trainer.steps}: loss ${loss.toFixed(4)} (${((Date.now() - start) / 1000).toFixed(0)} s)`);
}
const accuracy = trainer.evaluate(1000);
const bytes = trainer.save();
writeFileSync(out, `${Buffer.from(bytes).toString('base64')}\n`);
console.log(
  `wrote ${out}: a ${bytes.length}-byte checkpoint, ${trainer.steps} steps, exact match on all 1000 held-out dates ${(accuracy * 100).toFixed(1)}%`,
);
trainer.delete();
