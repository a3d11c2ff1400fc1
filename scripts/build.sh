#!/usr/bin/env bash
# Builds everything: the native core and Catch2 tests (build/native), the wasm
# module (build/wasm), the npm package files (dist/lib) and the site (dist/site).
# --site (npm start) leaves out the native build, which only the tests use.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
site_only=false
case "${1:-}" in
  "") ;;
  --site) site_only=true ;;
  *) echo "usage: $0 [--site]" >&2; exit 2 ;;
esac

# Emscripten 3.1.6 from Debian needs Debian's node modules (acorn) on NODE_PATH.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"

if [ "$site_only" = false ]; then
  echo "build: native core + tests"
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native -j"$jobs"
fi

echo "build: wasm core"
emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/wasm -j"$jobs"

echo "build: package and site"
node scripts/build-web.mjs
node scripts/build-embeddings.mjs  # GloVe chapter: shipped vocabulary (after build-web, which recreates dist/)
