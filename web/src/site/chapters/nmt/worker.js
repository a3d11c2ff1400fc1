// Web Worker of the "Neural machine translation with attention" chapter: runs
// the training engine (nmt-engine.js) off the main thread, so training never
// blocks the page. Bundled to text by scripts/build-nmt-worker.mjs and started
// from a Blob URL (which also works for pages opened from file://).
import { loadAttention } from 'attention-lab';
import { createEngine } from '../../lesson-kit/nmt-engine.js';

const handle = createEngine(loadAttention, (message) => postMessage(message));
onmessage = ({ data }) => handle(data);
