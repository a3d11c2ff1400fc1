// Loads a "data script": a classic script that stores one value under
// globalThis.attentionLabData[key] (built by scripts/build-web.mjs). Classic
// scripts load everywhere the site runs, file:// included, and under a CSP
// with script-src 'self'; so chapters fetch their large assets (the NMT
// checkpoint, its worker's source) only when they open.

/** @type {Map<string, Promise<unknown>>} */
const pending = new Map();

function inject(url, key) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.onload = () => {
      script.remove();
      const value = globalThis.attentionLabData?.[key];
      if (value === undefined) reject(new Error(`${url} did not define ${key}`));
      else resolve(value);
    };
    script.onerror = () => {
      script.remove();
      reject(new Error(`cannot load ${url}`));
    };
    document.head.append(script);
  });
}

/** Runs `load` (an import() of the data script as a module: bundlers follow it) and reads `key`. */
async function importData(load, key) {
  await load();
  const value = globalThis.attentionLabData?.[key];
  if (value === undefined) throw new Error(`the module imported for ${key} did not define it`);
  return value;
}

/**
 * The value stored under `key` by the first of `urls` that loads (later URLs
 * are fallbacks, e.g. the package's copy when a host did not copy the site's).
 * An entry may be a function that imports the data script as a module (the
 * custom elements: `() => import('./nmt-checkpoint.js')`, which every bundler
 * and dev server follows; a URL would need the bundler to copy the file).
 * @param {string} key
 * @param {(string|URL|(() => Promise<unknown>))[]} urls
 */
export function loadDataScript(key, urls) {
  if (globalThis.attentionLabData?.[key] !== undefined) return Promise.resolve(globalThis.attentionLabData[key]);
  if (!pending.has(key)) {
    const attempt = async () => {
      let last;
      for (const url of urls) {
        try {
          return typeof url === 'function' ? await importData(url, key) : await inject(String(url), key);
        } catch (error) {
          last = error;
        }
      }
      throw last ?? new Error(`no URL for ${key}`);
    };
    const loading = attempt();
    pending.set(key, loading);
    loading.catch(() => pending.delete(key));
  }
  return pending.get(key);
}
