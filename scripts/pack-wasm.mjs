// A wasm module as the package ships it, in two files:
//   dist/lib/<name>.wasm.js  the binary, gzip-compressed, as a data: URI in a "data
//                            script" (globalThis.attentionLabData['wasm:<name>'] = …):
//                            valid as an ES module and as a classic script, so the
//                            modules import it and the classic scripts inject it, and
//                            the package holds each binary once;
//   dist/lib/<name>.mjs      the Emscripten glue (an ES module) importing the former.
// Served with compression, base64 of the raw binary costs ~1.4x its gzip size,
// base64 of the gzip ~1.0x; from file:// (no compression) 55% fewer bytes.
// cpp/wasm_pre.js unpacks it with DecompressionStream. Called by build-web.mjs.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { gzipSync } from 'node:zlib';
import { transformSync } from 'esbuild';

const RAW = /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/;

/** The data-script key of the binary of module `name` ('attention_core', …). */
export const wasmDataKey = (name) => `wasm:${name}`;

/** The binary's file beside module `dest` (x.mjs -> x.wasm.js). */
export const wasmDataFile = (dest) => dest.replace(/\.mjs$/, '.wasm.js');

/** Writes `source` (the linked module) to `dest` and its packed binary beside it; returns the byte counts. */
export function packWasmModule(source, dest) {
  const text = readFileSync(source, 'utf8');
  const match = RAW.exec(text);
  if (!match) throw new Error(`pack-wasm: no embedded wasm binary in ${source} (built without -sSINGLE_FILE?)`);
  const wasm = Buffer.from(match[1], 'base64');
  const packed = gzipSync(wasm, { level: 9 });
  const name = basename(dest, '.mjs');
  const key = JSON.stringify(wasmDataKey(name));
  writeFileSync(
    wasmDataFile(dest),
    `// attention-lab: the wasm binary of ${name}.mjs (gzip, base64) as a data script: scripts/pack-wasm.mjs.\n` +
      `(globalThis.attentionLabData = globalThis.attentionLabData || {})[${key}] =\n` +
      `  "data:application/gzip;base64,${packed.toString('base64')}";\n`,
  );
  // The glue reads the binary when the factory runs (the classic builds load the data script first).
  const module = withOwnFieldsOnly(text)
    .replace(RAW, () => `globalThis.attentionLabData[${key}]`)
    // The glue's script directory locates a separate .wasm file, and there is none. Left as
    // import.meta.url, webpack and Parcel would write the build machine's file:// path in its place.
    .replace('var _scriptDir = import.meta.url;', 'var _scriptDir = undefined;');
  // Emscripten's glue keeps its local names without closure-compiler (not in the
  // toolchain); esbuild shortens them: 3.9 KiB gzip less for a page that loads the module.
  const glue = transformSync(module, { minify: true, format: 'esm', target: 'esnext' }).code;
  writeFileSync(dest, `import './${name}.wasm.js';\n${glue}`);
  return { wasm: wasm.length, packed: packed.length };
}

// Embind 3.1.6 keeps a value_object's fields in `{}` and walks them with for...in,
// so an enumerable key added to Object.prototype (Object.prototype.foo = 1) became a
// "field" whose .write is not a function and every call threw. A null-prototype
// object has only the real fields. (Fixed upstream later; this is the one glue edit.)
const VALUE_OBJECT_FIELDS = 'var fields={};';

/** The glue with value_object fields in a null-prototype object; throws if the pattern moved. */
function withOwnFieldsOnly(text) {
  const count = text.split(VALUE_OBJECT_FIELDS).length - 1;
  if (count !== 1) throw new Error(`pack-wasm: expected one "${VALUE_OBJECT_FIELDS}" in the glue, found ${count}`);
  return text.replace(VALUE_OBJECT_FIELDS, 'var fields=Object.create(null);');
}

/** The packed (gzip) wasm binary inside a data script's text (x.wasm.js; for size reports). */
export function unpackWasm(moduleText) {
  const match = /"data:application\/gzip;base64,([A-Za-z0-9+/=]+)"/.exec(moduleText);
  return match ? Buffer.from(match[1], 'base64') : null;
}

/**
 * The threaded model module (CMake's model_wasm_threads) as packWasmModule
 * writes any module, plus the pthread workers' startup script Emscripten
 * 3.1.6 writes beside it (<name>.worker.js; SINGLE_FILE does not embed it), minified.
 * The glue names that file with new Worker(new URL('<name>.worker.js',
 * import.meta.url)), and the worker imports './<name>.mjs': both stay beside it.
 */
export function packThreadedModule(source, dest) {
  const sizes = packWasmModule(source, dest);
  const worker = source.replace(/\.mjs$/, '.worker.js');
  const name = basename(dest, '.mjs');
  const text = readFileSync(worker, 'utf8');
  if (!text.includes(`'./${name}.mjs'`) && !text.includes(`"./${name}.mjs"`))
    throw new Error(`pack-wasm: ${worker} does not import ./${name}.mjs`);
  const glue = readFileSync(dest, 'utf8');
  if (!glue.includes(`${name}.worker.js`)) throw new Error(`pack-wasm: ${dest} does not name ${name}.worker.js`);
  const code = transformSync(text, { minify: true, target: 'es2020' }).code;
  writeFileSync(
    dest.replace(/\.mjs$/, '.worker.js'),
    `// attention-lab: the pthread workers' startup script of ${name}.mjs.\n${code}`,
  );
  return sizes;
}
