// A computation run stage by stage (no DOM), so that one failing stage (a score
// that overflows float64) stops only what depends on it: chapter-kit's
// showSteps() then shows each step its result, its error, or greys it out.

/**
 * `stage(name, compute)` runs `compute()` and merges the object it returns into
 * `r`, or records the Error it throws in `failures[name]`; a stage whose input
 * failed is simply not run (test `r.x` first). `firstFailure()`: the first Error, or null.
 * @param {Record<string, unknown>} [start] results known before any stage (inputs)
 */
export function staged(start = {}) {
  const r = { ...start };
  const failures = {};
  return {
    r,
    failures,
    stage(name, compute) {
      try {
        Object.assign(r, compute());
      } catch (error) {
        failures[name] = error;
      }
    },
    firstFailure: () => Object.values(failures)[0] ?? null,
  };
}
