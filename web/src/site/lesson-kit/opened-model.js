// The model the "Open a real model" chapter has open, for the chapters that show
// a real model's numbers next to their own (its config, its q, k and cache).
// One per page: set by the model chapter, read (and followed) by the others.
let model = null;
const listeners = new Set();

/** The open model, or null. */
export const openedModel = () => model;

/** Called by the model chapter when it opens a model (null when it closes one). */
export function setOpenedModel(next) {
  model = next ?? null;
  for (const listener of listeners) listener(model);
}

/** Calls `listener(model)` on every change until `signal` aborts; returns the current model. */
export function followOpenedModel(listener, signal) {
  listeners.add(listener);
  signal?.addEventListener('abort', () => listeners.delete(listener));
  return model;
}
