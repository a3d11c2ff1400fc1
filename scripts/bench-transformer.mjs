// Measures the Transformer trainer next to the RNN with attention (seq2seq) in
// the same Node process, single-threaded, through the built package
// (dist/lib): training steps per second, and the steps and time each default
// trainer (seed 0, batch 32) needs to reach 99% exact match on all 1000
// held-out examples of each task (dates, then sort), or the best it reached
// within the budget.
//
//   node scripts/bench-transformer.mjs [--seconds 240] [--every 100] [--target 0.99]
//                                      [--only transformer|seq2seq] [--tasks dates,sort] [--write]
//
// --write stores the results in web/src/site/lesson-kit/training-speed.js, which the
// chapter "A Transformer trained in your browser" prints (with the date and
// the machine's CPU), so the page quotes a measurement, not a claim.
//
// Evaluation runs every `every` steps and is not counted as training time. On
// a shared machine the wall time depends on the load; the CPU time of this
// process is the fairer figure, and both are printed (the loop: scripts/trainer-bench.mjs).
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { loadAttention } from '../dist/lib/index.js';
import { option, trainToTarget } from './trainer-bench.mjs';

const budget = Number(option('seconds', 240));
const target = Number(option('target', 0.99));
const only = option('only', null);
const tasks = option('tasks', 'dates,sort').split(',');
const held = 1000;

const a = await loadAttention();

function bench(name, trainer, every) {
  const task = trainer.options.task;
  console.log(`\n${name} on ${task}: options ${JSON.stringify(trainer.options)}, ${trainer.parameterCount} parameters`);
  const result = trainToTarget(trainer, { every, held, target, budget, clock: 'cpu' });
  trainer.delete();
  return { model: name, task, ...result };
}

const results = [];
for (const task of tasks) {
  if (only !== 'seq2seq') {
    results.push(bench('transformer', new a.TransformerTrainer({ task }), Number(option('every', 100))));
  }
  if (only !== 'transformer') results.push(bench('seq2seq (RNN + attention)', new a.Seq2SeqTrainer({ task }), 50));
}
console.log('');
for (const r of results) {
  console.log(
    r.reached
      ? `${r.model} on ${r.task}: ${r.stepsPerSecondCpu} steps per CPU second (${r.stepsPerSecondWall} per wall second); ` +
          `>= ${target * 100}% exact match on ${held} held-out ${r.task} examples after ${r.stepsToTarget} steps, ` +
          `${r.secondsToTargetCpu} s CPU / ${r.secondsToTargetWall} s wall`
      : `${r.model} on ${r.task}: target ${target * 100}% NOT reached within ${budget} s CPU (best ` +
          `${r.bestAccuracy} after ${r.stepsToBest} steps, ${r.secondsToBestCpu} s CPU; final ${r.finalAccuracy})`,
  );
}
console.log(`transformer bench summary ${JSON.stringify(results)}`);
if (process.argv.includes('--write')) {
  const file = new URL('../web/src/site/lesson-kit/training-speed.js', import.meta.url);
  const measured = {
    date: new Date().toISOString().slice(0, 10),
    cpu: cpus()[0]?.model ?? 'unknown',
    node: process.version,
  };
  const speeds = JSON.stringify({ ...measured, heldOut: held, results }, null, 2);
  writeFileSync(
    file,
    '// Training speeds measured by `node scripts/bench-transformer.mjs --write` (do not edit):\n' +
      `// the chapter "A Transformer trained in your browser" prints them.\nexport default ${speeds};\n`,
  );
  console.log(`wrote ${file.pathname}`);
}
