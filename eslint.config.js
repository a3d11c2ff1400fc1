// ESLint flat config (ESLint 9). `npm run lint` runs it over web/, scripts/,
// tests/ and bench/; see scripts/lint.sh.
import js from '@eslint/js';
import globals from 'globals';

export default [
  {
    // Generated, vendored or installed code.
    ignores: [
      '**/node_modules/**',
      'dist/**',
      'build/**',
      'web/src/api/attention_core.mjs',
      'tests/package/consumer/**/node_modules/**',
      '**/*.min.js',
    ],
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...js.configs.recommended,
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      ...js.configs.recommended.rules,
      'no-unused-vars': [
        'error',
        {
          args: 'after-used',
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrors: 'all',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
        },
      ],
    },
  },
  {
    // Code that runs in the page (the site and the JS API).
    files: ['web/**/*.js', 'web/**/*.mjs', 'tests/package/consumer/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Web Workers of the site.
    files: ['web/src/site/**/*-worker.js', 'web/src/site/chapters/*/worker.js'],
    languageOptions: { globals: { ...globals.worker } },
  },
  {
    // The JS API also runs in Node; it only touches `process` behind a typeof guard.
    files: ['web/src/api/embeddings.js'],
    languageOptions: { globals: { process: 'readonly' } },
  },
  {
    // Emscripten --pre-js: a classic script pasted inside the generated module factory.
    files: ['cpp/wasm_pre.js'],
    languageOptions: {
      sourceType: 'script',
      globals: {
        ...globals.browser,
        Module: 'readonly',
        getBinary: 'readonly',
        intArrayFromBase64: 'readonly',
        wasmBinary: 'readonly',
        wasmBinaryFile: 'readonly',
        abort: 'readonly',
      },
    },
  },
  {
    // Build scripts, tests, benchmarks and the package's command line run in Node.
    files: [
      'bin/**/*.mjs',
      'scripts/**/*.js',
      'scripts/**/*.mjs',
      'tests/**/*.js',
      'tests/**/*.mjs',
      'web/src/site/chapters/*/test/**/*.mjs',
      'bench/**/*.js',
      'bench/**/*.mjs',
    ],
    ignores: ['tests/package/consumer/**'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Playwright tests: callbacks of page.evaluate / $eval / waitForFunction run in the page.
    files: [
      'tests/browser/**/*.mjs',
      'web/src/site/chapters/*/test/**/*.mjs',
      'tests/package/**/*.mjs',
      'scripts/screenshot.mjs',
      'bench/frame.mjs',
      'bench/frame-profile.mjs',
    ],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
];
