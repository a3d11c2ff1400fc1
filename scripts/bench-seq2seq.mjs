// Measures the seq2seq trainer in Node, single-threaded, through the built
// package (dist/lib): training steps per second, and the time the default
// trainer (`new Seq2SeqTrainer({ seed: 0 })`: dates, luong-general, hidden 64,
// batch 32) needs to reach 99% exact match on 500 held-out dates.
//
//   node scripts/bench-seq2seq.mjs [--attention luong-general] [--seconds 300]
//                                  [--every 50] [--target 0.99] [--seed 0]
//
// Prints the learning curve (steps, training wall time, CPU time, loss,
// held-out accuracy), then one summary line. Evaluation time is reported
// separately and not counted as training time. On a shared machine the wall
// time depends on the load; the CPU time of this process is the fairer figure.
import { performance } from 'node:perf_hooks';
import { loadAttention } from '../dist/lib/index.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const attention = option('attention', 'luong-general');
const budget = Number(option('seconds', 300));
const every = Number(option('every', 50));
const target = Number(option('target', 0.99));
const seed = Number(option('seed', 0));
const held = 500;

const a = await loadAttention();
const trainer = new a.Seq2SeqTrainer({ attention, seed });
const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

console.log(
  `seq2seq bench: dates task, ${attention}, options ${JSON.stringify(trainer.options)}, ${trainer.parameterCount} parameters`,
);
console.log(`evaluating exact match on ${held} held-out dates every ${every} steps; budget ${budget} s of training`);
console.log('steps  train_wall_s  train_cpu_s  steps/s(wall)  loss     accuracy  eval_s');
let wall = 0;
let cpu = 0;
let evalWall = 0;
let reached = null;
let accuracy = 0;
while (wall < budget) {
  const w0 = performance.now();
  const c0 = cpuSeconds();
  const loss = trainer.train(every);
  wall += (performance.now() - w0) / 1000;
  cpu += cpuSeconds() - c0;
  const e0 = performance.now();
  accuracy = trainer.evaluate(held);
  const evalSeconds = (performance.now() - e0) / 1000;
  evalWall += evalSeconds;
  console.log(
    `${String(trainer.steps).padStart(5)}  ${wall.toFixed(1).padStart(12)}  ${cpu.toFixed(1).padStart(11)}  ` +
      `${(trainer.steps / wall).toFixed(2).padStart(13)}  ${loss.toFixed(4).padEnd(7)}  ${accuracy.toFixed(3).padStart(8)}  ${evalSeconds.toFixed(2)}`,
  );
  if (accuracy >= target) {
    reached = { steps: trainer.steps, wall, cpu };
    break;
  }
}
const summary = {
  attention,
  stepsPerSecondWall: +(trainer.steps / wall).toFixed(2),
  stepsPerSecondCpu: +(trainer.steps / cpu).toFixed(2),
  target,
  reached: reached !== null,
  stepsToTarget: reached?.steps ?? null,
  secondsToTargetWall: reached ? +reached.wall.toFixed(1) : null,
  secondsToTargetCpu: reached ? +reached.cpu.toFixed(1) : null,
  finalAccuracy: accuracy,
  evaluationSeconds: +evalWall.toFixed(1),
};
console.log(
  reached
    ? `seq2seq: ${summary.stepsPerSecondWall} steps/s (${summary.stepsPerSecondCpu} per CPU second); ` +
        `>= ${target * 100}% held-out exact match after ${reached.steps} steps, ${summary.secondsToTargetWall} s wall / ${summary.secondsToTargetCpu} s CPU`
    : `seq2seq: ${summary.stepsPerSecondWall} steps/s; target ${target * 100}% NOT reached within ${budget} s (final accuracy ${accuracy})`,
);
console.log(`seq2seq summary ${JSON.stringify(summary)}`);
trainer.delete();
