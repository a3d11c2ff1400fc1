// Training speeds measured by `node scripts/bench-transformer.mjs --write` (do not edit):
// the chapter "A Transformer trained in your browser" prints them.
export default {
  "date": "2026-11-22",
  "cpu": "AMD EPYC",
  "node": "v20.20.2",
  "heldOut": 1000,
  "results": [
    {
      "model": "transformer",
      "task": "dates",
      "stepsPerSecondWall": 24.52,
      "stepsPerSecondCpu": 44.04,
      "target": 0.99,
      "reached": true,
      "stepsToTarget": 2100,
      "secondsToTargetWall": 85.7,
      "secondsToTargetCpu": 47.7,
      "finalAccuracy": 0.993,
      "bestAccuracy": 0.993,
      "stepsToBest": 2100,
      "secondsToBestCpu": 47.7
    },
    {
      "model": "seq2seq (RNN + attention)",
      "task": "dates",
      "stepsPerSecondWall": 15.53,
      "stepsPerSecondCpu": 29.55,
      "target": 0.99,
      "reached": true,
      "stepsToTarget": 300,
      "secondsToTargetWall": 19.3,
      "secondsToTargetCpu": 10.2,
      "finalAccuracy": 0.996,
      "bestAccuracy": 0.996,
      "stepsToBest": 300,
      "secondsToBestCpu": 10.2
    },
    {
      "model": "transformer",
      "task": "sort",
      "stepsPerSecondWall": 39.61,
      "stepsPerSecondCpu": 72.35,
      "target": 0.99,
      "reached": true,
      "stepsToTarget": 1600,
      "secondsToTargetWall": 40.4,
      "secondsToTargetCpu": 22.1,
      "finalAccuracy": 0.99,
      "bestAccuracy": 0.99,
      "stepsToBest": 1600,
      "secondsToBestCpu": 22.1
    },
    {
      "model": "seq2seq (RNN + attention)",
      "task": "sort",
      "stepsPerSecondWall": 22.49,
      "stepsPerSecondCpu": 43.66,
      "target": 0.99,
      "reached": true,
      "stepsToTarget": 900,
      "secondsToTargetWall": 40,
      "secondsToTargetCpu": 20.6,
      "finalAccuracy": 0.992,
      "bestAccuracy": 0.992,
      "stepsToBest": 900,
      "secondsToBestCpu": 20.6
    }
  ]
};
