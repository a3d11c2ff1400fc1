// Compiled by `tsc --strict`: generate on the decoders as a page uses it.
import { type GenerateResult, type GenerateStep, type OpenedModel } from '../../dist/lib/index.js';

export async function generateUsage(opened: OpenedModel): Promise<number> {
  if (opened.family === 'bert') {
    // @ts-expect-error BERT predicts no next token: no generate
    await opened.generate('Hello');
    return 0;
  }
  const shown: GenerateStep[] = [];
  const g: GenerateResult = await opened.generate('Hello', {
    maxTokens: 8,
    temperature: 0.8,
    topK: 40,
    topP: 0.9,
    seed: 1,
    stop: [50256],
    signal: new AbortController().signal,
    onToken: (step) => shown.push(step),
  });
  const byIds = await opened.generateIds(new Int32Array([1, 2]), { temperature: 0 });
  // @ts-expect-error stop takes token ids
  await opened.generate('Hello', { stop: 'end' });
  const row: Float32Array = g.steps[0].attentions[0][0];
  const reason: 'stop' | 'maxTokens' = byIds.stopReason;
  return row[0] + g.steps[0].p + g.steps[0].pModel + g.ids.length + g.text.length + reason.length + shown.length;
}
