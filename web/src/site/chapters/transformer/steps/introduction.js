// The hands-on Transformer chapter, the chapter title, credits and lede.
import { el } from '../../../dom.js';
import { credit } from '../../../chapter-kit.js';
import meta from '../meta.js';

export function introduction() {
  return [
    el('h1', { className: 'chapter-title' }, meta.title),
    credit({
      text: 'Follows section 3.2 of',
      title: 'Vaswani et al., “Attention Is All You Need” (2017)',
      url: 'https://arxiv.org/abs/1706.03762',
      note: 'The explanations here are our own; every number is computed live by the WebAssembly core',
    }),
    credit({
      text: 'The PyTorch sketches of attention and multi-head attention quoted in the',
      title: 'neqkir/attention-mechanism notes',
      url: 'https://github.com/neqkir/attention-mechanism',
      note: 'come from The Annotated Transformer (Harvard NLP, nlp.seas.harvard.edu/annotated-transformer); the masks, the head split and the three uses follow them',
    }),
    el(
      'p',
      { className: 'lede' },
      'A Transformer has no recurrence: every token looks at every other token directly, through attention. ',
      'Here is that mechanism, one piece at a time, on inputs you can change. The embeddings and weight matrices are random (seeded), as in an untrained model: ',
      'the point is the arithmetic, not what a trained model would attend to. ',
      'For that, the last chapter, ',
      el('a', { href: '#chapter=trained' }, 'A Transformer trained in your browser'),
      ', trains one and shows what its heads learned.',
    ),
  ];
}
