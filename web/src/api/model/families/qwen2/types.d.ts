// The Qwen2 family's types (web/src/api/model/families/qwen2/): what openModel returns
// for a folder whose config.json says model_type 'qwen2'. Re-exported by index.d.ts.
import type { RotaryConfig, RotaryModel } from '../../rotary_types.js';

export interface Qwen2Config extends RotaryConfig {
  readonly model_type: 'qwen2';
  readonly hidden_act: 'silu' | 'gelu_pytorch_tanh';
}

export type Qwen2Model = RotaryModel<'qwen2', Qwen2Config>;

// This family's entry in the shared types: openModel's result.
declare module '../../../index.js' {
  interface ModelFamilies {
    qwen2: Qwen2Model;
  }
}
