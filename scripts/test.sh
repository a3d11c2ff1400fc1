#!/usr/bin/env bash
# Runs the lint checks, then every test layer against what scripts/build.sh produced.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== Lint (eslint, prettier --check, clang-format --dry-run)"
npm run --silent lint
echo "== C++ (Catch2 via ctest)"
ctest --test-dir build/native --output-on-failure -j2
echo "== JS API (node:test)"
node --test tests/js/
echo "== Types (tsc)"
npx --no-install tsc -p tests/types/tsconfig.json
echo "== Package (npm pack -> offline install -> Node, tsc --strict, esbuild, module and classic scripts)"
node --test --test-concurrency=1 tests/package/
echo "== Hosts (npm registry -> Vite 8 and 7, Astro 5, SvelteKit 2, Docusaurus 3 -> Chromium; skipped offline)"
node --test --test-concurrency=1 tests/hosts/
echo "== Browser end-to-end (node:test + playwright-core + chromium)"
node --test --test-concurrency=1 tests/browser/ web/src/site/chapters/  # chapters/<id>/test/*.test.mjs
