// The training loop both trainer benches share (bench-seq2seq.mjs,
// bench-transformer.mjs): train `every` steps, evaluate exact match on the
// first `held` held-out examples (not counted as training time), print one row,
// until the accuracy reaches `target` or the training time reaches `budget`
// seconds on `clock` ('wall' or 'cpu'). On a shared machine the wall time
// depends on the load; the CPU time of this process is the fairer figure, and
// both are printed.
import { performance } from 'node:perf_hooks';

/** The value after `--name` on the command line, or `fallback`. */
export function option(name, fallback) {
  const args = process.argv.slice(2);
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
}

function cpuSeconds() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** Trains `trainer` to the target; returns the summary (speeds, steps and seconds to the target, best accuracy). */
export function trainToTarget(trainer, { every, held, target, budget, clock }) {
  console.log(`steps  train_wall_s  train_cpu_s  steps/s(${clock})  loss     accuracy  eval_s`);
  let wall = 0;
  let cpu = 0;
  let evalWall = 0;
  let reached = null;
  let accuracy = 0;
  let best = { accuracy: -1 };
  while ((clock === 'cpu' ? cpu : wall) < budget) {
    const w0 = performance.now();
    const c0 = cpuSeconds();
    const { loss } = trainer.train(every);
    wall += (performance.now() - w0) / 1000;
    cpu += cpuSeconds() - c0;
    const e0 = performance.now();
    accuracy = trainer.evaluate(held);
    const evalSeconds = (performance.now() - e0) / 1000;
    evalWall += evalSeconds;
    const rate = trainer.steps / (clock === 'cpu' ? cpu : wall);
    console.log(
      `${String(trainer.steps).padStart(5)}  ${wall.toFixed(1).padStart(12)}  ${cpu.toFixed(1).padStart(11)}  ` +
        `${rate.toFixed(2).padStart(clock.length + 9)}  ${loss.toFixed(4).padEnd(7)}  ${accuracy.toFixed(3).padStart(8)}  ${evalSeconds.toFixed(2)}`,
    );
    if (accuracy > best.accuracy) best = { accuracy, steps: trainer.steps, cpu };
    if (accuracy >= target) {
      reached = { steps: trainer.steps, wall, cpu };
      break;
    }
  }
  return {
    stepsPerSecondWall: +(trainer.steps / wall).toFixed(2),
    stepsPerSecondCpu: +(trainer.steps / cpu).toFixed(2),
    target,
    reached: reached !== null,
    stepsToTarget: reached?.steps ?? null,
    secondsToTargetWall: reached ? +reached.wall.toFixed(1) : null,
    secondsToTargetCpu: reached ? +reached.cpu.toFixed(1) : null,
    finalAccuracy: accuracy,
    bestAccuracy: best.accuracy,
    stepsToBest: best.steps,
    secondsToBestCpu: +best.cpu.toFixed(1),
    evaluationSeconds: +evalWall.toFixed(1),
  };
}
