// Types for 'attention-lab/classic' (dist/classic/attention-lab.js): the API as one
// classic script. In a page it defines window.AttentionLab; to Node and bundlers it
// is CommonJS whose module.exports is that object, the API of 'attention-lab'.
import type * as AttentionLab from '../lib/index.js';

declare const api: typeof AttentionLab;
export = api;
