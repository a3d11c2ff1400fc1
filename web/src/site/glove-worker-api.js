// The API inside the site's GloVe worker (a classic worker started from
// glove-worker.js): the classic build next to it, else the package's copy
// (../classic/), read with importScripts instead of bundled (one wasm copy).
/* global importScripts */

function classicApi() {
  if (!self.AttentionLab) {
    try {
      importScripts('attention-lab.js');
    } catch {
      importScripts('../classic/attention-lab.js');
    }
  }
  return self.AttentionLab;
}

export const loadAttention = () => classicApi().loadAttention({ trainers: false }); // GloVe trains nothing
