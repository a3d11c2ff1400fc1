// The Qwen3 family's types (web/src/api/model/families/qwen3/): what openModel returns
// for a folder whose config.json says model_type 'qwen3'. Re-exported by index.d.ts.
import type { RotaryConfig, RotaryModel } from '../../rotary_types.js';

export interface Qwen3Config extends RotaryConfig {
  readonly model_type: 'qwen3';
  readonly hidden_act: 'silu' | 'gelu_pytorch_tanh';
}

export type Qwen3Model = RotaryModel<'qwen3', Qwen3Config>;

// This family's entry in the shared types: openModel's result.
declare module '../../../index.js' {
  interface ModelFamilies {
    qwen3: Qwen3Model;
  }
}
