// What the KV-cache chapter's steps share (from the lesson kit): number fields, a
// select of numbers, traced heatmaps and `name = array(...)` as NumPy prints it.
export { intField, numberSelect, numpyRepr, thousands, tracedMap } from '../../../lesson-kit/step-parts.js';
