// JSX typings of the elements for React (18 and 19) + TypeScript. Opt in with
//   import type {} from 'attention-lab/react';
// (kept apart from 'attention-lab/elements' so that projects without
// @types/react still compile).
import type { AttentionHeatmapAttributes, AttentionLessonAttributes } from 'attention-lab/elements';
import type { DetailedHTMLProps, HTMLAttributes } from 'react';

type AttentionElementProps<Attributes> = DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & Attributes;

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'attention-lesson': AttentionElementProps<AttentionLessonAttributes>;
      'attention-heatmap': AttentionElementProps<AttentionHeatmapAttributes>;
    }
  }
}
declare global {
  namespace JSX {
    interface IntrinsicElements {
      'attention-lesson': AttentionElementProps<AttentionLessonAttributes>;
      'attention-heatmap': AttentionElementProps<AttentionHeatmapAttributes>;
    }
  }
}
