// The Gemma 3 family's types (web/src/api/model/families/gemma3/): what openModel
// returns for a folder whose config.json says model_type 'gemma3_text' (or
// 'gemma3', its text_config). Re-exported by index.d.ts.
import type { RotaryConfig, RotaryModel } from '../../rotary_types.js';

export interface Gemma3Config extends RotaryConfig {
  readonly model_type: 'gemma3_text' | 'gemma3';
  readonly hidden_activation: 'silu' | 'gelu_pytorch_tanh';
  /** Scores are scaled by its −½ power (not head_dim's). */
  readonly query_pre_attn_scalar: number;
  /** The RoPE base of the sliding layers (rope_theta: the full ones'). */
  readonly rope_local_base_freq: number;
  /** logits = cap · tanh(logits / cap), or null. */
  readonly final_logit_softcapping: number | null;
}

export type Gemma3Model = RotaryModel<'gemma3', Gemma3Config>;

// This family's entry in the shared types: openModel's result.
declare module '../../../index.js' {
  interface ModelFamilies {
    gemma3: Gemma3Model;
  }
}
