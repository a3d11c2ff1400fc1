// The model chapter's first step: which model is open (the built-in demo, the
// reader's folder picked or dropped, or a course site's model-src folder), with
// a progress bar while the weights load, a Cancel button and the error text.
// No file leaves the reader's machine: the files are read where they are.
import { el } from '../../../dom.js';
import { step } from '../../../chapter-kit.js';
import { MODEL_FILES, modelFiles, sizeText } from '../model.js';

/** The files of a drop: its files, and those of dropped folders one level down. */
async function droppedFiles(transfer) {
  const entries = Array.from(transfer.items ?? [], (item) => item.webkitGetAsEntry?.()).filter(Boolean);
  if (!entries.some((e) => e.isDirectory)) return Array.from(transfer.files);
  const files = [];
  const fileOf = (entry) => new Promise((resolve, reject) => entry.file(resolve, reject));
  for (const entry of entries) {
    if (entry.isFile) files.push(await fileOf(entry));
    else {
      const children = await new Promise((resolve, reject) => entry.createReader().readEntries(resolve, reject));
      for (const child of children)
        if (child.isFile && MODEL_FILES.includes(child.name)) files.push(await fileOf(child));
    }
  }
  return files;
}

/**
 * @param {{ onOpen: (files: object, label: string) => void, onDemo: () => void, onCancel: () => void }} actions
 */
export function openStep({ onOpen, onDemo, onCancel }) {
  const error = el('p', { className: 'error model-open-error', attrs: { role: 'alert' }, hidden: true });
  const status = el('p', { className: 'model-status', attrs: { 'aria-live': 'polite' } }, 'loading the demo model…');
  const bar = el('progress', {
    className: 'model-progress',
    max: 1,
    value: 0,
    attrs: { 'aria-label': 'weights read' },
  });
  const cancel = el('button', { type: 'button', disabled: true, on: { click: () => onCancel() } }, 'Cancel');
  const showError = (message) => {
    error.hidden = !message;
    error.textContent = message ?? '';
  };
  const useDemo = (which) => {
    showError(null); // a new choice: the last one's error is over
    onDemo(which);
  };
  const demo = el('button', { type: 'button', on: { click: () => useDemo('demo') } }, 'Use the demo model');
  const llama = el('button', { type: 'button', on: { click: () => useDemo('llama') } }, 'Use the Llama demo');
  const take = (list) => {
    try {
      const files = modelFiles(list);
      showError(null);
      onOpen(files, files['model.safetensors'].name);
    } catch (e) {
      showError(e instanceof Error ? e.message : String(e));
    }
  };
  const picker = (label, attrs) => {
    const input = el('input', { type: 'file', attrs: { 'aria-label': label, ...attrs } });
    input.addEventListener('change', () => {
      take(Array.from(input.files ?? []));
      input.value = ''; // the same folder again is a new choice
    });
    return el('label', { className: 'model-picker' }, `${label}: `, input);
  };
  const folder = picker('Model folder', { webkitdirectory: '', multiple: '' });
  const files = picker('Or its files', { multiple: '', accept: '.json,.safetensors,.txt' });
  const drop = el(
    'div',
    { className: 'model-drop', attrs: { tabindex: '-1' } },
    'Or drop the folder or its files here: config.json, model.safetensors and tokenizer.json (or vocab.json and merges.txt; a BERT’s vocab.txt).',
  );
  drop.addEventListener('dragover', (event) => {
    event.preventDefault();
    drop.classList.add('is-over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('is-over'));
  drop.addEventListener('drop', (event) => {
    event.preventDefault();
    drop.classList.remove('is-over');
    droppedFiles(event.dataTransfer).then(take, (e) => showError(`the drop could not be read (${e.message})`));
  });

  const element = step({
    title: '1. Open a model',
    intro: [
      'A model as Hugging Face saves it (a GPT-2, a BERT, or another family this page reads, named by config.json’s model_type): a folder with config.json, model.safetensors and the tokenizer. Pick the folder (or its files) or drop it here; the weights are read on this computer, straight into the WebAssembly core, and never leave it. Until then the chapter runs a small demo model the project trained on simple sentences (a GPT-2: 2 layers, 4 heads, 32 numbers per token); the Llama demo, trained on the same sentences, shows modern attention: 4 query heads sharing 2 key/value heads, and positions as rotations (RoPE).',
    ],
    controls: [demo, llama, folder, files, cancel],
    after: [drop, el('div', { className: 'model-load' }, bar, status), error],
  });

  return {
    element,
    /** The Llama demo's button, where that demo can be had. */
    offerLlama(on) {
      llama.hidden = !on;
    },
    /** Loading began: progress from 0, Cancel enabled. */
    loading(label) {
      bar.value = 0;
      bar.hidden = false;
      cancel.disabled = false;
      status.textContent = `reading ${label}…`;
    },
    progress({ loaded, total }) {
      bar.value = total > 0 ? loaded / total : 0;
      status.textContent = `read ${sizeText(loaded)} of ${sizeText(total)}`;
    },
    /** Loading ended: `text` says which model is open (or why none). */
    done(text) {
      cancel.disabled = true;
      bar.hidden = true; // nothing is loading: no bar left part full
      status.textContent = text;
    },
    showError,
  };
}
