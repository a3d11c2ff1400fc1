// Compiled by `tsc --strict`: openModel with a BERT folder as a page uses it.
import { loadAttention, type BertHeadInputs, type BertModel, type BertResult } from '../../dist/lib/index.js';

export async function bertUsage(vocab: Blob, weights: Blob): Promise<number> {
  const a = await loadAttention();
  const opened = await a.openModel({
    'config.json': 'bert/config.json',
    'model.safetensors': weights,
    'vocab.txt': vocab,
  });
  if (opened.family !== 'bert') throw new Error('not a BERT');
  const m: BertModel = opened;
  const r: BertResult = m.run('The capital of France is [MASK].', { k: 5, pair: 'It is Paris.' });
  const best = r.masked[0]?.top[0]?.token ?? '';
  const byIds = m.runIds([101, 103, 102], { typeIds: [0, 0, 0], logits: true });
  // @ts-expect-error BERT has no next-token list
  r.next;
  const e: BertHeadInputs = await m.explainHead('How old?', { layer: 0, head: 1, pair: 'Six.' });
  // @ts-expect-error explainHead needs the layer and the head
  await m.explainHead('Hello', { head: 0 });
  m.delete();
  return (
    best.length +
    r.attentions[0][0].get(0, 0) +
    byIds.typeIds.length +
    m.config.num_hidden_layers +
    e.x.get(0, 0) * e.wq.get(0, 0) +
    e.bq.get(0, 0) +
    e.scale
  );
}
