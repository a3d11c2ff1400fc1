// Types for 'attention-lab/anywidget': an anywidget front end (https://anywidget.dev),
// `export default { render }`. The model is anywidget's; only what render uses is typed.

/** The widget model as render reads it (anywidget's AnyModel). */
export interface AttentionWidgetModel {
  get(name: string): unknown;
  set(name: string, value: unknown): void;
  save_changes(): void;
  on(event: string, callback: () => void): void;
  off?(event: string, callback: () => void): void;
}

declare const widget: {
  /** Draws a heatmap (kind 'heatmap', the default) or a lesson (kind 'lesson') into `el`; returns the clean-up. */
  render(context: { model: AttentionWidgetModel; el: HTMLElement }): () => void;
};
export default widget;
