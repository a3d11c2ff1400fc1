// The Llama family's types (web/src/api/model/families/llama/): what openModel returns
// for a folder whose config.json says model_type 'llama'. Re-exported by index.d.ts.
import type { RotaryConfig, RotaryModel } from '../../rotary_types.js';

export type {
  GenerationConfig,
  RotaryConfig,
  RotaryExplainOptions,
  RotaryHeadInputs,
  RotaryModel,
  RotaryResult,
  RotaryRunOptions,
  RotaryScaling,
  RotaryTokenizer,
} from '../../rotary_types.js';

export interface LlamaConfig extends RotaryConfig {
  readonly model_type: 'llama';
  readonly hidden_act: 'silu' | 'gelu_pytorch_tanh';
}

export type LlamaModel = RotaryModel<'llama', LlamaConfig>;

// This family's entry in the shared types: openModel's result.
declare module '../../../index.js' {
  interface ModelFamilies {
    llama: LlamaModel;
  }
}
