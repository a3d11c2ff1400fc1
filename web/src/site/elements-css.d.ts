// Types for 'attention-lab/elements.css' (a stylesheet: a bundler's CSS import,
// nothing to import by name), so that TypeScript's side-effect import checks pass.
export {};
