// The training engine of the "Neural machine translation with attention"
// chapter: owns a Seq2SeqTrainer and answers messages. It runs inside the Web
// Worker (nmt-worker.js) or, where a page's Content-Security-Policy forbids
// blob: workers, on the main thread in small slices (the chapter's fallback).
//
// Messages in:  { type: 'init', checkpoint?: Uint8Array, options?: object, input: string }
//               { type: 'start' } | { type: 'pause' } | { type: 'reset', options?, checkpoint?, input? }
//               { type: 'translate', input: string } | { type: 'sample' } (translates a held-out example)
// Messages out: { type: 'ready', options, steps, parameterCount, alphabet, outputAlphabet, maxInputLength, accuracy }
//               { type: 'progress', steps, loss?, stepsPerSecond?, accuracy? }
//               { type: 'translation', input, output, attention, encoderOutputs, decoderStates,
//                 scores, probabilities, outputAlphabet }
//               { type: 'sample', input, target } (before its translation)
//               { type: 'translation-error', input, message } | { type: 'error', message }

/**
 * @param {() => Promise<any>} loadApi resolves to the attention-lab API
 * @param {(message: object) => void} post
 * @param {{chunk?: number}} [options] steps per slice between message checks
 * @returns {(message: object) => Promise<void>}
 */
export function createEngine(loadApi, post, { chunk = 5 } = {}) {
  const EVAL_EVERY_MS = 3000;
  const EVAL_SIZE = 200;
  let api;
  let trainer;
  let running = false;
  let input = '21 November 2026';
  let lastEval = 0;

  const plain = (m) => ({ rows: m.rows, cols: m.cols, data: m.data });

  function describe() {
    post({
      type: 'ready',
      options: trainer.options,
      steps: trainer.steps,
      parameterCount: trainer.parameterCount,
      alphabet: trainer.inputAlphabet,
      outputAlphabet: trainer.outputAlphabet,
      maxInputLength: trainer.maxInputLength,
      accuracy: trainer.evaluate(EVAL_SIZE),
    });
  }

  function translate() {
    try {
      const r = trainer.translate(input);
      post({
        type: 'translation',
        input,
        output: r.output,
        attention: plain(r.attention),
        encoderOutputs: plain(r.encoderOutputs),
        decoderStates: plain(r.decoderStates),
        scores: plain(r.scores),
        probabilities: plain(r.probabilities),
        outputAlphabet: trainer.outputAlphabet,
      });
    } catch (error) {
      post({ type: 'translation-error', input, message: error.message });
    }
  }

  function loop() {
    if (!running) return;
    try {
      const start = performance.now();
      const loss = trainer.train(chunk);
      const seconds = (performance.now() - start) / 1000;
      const message = { type: 'progress', steps: trainer.steps, loss, stepsPerSecond: chunk / seconds };
      if (performance.now() - lastEval > EVAL_EVERY_MS) {
        message.accuracy = trainer.evaluate(EVAL_SIZE);
        lastEval = performance.now();
        post(message);
        translate();
      } else {
        post(message);
      }
    } catch (error) {
      running = false;
      post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
      return;
    }
    setTimeout(loop, 0); // lets 'pause' and 'translate' messages in
  }

  return async function handle(data) {
    try {
      api ??= await loadApi();
      if (data.type === 'init' || data.type === 'reset') {
        running = false;
        trainer?.delete();
        trainer = undefined;
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
        post({ type: 'progress', steps: trainer.steps, accuracy: trainer.evaluate(EVAL_SIZE) });
        translate();
      } else if (data.type === 'sample') {
        const example = trainer.sample();
        input = example.input;
        post({ type: 'sample', ...example });
        translate();
      } else if (data.type === 'translate') {
        input = data.input;
        translate();
      } else if (data.type === 'stop') {
        running = false;
        trainer?.delete();
        trainer = undefined;
      }
    } catch (error) {
      running = false;
      post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  };
}
