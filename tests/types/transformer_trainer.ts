// Compiled by `tsc --strict`: the TransformerTrainer declarations as a chapter would use them.
import {
  loadAttention,
  Matrix,
  type AttentionMaps,
  type TransformerTrainerOptions,
  type TransformerTranslation,
  type TrainResult,
} from '../../dist/lib/index.js';

export async function transformerTrainerUsage(): Promise<number> {
  const a = await loadAttention();
  const options: TransformerTrainerOptions = {
    task: 'reverse',
    layers: 1,
    heads: 2,
    dModel: 8,
    dFF: 16,
    batch: 4,
    schedule: 'constant',
    learningRate: 0.001,
    warmup: 10,
    labelSmoothing: 0.1,
    seed: 1,
  };
  const t = new a.TransformerTrainer(options);
  const { step, loss, losses }: TrainResult = t.train(2);
  const accuracy: number = t.evaluate(10);
  const { input, target } = t.sample();
  const result: TransformerTranslation = t.translate(input);
  const cross: AttentionMaps = result.cross;
  const head: Matrix = cross[0][1];
  const queries: Matrix = result.queries.cross[1];
  const keys: Matrix = result.keys.decoderSelf[0];
  console.log(queries.cols === keys.cols);
  const x: Matrix = result.queryInputs.cross[1];
  const Wk: Matrix = result.keyWeights.encoderSelf[0];
  console.log(
    x.cols === Wk.rows,
    result.queryBiases.cross[0].cols,
    result.keyInputs.cross[0].rows,
    result.queryWeights.decoderSelf[0].cols,
    result.keyBiases.cross[1].rows,
  );
  const self: Matrix = result.decoderSelf[0][0];
  const enc: Matrix = result.encoderSelf[0][0];
  const bytes: Uint8Array = t.save();
  const copy = a.TransformerTrainer.load(bytes);
  const n: number = copy.steps + copy.options.dModel + t.maxInputLength + t.heldOutSize + t.parameterCount;
  const rate: number = t.learningRateAt(1);
  copy.delete();
  t.delete();
  const sorter = new a.TransformerTrainer({ task: 'sort', layers: 1, heads: 1, dModel: 2, dFF: 1, batch: 1 });
  sorter.delete();
  // @ts-expect-error task must be 'dates', 'reverse' or 'sort'
  new a.TransformerTrainer({ task: 'shuffle' });
  // @ts-expect-error schedule must be 'warmup' or 'constant'
  new a.TransformerTrainer({ schedule: 'cosine' });
  // @ts-expect-error translate takes a string
  t.translate(20261121);
  // @ts-expect-error load takes bytes, not a string
  a.TransformerTrainer.load('checkpoint');
  return (
    loss + step + losses[0] + accuracy + target.length + head.rows + self.cols + enc.rows + n + rate + bytes.length
  );
}
