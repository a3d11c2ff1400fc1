// A tiny app as a user would write it: imports the package by name.
import { loadAttention } from 'attention-lab';

const a = await loadAttention();
const scores = a.dotScores(
  [5, 1, 20],
  [
    [3, 12, 45],
    [59, 2, 5],
    [1, 43, 5],
    [4, 3, 45.3],
  ],
);
const context = a.weightedSum(a.softmax(scores), [
  [3, 12, 45],
  [59, 2, 5],
  [1, 43, 5],
  [4, 3, 45.3],
]);
const out = document.createElement('output');
out.id = 'result';
out.textContent = JSON.stringify({
  dot: a.dot([5, 1, 20], [3, 12, 45]),
  scores: Array.from(scores),
  context: Array.from(context),
});
document.body.append(out);
