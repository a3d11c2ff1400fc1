// Timing for bench/peers.mjs: every implementation is timed in several short
// rounds that alternate between implementations (the machine may be shared and
// its load may drift), one warm-up call per round, and the median of all
// samples is reported.

/** Runs `body` (sync or async) once untimed, then `runs` times; returns the times in ms. */
export async function samples(body, runs) {
  await body();
  const out = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await body();
    out.push(performance.now() - t0);
  }
  return out;
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
