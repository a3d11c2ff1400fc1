// An RNN translator's encoder outputs and decoder states explained (no DOM), for
// the NMT chapter and the trained chapter's RNN: the GRU weights are the
// checkpoint's float32 parameters (the NMT engine's 'weights' message, or read
// from a trainer on the main thread), sliced here as cpp/models/seq2seq_model.h's
// seq2seqLayout stores them; each state's arithmetic is the GRU cell's
// explainer (../explain/gru.js).
import { factor, rowCells, shown } from '../explain/format.js';
import * as gru from '../explain/gru.js';
import { at, rowOf } from '../explain/names.js';

/**
 * The embeddings and GRUs at the start of the parameters, in storage order:
 * enc.embed (V × E), enc.W, enc.U, enc.b (forward GRU), encb.W, encb.U, encb.b
 * (backward GRU), dec.embed (W × E), dec.W, dec.U, dec.b; V = 1 + the input
 * alphabet (id 0 pads), W = 2 + the output alphabet (ids 0 end, 1 start).
 */
export function recurrentWeights(parameters, { alphabet, outputAlphabet, embedding: E, hidden: H }) {
  let offset = 0;
  const take = (rows, cols) => {
    const data = Float64Array.from(parameters.subarray(offset, offset + rows * cols));
    offset += rows * cols;
    return { rows, cols, data };
  };
  const gruOf = () => ({ W: take(E, 3 * H), U: take(H, 3 * H), b: take(1, 3 * H) });
  const encEmbed = take(1 + alphabet.length, E);
  const forward = gruOf();
  const backward = gruOf();
  const decEmbed = take(2 + outputAlphabet.length, E);
  return { encEmbed, forward, backward, decEmbed, decoder: gruOf() };
}

const pick = (table, ids) => {
  const data = new Float64Array(ids.length * table.cols);
  ids.forEach((id, i) => data.set(table.data.subarray(id * table.cols, (id + 1) * table.cols), i * table.cols));
  return { rows: ids.length, cols: table.cols, data };
};
const quoted = (ch) => `“${ch === ' ' ? '␣' : ch}”`;
const named = (symbol, row) => ({
  symbol,
  row: (r) => row(r),
  index: (r, c) => `${row(r)}[${c + 1}]`,
  cell: (r, c) => `${row(r)}[${c + 1}]`,
});
const weightNames = (prefix) => ({
  W: { symbol: `W${prefix}` },
  U: { symbol: `U${prefix}` },
  b: { symbol: `b${prefix}` },
});

/**
 * The stories of one translation's states with the weights it was made with:
 * { x, y, encoder(j, c), decoder(t, c) }, x and y the embedded input and
 * previous output characters (the figures the stories outline), each story
 * { text, sources: { inputs, previous, encoder, output } } (figure name → cells).
 * @param {{input: string, output: string, encoderOutputs: object, decoderStates: object}} t
 * @param {ReturnType<typeof recurrentWeights>} w
 * @param {{alphabet: string, outputAlphabet: string}} alphabets
 */
export function stateStories(t, w, { alphabet, outputAlphabet }) {
  const inChars = Array.from(t.input);
  const outChars = Array.from(t.output);
  const H = w.forward.U.rows;
  const x = pick(
    w.encEmbed,
    inChars.map((ch) => 1 + alphabet.indexOf(ch)),
  );
  const y = pick(w.decEmbed, [1, ...outChars.slice(0, -1).map((ch) => 2 + outputAlphabet.indexOf(ch))]);
  const zero = { rows: 1, cols: H, data: new Float64Array(H) };
  const f = gru.gruStates({ x, ...w.forward, h0: zero });
  const b = gru.gruStates({ x, ...w.backward, h0: zero }, { reverse: true });
  const n = inChars.length;
  const h0 = { rows: 1, cols: H, data: Float64Array.from(rowOf(f, n - 1), (v, c) => v + at(b, 0, c)) };
  const xNames = named('e', (r) => `e${quoted(inChars[r])}`);
  const zeroNames = { symbol: '0', row: () => '0', index: () => '0', cell: () => '0' };
  const direction = (out, weights, letter, reverse) =>
    gru.explain.bind(null, {
      out,
      inputs: { x, ...weights, h0: zero },
      params: { reverse },
      names: { out: named(letter, (r) => `${letter}${r + 1}`), x: xNames, h0: zeroNames, ...weightNames(letter) },
    });
  const forwardStory = direction(f, w.forward, 'f', false);
  const backwardStory = direction(b, w.backward, 'b', true);
  const decoderStory = gru.explain.bind(null, {
    out: t.decoderStates,
    inputs: { x: y, ...w.decoder, h0 },
    params: {},
    names: {
      out: named('h', (r) => `h${r + 1}`),
      x: named('E', (r) => `E[${r === 0 ? 'start' : quoted(outChars[r - 1])}]`),
      h0: named('h0', () => 'h0'),
      ...weightNames('d'),
    },
  });
  const neighbours = (j) => [j - 1, j + 1].filter((k) => k >= 0 && k < n).flatMap((k) => rowCells(k, H));
  return {
    x,
    y,
    encoder(j, c) {
      const s = at(t.encoderOutputs, j, c);
      const text = [
        `s${j + 1}[${c + 1}] = f${j + 1}[${c + 1}] + b${j + 1}[${c + 1}] = ${factor(at(f, j, c))} + ${factor(at(b, j, c))} = ${shown(s)}`,
        `the GRU reading left to right, at ${quoted(inChars[j])}: ${forwardStory(j, c).text}`,
        `the GRU reading right to left: ${backwardStory(j, c).text}`,
      ].join('; ');
      return { text, sources: { inputs: rowCells(j, x.cols), encoder: neighbours(j) } };
    },
    decoder(r, c) {
      const start =
        r === 0
          ? `h0 = f${n} + b1, the encoder’s last states in each direction: h0[${c + 1}] = ${factor(at(f, n - 1, c))} + ${factor(at(b, 0, c))} = ${shown(h0.data[c])}; `
          : '';
      const text = `Output step ${r + 1} reads ${r === 0 ? 'the start symbol' : quoted(outChars[r - 1])}: ${start}${decoderStory(r, c).text}`;
      const previous =
        r === 0 ? { encoder: [...rowCells(n - 1, H), ...rowCells(0, H)] } : { decoder: rowCells(r - 1, H) };
      return {
        text,
        sources: { previous: rowCells(r, y.cols), ...previous, ...(r > 0 ? { output: [[0, r - 1]] } : {}) },
      };
    },
  };
}
