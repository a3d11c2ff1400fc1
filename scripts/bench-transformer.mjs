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
// --write stores the results in web/src/site/chapters/training-speed.js, which the
// chapter "A Transformer trained in your browser" prints (with the date and
// the machine's CPU), so the page quotes a measurement, not a claim.
//
// Evaluation runs every `every` steps and is not counted as training time. On
// a shared machine the wall time depends on the load; the CPU time of this
// process is the fairer figure, and both are printed.
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { loadAttention } from '../dist/lib/index.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const budget = Number(option('seconds', 240));
const target = Number(option('target', 0.99));
const only = option('only', null);
const tasks = option('tasks', 'dates,sort').split(',');
const held = 1000;

const a = await loadAttention();
const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const mean = (x) => (typeof x === 'number' ? x : x.reduce((s, v) => s + v, 0) / x.length);

function bench(name, trainer, every) {
  const task = trainer.options.task;
  console.log(`\n${name} on ${task}: options ${JSON.stringify(trainer.options)}, ${trainer.parameterCount} parameters`);
  console.log('steps  train_wall_s  train_cpu_s  steps/s(cpu)  loss     accuracy  eval_s');
  let wall = 0;
  let cpu = 0;
  let reached = null;
  let accuracy = 0;
  let best = { accuracy: -1 };
  while (cpu < budget) {
    const w0 = performance.now();
    const c0 = cpuSeconds();
    const loss = mean(trainer.train(every));
    wall += (performance.now() - w0) / 1000;
    cpu += cpuSeconds() - c0;
    const e0 = performance.now();
    accuracy = trainer.evaluate(held);
    const evalSeconds = (performance.now() - e0) / 1000;
    console.log(
      `${String(trainer.steps).padStart(5)}  ${wall.toFixed(1).padStart(12)}  ${cpu.toFixed(1).padStart(11)}  ` +
        `${(trainer.steps / cpu).toFixed(2).padStart(12)}  ${loss.toFixed(4).padEnd(7)}  ${accuracy.toFixed(3).padStart(8)}  ${evalSeconds.toFixed(2)}`,
    );
    if (accuracy > best.accuracy) best = { accuracy, steps: trainer.steps, cpu };
    if (accuracy >= target) {
      reached = { steps: trainer.steps, wall, cpu };
      break;
    }
  }
  const steps = trainer.steps;
  trainer.delete();
  return {
    model: name,
    task,
    stepsPerSecondWall: +(steps / wall).toFixed(2),
    stepsPerSecondCpu: +(steps / cpu).toFixed(2),
    target,
    reached: reached !== null,
    stepsToTarget: reached?.steps ?? null,
    secondsToTargetWall: reached ? +reached.wall.toFixed(1) : null,
    secondsToTargetCpu: reached ? +reached.cpu.toFixed(1) : null,
    finalAccuracy: accuracy,
    bestAccuracy: best.accuracy,
    stepsToBest: best.steps,
    secondsToBestCpu: +best.cpu.toFixed(1),
  };
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
if (args.includes('--write')) {
  const file = new URL('../web/src/site/chapters/training-speed.js', import.meta.url);
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
