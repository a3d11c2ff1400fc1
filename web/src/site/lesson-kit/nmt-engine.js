// The training engine of the two chapters that train a translator live: the
// RNN with attention ("Neural machine translation with attention", a
// Seq2SeqTrainer) and the Transformer ("A Transformer trained in your
// browser", a TransformerTrainer). It owns one trainer and answers messages,
// inside the Web Worker (chapters/nmt/worker.js) or, where a page's
// Content-Security-Policy forbids blob: workers, on the main thread in small
// slices (the chapters' fallback).
//
// Messages in:  { type: 'init', model?: 'rnn' | 'transformer', checkpoint?: Uint8Array, options?: object, input: string }
//               { type: 'start', until?: number } (until: pause by itself at that step)
//               { type: 'pause' } | { type: 'reset', model?, options?, checkpoint?, input? }
//               { type: 'translate', input: string } | { type: 'sample' } (translates a held-out example)
//               { type: 'weights' } (rnn: the model's parameters, asked for when a reader opens a state's arithmetic)
// Messages out: { type: 'ready', model, options, steps, parameterCount, alphabet, outputAlphabet (rnn),
//                 maxInputLength, accuracy, positionalEncoding (transformer) }
//               { type: 'progress', steps, loss?, stepsPerSecond?, accuracy?, trainingSeconds, paused? }
//                 (paused: true when training stopped by itself at `until`)
//               rnn:         { type: 'translation', input, output, steps, attention, encoderOutputs, decoderStates,
//                              scores, probabilities, outputAlphabet }
//                            { type: 'weights', steps, parameters } (Float32Array, the checkpoint's, in
//                              seq2seqLayout order: cpp/models/seq2seq_model.h)
//               transformer: { type: 'translation', input, output, encoderSelf, decoderSelf, cross, queries, keys,
//                              queryInputs, keyInputs, queryWeights, keyWeights, queryBiases, keyBiases }
//                            (maps layers x heads, the rest per layer, of {rows, cols, data})
//               { type: 'sample', input, target } (before its translation)
//                            baseline (transformer only): { output, encoderSelf, decoderSelf, cross } of the
//                            same options and seed untrained, on the same input (what the chapter's claims
//                            about heads are measured against), or null
//               { type: 'translation-error', input, message } | { type: 'error', message }

const plain = (m) => ({ rows: m.rows, cols: m.cols, data: m.data });

/** A TransformerTrainer translation as plain matrices: each use layers × heads; queries, keys and their x, W, b per layer. */
function transformerTranslation(r) {
  const maps = (use) => use.map((heads) => heads.map(plain));
  const perLayer = (uses) => Object.fromEntries(Object.entries(uses).map(([use, layers]) => [use, layers.map(plain)]));
  return {
    output: r.output,
    encoderSelf: maps(r.encoderSelf),
    decoderSelf: maps(r.decoderSelf),
    cross: maps(r.cross),
    queries: perLayer(r.queries),
    keys: perLayer(r.keys),
    queryInputs: perLayer(r.queryInputs),
    keyInputs: perLayer(r.keyInputs),
    queryWeights: perLayer(r.queryWeights),
    keyWeights: perLayer(r.keyWeights),
    queryBiases: perLayer(r.queryBiases),
    keyBiases: perLayer(r.keyBiases),
  };
}

/**
 * @param {() => Promise<any>} loadApi resolves to the attention-lab API (its trainers are loaded here)
 * @param {(message: object) => void} post
 * @param {{chunk?: number}} [options] steps per slice between message checks
 * @returns {(message: object) => Promise<void>}
 */
export function createEngine(loadApi, post, { chunk = 5 } = {}) {
  const EVAL_EVERY_MS = 3000;
  const EVAL_SIZE = 200;
  let api;
  let trainer;
  let initial; // transformer: the same options and seed at initialisation (the claims' baseline)
  let running = false;
  let until = 0; // the step training pauses at by itself (0: never)
  let input = '21 November 2026';
  let lastEval = 0;
  let model = 'rnn';
  let trainingSeconds = 0; // time spent in train() since the trainer was made (not since its checkpoint)

  const TRAINERS = { rnn: 'Seq2SeqTrainer', transformer: 'TransformerTrainer' };

  function describe() {
    post({
      type: 'ready',
      model,
      options: trainer.options,
      steps: trainer.steps,
      parameterCount: trainer.parameterCount,
      alphabet: trainer.inputAlphabet,
      outputAlphabet: trainer.outputAlphabet,
      maxInputLength: trainer.maxInputLength,
      accuracy: trainer.evaluate(EVAL_SIZE),
      ...(model === 'transformer' ? { positionalEncoding: plain(trainer.positionalEncoding()) } : {}),
    });
  }

  function translation(r) {
    if (model === 'transformer') return transformerTranslation(r);
    return {
      output: r.output,
      steps: trainer.steps, // the model that wrote it: a 'weights' message of the same steps explains it
      attention: plain(r.attention),
      encoderOutputs: plain(r.encoderOutputs),
      decoderStates: plain(r.decoderStates),
      scores: plain(r.scores),
      probabilities: plain(r.probabilities),
      outputAlphabet: trainer.outputAlphabet,
    };
  }

  /** The initial model's maps on `input` (transformer), or null. */
  function baseline() {
    if (!initial) return null;
    const maps = (use) => use.map((heads) => heads.map(plain));
    const r = initial.translate(input);
    return {
      output: r.output,
      encoderSelf: maps(r.encoderSelf),
      decoderSelf: maps(r.decoderSelf),
      cross: maps(r.cross),
    };
  }

  function translate() {
    try {
      const extra = model === 'transformer' ? { baseline: baseline() } : {};
      post({ type: 'translation', input, ...translation(trainer.translate(input)), ...extra });
    } catch (error) {
      post({ type: 'translation-error', input, message: error.message });
    }
  }

  /** Stops training: the accuracy and the translation of the model as it now is. */
  function pause(extra = {}) {
    running = false;
    post({ type: 'progress', steps: trainer.steps, accuracy: trainer.evaluate(EVAL_SIZE), trainingSeconds, ...extra });
    translate();
  }

  function loop() {
    if (!running) return;
    try {
      // Up to `until` exactly: the same seed and step count give the same model whatever the
      // machine's speed (a slice of training is the same steps however it is cut).
      const steps = until > 0 ? Math.min(chunk, until - trainer.steps) : chunk;
      if (steps <= 0) {
        pause({ paused: true });
        return;
      }
      const start = performance.now();
      const { loss } = trainer.train(steps); // the slice's mean loss
      const seconds = (performance.now() - start) / 1000;
      trainingSeconds += seconds;
      const message = {
        type: 'progress',
        steps: trainer.steps,
        loss,
        stepsPerSecond: steps / seconds,
        trainingSeconds,
      };
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
      api ??= await (await loadApi()).loadTrainers(); // their own wasm module, loaded once
      if (data.type === 'init' || data.type === 'reset') {
        running = false;
        trainer?.delete();
        trainer = undefined;
        if (data.model) model = data.model;
        const Trainer = api[TRAINERS[model]];
        trainer = data.checkpoint ? Trainer.load(data.checkpoint) : new Trainer(data.options);
        initial?.delete();
        initial = model === 'transformer' ? new Trainer(trainer.options) : undefined;
        trainingSeconds = 0;
        if (data.input !== undefined) input = data.input;
        describe();
        translate();
      } else if (data.type === 'start') {
        until = Number.isSafeInteger(data.until) && data.until > 0 ? data.until : 0;
        if (!running) {
          running = true;
          lastEval = performance.now();
          loop();
        }
      } else if (data.type === 'pause') {
        pause();
      } else if (data.type === 'sample') {
        const example = trainer.sample();
        input = example.input;
        post({ type: 'sample', ...example });
        translate();
      } else if (data.type === 'weights' && model === 'rnn') {
        translate(); // the translation these weights explain, made by the model as it is now
        post({ type: 'weights', steps: trainer.steps, parameters: checkpointParameters(trainer) });
      } else if (data.type === 'translate') {
        input = data.input;
        translate();
      } else if (data.type === 'stop') {
        running = false;
        trainer?.delete();
        trainer = undefined;
        initial?.delete();
        initial = undefined;
      }
    } catch (error) {
      running = false;
      post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  };
}

/**
 * The parameters of a trainer, read from its checkpoint (checkpoint_io.h: the
 * frame ends with u64 count, count float32 parameters, u32 checksum): no
 * API of its own, and a copy the page owns.
 */
export function checkpointParameters(trainer) {
  const bytes = trainer.save();
  const count = trainer.parameterCount;
  const end = bytes.length - 4;
  const start = end - 4 * count;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (start < 8 || Number(view.getBigUint64(start - 8, true)) !== count) {
    throw new RangeError(`checkpointParameters: the checkpoint does not end with ${count} parameters`);
  }
  const parameters = new Float32Array(count);
  for (let i = 0; i < count; i++) parameters[i] = view.getFloat32(start + 4 * i, true);
  return parameters;
}
