// Every operation that can explain its output cells, by the name a trace
// records it under (trace.js). Each module gives its input roles (or
// rolesFor(count)), sources(args, r, c) (cheap: cells only), explain(args, r, c)
// ({ text, sources }) and, when one input cell is the output cell's own
// ancestor, focus(args, r, c) (whose story may follow when it has no figure).
import * as activation from './activation.js';
import * as additiveScore from './additive-score.js';
import * as cosine from './cosine.js';
import * as embedding from './embedding.js';
import * as gru from './gru.js';
import { concat, split, stack } from './heads.js';
import * as layerNorm from './layer-norm.js';
import * as linear from './linear.js';
import * as mask from './mask.js';
import * as matmul from './matmul.js';
import { runningMax, runningSum } from './online-softmax.js';
import * as positional from './positional.js';
import * as rmsNorm from './rms-norm.js';
import * as rnn from './rnn.js';
import { frequencies as ropeFrequencies, rotary } from './rotary.js';
import * as scale from './scale.js';
import * as scaleBy from './scale-by.js';
import * as softmax from './softmax.js';
import * as transpose from './transpose.js';
import * as weightedSum from './weighted-sum.js';

export const OPS = {
  matmul,
  scale,
  scaleBy,
  mask,
  softmax,
  weightedSum,
  split,
  concat,
  stack,
  linear,
  tanh: activation.tanh,
  relu: activation.relu,
  gelu: activation.gelu,
  layerNorm,
  embedding,
  positional,
  rnn,
  gru,
  transpose,
  cosine,
  additiveScore,
  rotary,
  ropeFrequencies,
  rmsNorm,
  runningMax,
  runningSum,
};
