// The elements' one Web Worker module (dist/elements/lesson-worker.js, an ES
// module importing ../lib/index.js, so the wasm is the page's own file): the NMT
// and trained-Transformer lessons' engine, and the GloVe lesson's loader for a
// reader's own file ({ type: 'load' }). One file, not one per lesson: two worker
// entries sharing the API make Parcel 2 split out a chunk that its classic-worker
// output then cannot find ("Cannot find module").
import { loadAttention } from 'attention-lab';
import { createEngine } from '../lesson-kit/nmt-engine.js';
import { loadGloveFile } from '../glove-file-load.js';

const engine = createEngine(loadAttention, (message) => postMessage(message));
onmessage = ({ data }) => (data?.type === 'load' ? loadGloveFile(data) : engine(data));
