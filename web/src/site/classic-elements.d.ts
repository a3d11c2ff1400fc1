// Types for 'attention-lab/classic/elements' (dist/classic/attention-lab-elements.js):
// the custom elements as one classic script. In a page it defines the elements and
// window.AttentionLabElements; to Node and bundlers it is CommonJS whose
// module.exports is that object, the exports of 'attention-lab/elements'.
import type * as AttentionLabElements from '../elements/attention-lab-elements.js';

declare const elements: typeof AttentionLabElements;
export = elements;
