// What the flash chapter's steps share (from the lesson kit): number fields, a
// checkbox, traced heatmaps and grouped digits.
export { checkbox, intField, thousands, tracedMap } from '../../../lesson-kit/step-parts.js';
