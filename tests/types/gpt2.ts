// Compiled by `tsc --strict`: openModel and Gpt2Model as a page uses them.
import { loadAttention, type Gpt2Model, type Gpt2Result, type Matrix } from '../../dist/lib/index.js';

export async function gpt2Usage(file: Blob): Promise<number> {
  const a = await loadAttention();
  const opened = await a.openModel(
    { 'config.json': 'model/config.json', 'model.safetensors': file, 'tokenizer.json': new ArrayBuffer(0) },
    { onProgress: ({ loaded, total }) => console.log(loaded / total), signal: new AbortController().signal },
  );
  // @ts-expect-error a BERT may come back: narrow by family first
  opened.run('Hello').next;
  if (opened.family !== 'gpt2') throw new Error('not a GPT-2');
  const m: Gpt2Model = opened;
  const r: Gpt2Result = m.run('Hello', { k: 5 });
  const head: Matrix = r.attentions[0][0];
  const byIds = m.runIds(new Int32Array([1, 2]), { logits: true });
  const { q, k, v, tokens } = await m.explainHead('Hello', { layer: 0, head: 1 });
  // @ts-expect-error explainHead needs the layer and the head
  await m.explainHead('Hello', { layer: 0 });
  // @ts-expect-error config.json is required
  await a.openModel({ 'model.safetensors': file });
  // @ts-expect-error run takes text
  m.run([1, 2]);
  m.delete();
  return (
    head.get(0, 0) +
    r.next[0].p +
    m.config.n_layer +
    (byIds.logits?.[0] ?? 0) +
    r.tokens.length +
    q.get(0, 0) +
    k.cols +
    v.rows +
    tokens.length
  );
}
