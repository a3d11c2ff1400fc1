// Web Worker of the GloVe chapter (the site's; the elements use lesson-worker.js):
// loads a reader's GloVe file (glove-file-load.js). Bundled to
// dist/site/glove-worker.js by scripts/build-embeddings.mjs.
import { loadGloveFile } from './glove-file-load.js';

self.onmessage = (event) => {
  if (event.data?.type === 'load') loadGloveFile(event.data);
};
