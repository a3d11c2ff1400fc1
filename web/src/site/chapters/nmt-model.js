// The pure parts of the "Neural machine translation with attention" chapter
// (no DOM): its choices, its permalink schema and the label helpers. The model
// itself trains in nmt-engine.js (through the API's Seq2SeqTrainer).

export const DEFAULT_INPUT = { dates: 'Saturday 21/11/26', reverse: '12345678' };
export const MAX_INPUT = 40; // characters, like the input box
export const TASKS = [
  ['dates', 'Dates → ISO yyyy-mm-dd'],
  ['reverse', 'Reverse a string of digits'],
];
export const SCORES = [
  ['luong-general', 'Luong general: hₜᵀ W sⱼ'],
  ['luong-dot', 'Luong dot: hₜᵀ sⱼ'],
  ['luong-concat', 'Luong concat: vᵀ tanh(W[hₜ; sⱼ])'],
  ['bahdanau', 'Bahdanau additive: vᵀ tanh(W₁hₜ + W₂sⱼ + b)'],
];

/** The permalink state (url-state.js). An absent input means the task's default. */
export const SCHEMA = [
  { key: 'task', type: 'enum', values: TASKS.map(([id]) => id), default: 'dates' },
  { key: 'score', type: 'enum', values: SCORES.map(([id]) => id), default: 'luong-general' },
  { key: 'q', name: 'input', type: 'string', maxLength: MAX_INPUT, default: null },
];

/** Base64 text → bytes (the shipped checkpoint). */
export function decodeBase64(text) {
  const binary = atob(text.trim());
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Characters as heatmap labels (a space shows as ␣). */
export const chars = (s) => Array.from(s, (c) => (c === ' ' ? '␣' : c));
/** Hidden-unit labels: every eighth numbered. */
export const units = (n) => Array.from({ length: n }, (_, i) => (i % 8 === 0 ? `${i + 1}` : ''));
