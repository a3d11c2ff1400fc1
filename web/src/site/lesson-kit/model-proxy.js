// The page side of the model chapter's opened model: openModelOffThread opens
// a model in a Web Worker of its own (lesson-kit/model-host.js answers there)
// and resolves to a proxy with the model's method names, each returning a
// promise (`await model.runIds(ids, options)`), its data (config, family) copied,
// and delete() ending the worker (its wasm memory with it). Nothing of opening
// or running a model then blocks the page. The worker is, in order:
//   assets.modelWorker   the host's module worker (the elements: lesson-worker.js,
//                        which imports the page's own API module: one wasm download)
//   assets.modelReader   the site: a classic worker from a Blob URL (which pages
//                        opened from file:// can start) made of what the page loads
//                        anyway: the model reader's data script (its source text,
//                        kept as a function) and its wasm module's data script value;
//                        on a cross-origin isolated page over http(s), also the URL
//                        of the package's threaded model module (its `threadedCore`),
//                        which the reader then imports to run on the machine's cores
//                        (one thread if it cannot: scripts/build-web.mjs)
//   neither, or a worker that cannot start (a Content-Security-Policy without
//                        blob: workers): the same proxy over the API on the page.
import { loadDataScript } from '../data-script.js';
import { modelHost } from './model-host.js';

const TAG = '__attentionLab';
/** The user-timing name of the proxy's own main-thread work (the page's responsiveness test reads it). */
export const PAGE_WORK = 'attention-lab:model-page-work';

/** `work()`, its time on the main thread recorded as a PAGE_WORK measure. */
function timed(work) {
  const start = performance.now();
  try {
    return work();
  } finally {
    try {
      performance.measure(PAGE_WORK, { start, end: performance.now() });
    } catch {
      // no user timing here (an old engine): nothing to record
    }
  }
}
/** The data script key of the model reader's source (scripts/build-web.mjs). */
export const READER_SOURCE_KEY = 'attention-lab-model-source';
const ERRORS = { TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError };

/** The error the worker reported, as the same class with the same message. */
function rebuildError(name, message) {
  if (name === 'AbortError') return new DOMException(message, 'AbortError');
  const error = new (ERRORS[name] ?? Error)(message);
  if (!ERRORS[name] && name !== 'Error') error.name = name;
  return error;
}

/** The worker's answer with its tagged matrices made the page's Matrix again. */
function revive(api, value, depth = 0) {
  if (depth > 8 || value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  if (value[TAG] === 'matrix') return new api.Matrix(value.rows, value.cols, value.data);
  if (Array.isArray(value)) return value.map((v) => revive(api, v, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  for (const key of Object.keys(value)) value[key] = revive(api, value[key], depth + 1);
  return value;
}

/**
 * The absolute URL of the threaded model module for the site's worker, where threads can
 * run (a cross-origin isolated page, fetched over http(s): a worker cannot import from
 * file://), else null.
 */
function threadedCoreUrl(relative) {
  if (typeof relative !== 'string' || globalThis.crossOriginIsolated !== true) return null;
  const base = new URL(globalThis.document?.baseURI ?? globalThis.location?.href);
  return base.protocol === 'http:' || base.protocol === 'https:' ? new URL(relative, base).href : null;
}

/** The blob worker's source: the wasm data, the model reader, the host (each the page's own code). */
function blobSource(readerSource, wasm, threadedCore) {
  const data = Object.entries(wasm).map(
    ([key, value]) =>
      `(globalThis.attentionLabData = globalThis.attentionLabData || {})[${JSON.stringify(key)}] = ${JSON.stringify(value)};\n`,
  );
  return [
    ...(threadedCore ? [`globalThis.attentionLabThreadedCore = ${JSON.stringify(threadedCore)};\n`] : []),
    ...data,
    `(${readerSource})();\n`,
    `var handle = (${modelHost.toString()})(function (m, t) { postMessage(m, t || []); }, function () {\n`,
    `  return Promise.resolve(globalThis.attentionLabData[${JSON.stringify('attention-lab-model')}].openModel);\n`,
    `});\n`,
    `onmessage = function (e) { handle(e.data); };\n`,
  ].join('');
}

let blobUrl; // the site's worker source, made once

/** A started worker as a channel { post, terminate }, or null when none can be made here. */
async function workerChannel(assets, receive) {
  let worker;
  if (typeof assets.modelWorker === 'function') worker = assets.modelWorker();
  else if (typeof assets.modelWorker === 'string') worker = new Worker(assets.modelWorker, { type: 'module' });
  else if (assets.modelReader) {
    const { source, wasm, threadedCore } = assets.modelReader;
    const [reader, ...values] = await Promise.all([
      loadDataScript(READER_SOURCE_KEY, source),
      ...Object.values(wasm).map((urls, i) => loadDataScript(Object.keys(wasm)[i], urls)),
    ]);
    // One Blob per page: its URL stays for the next model (the Blob holds the page's own strings).
    blobUrl ??= timed(() =>
      URL.createObjectURL(
        new Blob(
          [
            blobSource(
              String(reader),
              Object.fromEntries(Object.keys(wasm).map((k, i) => [k, values[i]])),
              threadedCoreUrl(threadedCore),
            ),
          ],
          { type: 'text/javascript' },
        ),
      ),
    );
    worker = timed(() => new Worker(blobUrl));
  } else return null;
  // Started once the worker answers the ping; an error before that: no worker here.
  return new Promise((resolve) => {
    let ready = false;
    worker.onmessage = ({ data }) => {
      if (!ready && data?.type === 'model:ready') {
        ready = true;
        resolve({ post: (m) => timed(() => worker.postMessage(m)), terminate: () => worker.terminate() });
      } else if (ready) receive(data);
    };
    worker.onerror = (event) => {
      event.preventDefault?.();
      if (!ready) {
        worker.terminate();
        resolve(null);
      } else receive({ type: 'model:crash', message: event.message || 'the model worker stopped' });
    };
    worker.postMessage({ type: 'model:ping' });
  });
}

/** The same protocol on the page: the host runs here, over the API's openModel. */
function pageChannel(api, receive) {
  const handle = modelHost(
    (m) => queueMicrotask(() => receive(m)),
    () => Promise.resolve(api.openModel),
  );
  return { post: (m) => handle(m), terminate: () => {}, onPage: true };
}

/**
 * Opens `files` (openModel's) with `options` (its onProgress, signal, origins …) off the
 * main thread. Resolves to the model's proxy; rejects with openModel's own error class and
 * message. `assets`: the chapter's (see above).
 */
export async function openModelOffThread(api, assets, files, options = {}) {
  const pending = new Map(); // call id -> { resolve, reject, callbacks }
  let nextId = 1;
  let closed = null; // the reason calls fail once the worker is gone
  const receive = (data) => {
    if (data?.type === 'model:crash') {
      closed = new Error(`the model's worker stopped (${data.message})`);
      for (const call of pending.values()) call.reject(closed);
      pending.clear();
      return;
    }
    const call = pending.get(data?.id);
    if (!call) return;
    if (data.type === 'model:callback') call.callbacks[data.slot]?.(...timed(() => revive(api, data.args)));
    else {
      pending.delete(data.id);
      if (data.type === 'model:result') call.resolve(timed(() => revive(api, data.value)));
      else call.reject(rebuildError(data.name, data.message));
    }
  };
  let channel = null;
  try {
    channel = await workerChannel(assets, receive);
  } catch {
    channel = null; // no worker source here (a data script missing): on the page
  }
  channel ??= pageChannel(api, receive);

  /** Posts a call; callbacks and a signal among an options object's fields travel as tags. */
  function remote(method, args) {
    if (closed) return Promise.reject(closed);
    const id = nextId++;
    const callbacks = [];
    let signal = null;
    const tagged = args.map((arg) => {
      if (arg === null || typeof arg !== 'object' || Object.getPrototypeOf(arg) !== Object.prototype) return arg;
      const out = {};
      for (const [key, value] of Object.entries(arg)) {
        if (typeof value === 'function') out[key] = { [TAG]: 'callback', slot: callbacks.push(value) - 1 };
        else if (typeof AbortSignal !== 'undefined' && value instanceof AbortSignal) {
          signal = value;
          out[key] = { [TAG]: 'signal' };
        } else out[key] = value;
      }
      return out;
    });
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject, callbacks });
      channel.post({ type: 'model:call', id, method, args: tagged });
      if (signal) {
        const abort = () => channel.post({ type: 'model:abort', id });
        if (signal.aborted) abort();
        else signal.addEventListener('abort', abort, { once: true });
      }
    });
  }

  let opened;
  try {
    opened = await remote('openModel', [files, options]);
  } catch (error) {
    channel.terminate();
    throw error;
  }
  return modelProxy(
    opened,
    remote,
    () => {
      closed ??= new TypeError('this model was deleted');
      for (const call of pending.values()) call.reject(closed);
      pending.clear();
      channel.terminate();
    },
    Boolean(channel.onPage),
  );
}

/** The proxy: the model's copied data, one promise-returning function per method, delete(). */
function modelProxy({ props, methods }, remote, close, onPage) {
  let deleted = false;
  const proxy = { ...props };
  for (const method of methods) {
    const [owner, name] = method.startsWith('tokenizer.')
      ? [(proxy.tokenizer ??= {}), method.slice(10)]
      : [proxy, method];
    owner[name] = (...args) =>
      deleted ? Promise.reject(new TypeError(`${method}: this model was deleted`)) : remote(method, args);
  }
  // delete() is synchronous, as the API's: the worker (or, on the page, the model) goes now.
  const end = () => {
    if (deleted) return;
    deleted = true;
    if (onPage) remote('delete', []).catch(() => {});
    close();
  };
  Object.defineProperties(proxy, {
    delete: { value: end },
    deleted: { get: () => deleted },
    offThread: { value: !onPage },
    [Symbol.dispose ?? Symbol.for('Symbol.dispose')]: { value: end },
  });
  return proxy;
}
