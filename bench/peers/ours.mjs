// attention-lab itself, through its public JS API (dist/lib), in float64 and,
// when this build has one, in float32: plain matrices in, Matrix results out,
// conversions and copies included.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

/** True if the API takes { precision: 'float32' } and returns Float32Array-backed results. */
function hasFloat32Path(a) {
  const eye = { rows: 2, cols: 2, data: new Float32Array([1, 0, 0, 1]) };
  try {
    return a.scaledDotProductAttention(eye, eye, eye, { precision: 'float32' }).output.data instanceof Float32Array;
  } catch (_unknownOption) {
    return false;
  }
}

export async function loadOurs(libPath) {
  if (!existsSync(libPath)) throw new Error(`${libPath} is missing: run \`npm run build\` first`);
  const { loadAttention } = await import(pathToFileURL(libPath).href);
  const a = await loadAttention();
  const float32 = hasFloat32Path(a);
  const peer = (precision) => ({
    precision,
    prepare(op, x) {
      const opts = precision === 'float32' ? { precision } : undefined;
      if (op === 'sdpa') return () => a.scaledDotProductAttention(x.Q, x.K, x.V, opts).output.data;
      const params = { heads: x.heads, Wq: x.Wq, Wk: x.Wk, Wv: x.Wv, Wo: x.Wo, ...opts };
      return () => a.multiHeadAttention(x.X, x.X, x.X, params).output.data;
    },
  });
  return {
    float64: { label: 'attention-lab float64', ...peer('float64') },
    float32: float32 ? { label: 'attention-lab float32', ...peer('float32') } : null,
  };
}
