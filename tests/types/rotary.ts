// Compiled by `tsc --strict`: openModel and the rotary families' models as a page uses them.
import {
  loadAttention,
  type Gemma3Model,
  type LlamaModel,
  type Matrix,
  type Qwen2Model,
  type RotaryHeadInputs,
} from '../../dist/lib/index.js';

export async function rotaryUsage(shard1: Blob, shard2: Blob): Promise<number> {
  const a = await loadAttention();
  const opened = await a.openModel({
    'config.json': 'model/config.json',
    'model.safetensors.index.json': 'model/model.safetensors.index.json',
    'model-00001-of-00002.safetensors': shard1,
    'model-00002-of-00002.safetensors': shard2,
    'tokenizer.json': 'model/tokenizer.json',
    'generation_config.json': 'model/generation_config.json',
    'README.md': 'model/README.md',
  });
  if (opened.family === 'gemma3') {
    const g: Gemma3Model = opened;
    const cap: number | null = g.config.final_logit_softcapping;
    return (cap ?? 0) + g.config.query_pre_attn_scalar;
  }
  // @ts-expect-error a GPT-2 or a Qwen2 may come back: narrow by family first
  opened.config.num_key_value_heads;
  if (opened.family !== 'llama') throw new Error('not a Llama');
  const m: LlamaModel = opened;
  // @ts-expect-error a Llama is no Qwen2
  const q2: Qwen2Model = m;
  const r = m.run('Hello', { k: 3, logits: true });
  const map: Matrix = r.attentions[0][0];
  const h: RotaryHeadInputs = await m.explainHead('Hello', { layer: 0, head: 1 });
  const eos = m.generationConfig?.eos_token_id;
  // @ts-expect-error explainHead needs the layer and the head
  await m.explainHead('Hello', { head: 0 });
  m.delete();
  return (
    map.get(0, 0) +
    h.qRotated.get(0, 0) +
    h.x.get(0, 0) * h.wq.get(0, 0) +
    (h.bq?.get(0, 0) ?? 0) +
    (h.qPre && h.qNormWeight ? h.qPre.get(0, 0) * h.qNormWeight.get(0, 0) : 0) +
    h.kvHead +
    (h.window ?? 0) +
    m.config.head_dim +
    (m.config.rope_scaling?.factor ?? 1) +
    (typeof eos === 'number' ? eos : 0) +
    String(q2).length
  );
}
