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
// The loop itself is scripts/trainer-bench.mjs, shared with bench-transformer.mjs.
import { loadAttention } from '../dist/lib/index.js';
import { option, trainToTarget } from './trainer-bench.mjs';

const attention = option('attention', 'luong-general');
const budget = Number(option('seconds', 300));
const every = Number(option('every', 50));
const target = Number(option('target', 0.99));
const seed = Number(option('seed', 0));
const held = 500;

const a = await loadAttention();
const trainer = new a.Seq2SeqTrainer({ attention, seed });

console.log(
  `seq2seq bench: dates task, ${attention}, options ${JSON.stringify(trainer.options)}, ${trainer.parameterCount} parameters`,
);
console.log(`evaluating exact match on ${held} held-out dates every ${every} steps; budget ${budget} s of training`);
const summary = { attention, ...trainToTarget(trainer, { every, held, target, budget, clock: 'wall' }) };
console.log(
  summary.reached
    ? `seq2seq: ${summary.stepsPerSecondWall} steps/s (${summary.stepsPerSecondCpu} per CPU second); ` +
        `>= ${target * 100}% held-out exact match after ${summary.stepsToTarget} steps, ${summary.secondsToTargetWall} s wall / ${summary.secondsToTargetCpu} s CPU`
    : `seq2seq: ${summary.stepsPerSecondWall} steps/s; target ${target * 100}% NOT reached within ${budget} s (final accuracy ${summary.finalAccuracy})`,
);
console.log(`seq2seq summary ${JSON.stringify(summary)}`);
trainer.delete();
