// Compiled by `tsc --strict`: the GloVe chapter's API as the chapter uses it.
import {
  loadAttention,
  Matrix,
  type Attention,
  type Embeddings,
  type EmbeddingsEncoding,
  type EmbeddingsProgress,
} from '../../dist/lib/index.js';

export async function embeddingsUsage(file: Blob, stream: ReadableStream<Uint8Array>): Promise<number> {
  const a: Attention = await loadAttention();
  const tokens: string[] = a.tokenize('The teacher praised a student because she improved');
  const controller = new AbortController();
  const mine: Embeddings = await a.loadEmbeddings(file, {
    vocabulary: new Set(tokens),
    limit: 50000,
    signal: controller.signal,
    onProgress: (p: EmbeddingsProgress) => void (p.totalBytes === undefined ? p.bytesRead : p.bytesRead / p.totalBytes),
  });
  const fromStream = await a.loadEmbeddings(stream);
  const fromText = await a.loadEmbeddings('the 1 2\n');
  const D = await a.loadDefaultEmbeddings();
  const { matrix, missing }: { matrix: Matrix; missing: string[] } = D.lookup(tokens);
  const v: Float64Array | undefined = D.vector('teacher');
  const has: boolean = D.has('a');
  const copy = a.embeddingsFromBinary(D.toBinary({ encoding: 'int16' }));
  const encoding: EmbeddingsEncoding = 'int12';
  const small: Uint8Array = D.toBinary({ encoding, info: 'twelve bits' });
  // @ts-expect-error int8 is not an encoding (it would break the 1e-3 promise)
  D.toBinary({ encoding: 'int8' });
  const dot = a.scaledDotProductAttention(matrix, matrix, matrix);
  const trainable = a.createTrainableAttention({ inFeatures: D.dim, outFeatures: 64, seed: 1 }).reseed(2);
  const t = trainable.forward(matrix, matrix, matrix);
  const additive = a.createAdditiveAttention({ hiddenFeatures: 32 });
  const scores: Matrix = additive.forward(matrix, matrix).scores;
  // @ts-expect-error a number is not a GloVe source
  await a.loadEmbeddings(42);
  // @ts-expect-error tokens must be strings
  D.lookup([1, 2]);
  for (const E of [mine, fromStream, fromText, D, copy]) E.delete();
  return (
    dot.weights.rows +
    t.weights.cols +
    scores.rows +
    missing.length +
    (v?.[0] ?? 0) +
    Number(has) +
    D.size +
    D.dim +
    D.info.length +
    small.length
  );
}
