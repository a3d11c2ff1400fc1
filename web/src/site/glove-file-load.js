// The GloVe chapter's worker side: streams a GloVe file picked by the reader
// through its own copy of the wasm core, so a 5 GB file never blocks the page.
// Runs in the site's glove-worker.js and the elements' lesson-worker.js.
//
// in:  { type: 'load', file: File, vocabulary: string[], limit: number }
// out: { type: 'progress', bytesRead, totalBytes, lines, words }
//      { type: 'done', bytes: Uint8Array (binary form, float32), lines }
//      { type: 'error', name, message }
// Cancelling is terminating the worker.
import { loadAttention } from 'attention-lab';

/** Loads the file of a { type: 'load' } message, posting progress, then the table or the error. */
export async function loadGloveFile({ file, vocabulary, limit }) {
  try {
    const a = await loadAttention({ trainers: false });
    let last = 0;
    let lines = 0;
    const E = await a.loadEmbeddings(file, {
      vocabulary,
      limit,
      onProgress: (p) => {
        lines = p.lines;
        const now = Date.now();
        if (now - last < 100 && p.bytesRead !== p.totalBytes) return;
        last = now;
        self.postMessage({ type: 'progress', ...p });
      },
    });
    try {
      const bytes = E.toBinary({ encoding: 'float32', info: file.name });
      self.postMessage({ type: 'done', bytes, lines }, [bytes.buffer]);
    } finally {
      E.delete();
    }
  } catch (error) {
    self.postMessage({ type: 'error', name: error?.name ?? 'Error', message: error?.message ?? String(error) });
  }
}
