// Training speeds measured by `node scripts/bench-transformer.mjs --write` (do not edit):
// the chapter "A Transformer trained in your browser" prints them.
export default {
  date: '2026-11-22',
  cpu: 'AMD EPYC',
  node: 'v20.20.2',
  heldOut: 1000,
  results: [
    {
      model: 'transformer',
      stepsPerSecondWall: 14.72,
      stepsPerSecondCpu: 43.66,
      target: 0.99,
      reached: true,
      stepsToTarget: 2100,
      secondsToTargetWall: 142.7,
      secondsToTargetCpu: 48.1,
      finalAccuracy: 0.993,
    },
    {
      model: 'seq2seq (RNN + attention)',
      stepsPerSecondWall: 8.63,
      stepsPerSecondCpu: 26.48,
      target: 0.99,
      reached: true,
      stepsToTarget: 300,
      secondsToTargetWall: 34.7,
      secondsToTargetCpu: 11.3,
      finalAccuracy: 0.996,
    },
  ],
};
