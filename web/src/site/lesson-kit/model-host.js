// The worker side of the model chapter's opened model (lesson-kit/model-proxy.js
// is the page side): it opens one model with the API's openModel and answers
// the page's calls on it by message. Generic: every method the model (and its
// tokenizer) has is listed to the page at open, so a new API method passes
// through with no edit here. Callbacks in a call's options (onProgress,
// onToken) come back as messages; an AbortSignal is rebuilt here and aborted
// by the page's 'model:abort'. Matrices go back as tagged plain objects (their
// data buffers transferred) that the proxy turns into the page's Matrix.
//
// modelHost must stay self-contained (no name from outside its body): the site
// starts its worker from a Blob URL made of this function's source text
// (Function.prototype.toString), which also works for pages opened from file://.
//
// Messages in:  { type: 'model:ping' } (answered 'model:ready': the worker runs)
//               { type: 'model:call', id, method: 'openModel' | 'run' | 'tokenizer.encode' | …, args }
//               { type: 'model:abort', id }
// Messages out: { type: 'model:ready' }
//               { type: 'model:result', id, value } (openModel: { family, props, methods })
//               { type: 'model:error', id, name, message }
//               { type: 'model:callback', id, slot, args } (a callback of the call's options)

/**
 * @param {(message: object, transfer?: Transferable[]) => void} post posts to the page
 * @param {() => Promise<(files: any, options?: any) => Promise<any>>} loadOpen resolves to the API's openModel
 * @returns {(data: any) => boolean} handles one message; false for a message that is not the model's
 */
export function modelHost(post, loadOpen) {
  const TAG = '__attentionLab';
  let model = null;
  const aborts = new Map(); // call id -> AbortController of its options.signal
  let queue = Promise.resolve(); // calls run one after another, in the order sent (as the API's would)

  const isMatrix = (v) =>
    v !== null &&
    typeof v === 'object' &&
    typeof v.get === 'function' &&
    Number.isInteger(v.rows) &&
    Number.isInteger(v.cols) &&
    (v.data instanceof Float64Array || v.data instanceof Float32Array);

  /** `value` with every Matrix tagged, its data buffer listed in `transfer` (results are the model's copies). */
  function encode(value, transfer, depth) {
    if (depth > 8 || value === null || typeof value !== 'object') return value;
    if (isMatrix(value)) {
      const { data } = value;
      if (data.byteOffset === 0 && data.byteLength === data.buffer.byteLength && !transfer.includes(data.buffer))
        transfer.push(data.buffer);
      return { [TAG]: 'matrix', rows: value.rows, cols: value.cols, data };
    }
    if (Array.isArray(value)) return value.map((v) => encode(v, transfer, depth + 1));
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value; // typed arrays, Maps, …: structured clone
    const out = {};
    for (const key of Object.keys(value)) out[key] = encode(value[key], transfer, depth + 1);
    return out;
  }

  /** The page's arguments: tagged callbacks become functions that post, a tagged signal an AbortSignal. */
  function decode(args, id) {
    const one = (v) => {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
      if (v[TAG] === 'signal') {
        const controller = new AbortController();
        aborts.set(id, controller);
        return controller.signal;
      }
      if (v[TAG] === 'callback') {
        const slot = v.slot;
        return (...callbackArgs) => {
          const transfer = [];
          const encoded = encode(callbackArgs, transfer, 0);
          post({ type: 'model:callback', id, slot, args: encoded }, transfer);
        };
      }
      return v;
    };
    return args.map((arg) => {
      if (arg === null || typeof arg !== 'object' || Array.isArray(arg) || arg[TAG]) return one(arg);
      if (Object.getPrototypeOf(arg) !== Object.prototype) return arg;
      const out = {};
      for (const key of Object.keys(arg)) out[key] = one(arg[key]);
      return out;
    });
  }

  /** Names of the functions of `object` (its own and its classes'), as 'prefix' + name. */
  function methodsOf(object, prefix) {
    const names = new Set();
    for (let o = object; o && o !== Object.prototype; o = Object.getPrototypeOf(o))
      for (const key of Object.getOwnPropertyNames(o)) {
        if (key === 'constructor' || key.startsWith('_')) continue;
        const d = Object.getOwnPropertyDescriptor(o, key);
        if (d && typeof d.value === 'function') names.add(prefix + key);
      }
    return [...names];
  }

  /** The model's own data (config, family, …) that can be copied to the page. */
  function propsOf(object) {
    const props = {};
    for (const key of Object.keys(object)) {
      const v = object[key];
      if (key === 'tokenizer' || typeof v === 'function') continue;
      try {
        props[key] = structuredClone(v);
      } catch {
        // not copyable (an object of the core): the page does without it
      }
    }
    return props;
  }

  async function call(method, args) {
    if (method === 'openModel') {
      if (model) throw new Error('openModel: this worker holds a model already');
      const openModel = await loadOpen();
      model = await openModel(...args);
      return {
        props: propsOf(model),
        methods: [...methodsOf(model, ''), ...(model.tokenizer ? methodsOf(model.tokenizer, 'tokenizer.') : [])],
      };
    }
    if (!model) throw new TypeError(`${method}: no model is open`);
    const [owner, name] = method.startsWith('tokenizer.') ? [model.tokenizer, method.slice(10)] : [model, method];
    if (typeof owner?.[name] !== 'function') throw new TypeError(`${method}: the model has no such method`);
    return owner[name](...args);
  }

  return (data) => {
    const type = typeof data?.type === 'string' ? data.type : '';
    if (type === 'model:ping') post({ type: 'model:ready' });
    else if (type === 'model:abort')
      aborts.get(data.id)?.abort(new DOMException('the call was cancelled', 'AbortError'));
    if (type !== 'model:call') return type.startsWith('model:');
    const { id, method } = data;
    const args = decode(Array.isArray(data.args) ? data.args : [], id);
    queue = queue
      .then(() => call(method, args))
      .then(
        (value) => {
          const transfer = [];
          post({ type: 'model:result', id, value: encode(value, transfer, 0) }, transfer);
        },
        (error) =>
          post({
            type: 'model:error',
            id,
            name: error?.name ?? 'Error',
            message: error instanceof Error ? error.message : String(error),
          }),
      )
      .finally(() => aborts.delete(id));
    return true;
  };
}
