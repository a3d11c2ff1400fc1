// Compiled by `tsc --strict`: the Seq2SeqTrainer declarations as the chapter uses them.
import {
  loadAttention,
  Matrix,
  type Attention,
  type LoadAttentionOptions,
  type Seq2SeqOptions,
  type Seq2SeqTranslation,
  type TrainResult,
} from '../../dist/lib/index.js';

export async function seq2seqUsage(): Promise<number> {
  const a = await loadAttention();
  const options: Seq2SeqOptions = {
    task: 'reverse',
    attention: 'bahdanau',
    hidden: 16,
    batch: 8,
    learningRate: 0.01,
    seed: 1,
  };
  const t = new a.Seq2SeqTrainer(options);
  const { step, loss, losses }: TrainResult = t.train(2);
  const accuracy: number = t.evaluate(10);
  const { input, target } = t.sample();
  const result: Seq2SeqTranslation = t.translate(input);
  const weights: Matrix = result.attention;
  const bytes: Uint8Array = t.save();
  const copy = a.Seq2SeqTrainer.load(bytes);
  const steps: number = copy.steps + copy.options.hidden + t.maxInputLength + t.heldOutSize;
  copy.delete();
  t.delete();
  new a.Seq2SeqTrainer().delete();
  // @ts-expect-error attention must be one of the four score names
  new a.Seq2SeqTrainer({ attention: 'luong' });
  // @ts-expect-error translate takes a string
  t.translate(20261121);
  // @ts-expect-error load takes bytes, not a string
  a.Seq2SeqTrainer.load('checkpoint');
  return loss + losses[0] + step + accuracy + target.length + result.output.length + weights.rows + steps;
}

// The trainers as a step of their own: loadAttention({ trainers: false }), then loadTrainers().
export async function lazyTrainersUsage(): Promise<number> {
  const options: LoadAttentionOptions = { trainers: false };
  const a: Attention = await loadAttention(options);
  const same: Attention = await a.loadTrainers();
  const t = new same.Seq2SeqTrainer({ task: 'reverse', seed: 0 });
  const steps = t.train(1).step;
  t.delete();
  return steps;
}
