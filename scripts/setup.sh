#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build and test attention-lab.
# Idempotent and quick when nothing is missing. Run by `npm start` and `npm test`.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v em++ >/dev/null 2>&1 || missing+=(emscripten)
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
[ -f /usr/include/eigen3/Eigen/Core ] || missing+=(libeigen3-dev)
[ -f /usr/include/catch2/catch.hpp ] || missing+=(catch2)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v clang-format >/dev/null 2>&1 || missing+=(clang-format)
# A real notebook host for tests/package/notebook.test.mjs: Jupyter executes and exports a notebook.
command -v jupyter-nbconvert >/dev/null 2>&1 || missing+=(jupyter-nbconvert python3-nbconvert)
command -v jupyter-notebook >/dev/null 2>&1 || missing+=(jupyter-notebook)
/usr/bin/python3 -c 'import ipykernel' >/dev/null 2>&1 || missing+=(python3-ipykernel)

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "setup: need root (or sudo) to apt-get install ${missing[*]}" >&2; exit 1; }
    SUDO="sudo"
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# npm ci only when node_modules is missing or older than the lock file.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
