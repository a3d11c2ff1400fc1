// The elements' one Web Worker module (dist/elements/lesson-worker.js, an ES
// module importing ../lib/index.js, so the wasm is the page's own file): the NMT
// and trained-Transformer lessons' engine, the GloVe lesson's loader for a
// reader's own file ({ type: 'load' }) and the model lesson's opened model
// ('model:' messages, lesson-kit/model-host.js; the reader ../lib/model/open.js imported
// statically: a bundler's one-script worker refuses import()). One file, not one per lesson: two worker
// entries sharing the API make Parcel 2 split out a chunk that its classic-worker
// output then cannot find ("Cannot find module").
import { loadAttention } from 'attention-lab';
import { openModel } from 'attention-lab/model';
import { createEngine } from '../lesson-kit/nmt-engine.js';
import { modelHost } from '../lesson-kit/model-host.js';
import { loadGloveFile } from '../glove-file-load.js';

const engine = createEngine(loadAttention, (message) => postMessage(message));
const model = modelHost(
  (message, transfer) => postMessage(message, transfer ?? []),
  () => Promise.resolve(openModel),
);
onmessage = ({ data }) => model(data) || (data?.type === 'load' ? loadGloveFile(data) : engine(data));
