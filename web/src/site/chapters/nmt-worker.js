// Web Worker of the "Neural machine translation with attention" chapter: owns
// the Seq2SeqTrainer so that training never blocks the page. Bundled to text
// by scripts/build-nmt-worker.mjs and started from a Blob URL (works from file://).
//
// Messages in:  { type: 'init', checkpoint?: Uint8Array, options?: object, input: string }
//               { type: 'start' } | { type: 'pause' } | { type: 'reset', options: object }
//               { type: 'translate', input: string }
// Messages out: { type: 'ready', options, steps, parameterCount, alphabet, maxInputLength }
//               { type: 'progress', steps, loss, stepsPerSecond, accuracy? }
//               { type: 'translation', input, output, attention, encoderOutputs, decoderStates } | { type: 'error', message }
import { loadAttention } from 'attention-lab';

const CHUNK = 5; // steps between checks for messages
const EVAL_EVERY_MS = 3000;
const EVAL_SIZE = 200;

let api;
let trainer;
let running = false;
let input = '21 November 2026';
let lastEval = 0;

const plain = (m) => ({ rows: m.rows, cols: m.cols, data: m.data });

function describe() {
  postMessage({
    type: 'ready',
    options: trainer.options,
    steps: trainer.steps,
    parameterCount: trainer.parameterCount,
    alphabet: trainer.inputAlphabet,
    maxInputLength: trainer.maxInputLength,
    accuracy: trainer.evaluate(EVAL_SIZE),
  });
}

function translate() {
  try {
    const r = trainer.translate(input);
    postMessage({
      type: 'translation',
      input,
      output: r.output,
      attention: plain(r.attention),
      encoderOutputs: plain(r.encoderOutputs),
      decoderStates: plain(r.decoderStates),
    });
  } catch (error) {
    postMessage({ type: 'translation-error', input, message: error.message });
  }
}

function loop() {
  if (!running) return;
  const start = performance.now();
  const loss = trainer.train(CHUNK);
  const seconds = (performance.now() - start) / 1000;
  const message = { type: 'progress', steps: trainer.steps, loss, stepsPerSecond: CHUNK / seconds };
  if (performance.now() - lastEval > EVAL_EVERY_MS) {
    message.accuracy = trainer.evaluate(EVAL_SIZE);
    lastEval = performance.now();
    postMessage(message);
    translate();
  } else {
    postMessage(message);
  }
  setTimeout(loop, 0); // lets 'pause' and 'translate' messages in
}

onmessage = async ({ data }) => {
  try {
    api ??= await loadAttention();
    if (data.type === 'init' || data.type === 'reset') {
      running = false;
      trainer?.delete();
      trainer = data.checkpoint ? api.Seq2SeqTrainer.load(data.checkpoint) : new api.Seq2SeqTrainer(data.options);
      if (data.input !== undefined) input = data.input;
      describe();
      translate();
    } else if (data.type === 'start') {
      if (!running) {
        running = true;
        lastEval = performance.now();
        loop();
      }
    } else if (data.type === 'pause') {
      running = false;
      postMessage({ type: 'progress', steps: trainer.steps, accuracy: trainer.evaluate(EVAL_SIZE) });
      translate();
    } else if (data.type === 'translate') {
      input = data.input;
      translate();
    }
  } catch (error) {
    running = false;
    postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  }
};
