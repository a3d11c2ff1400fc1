#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build attention-lab. Idempotent
# and quick when nothing is missing.
#   bash scripts/setup.sh --site   what `npm start` needs to build and serve the site:
#                                  Emscripten, CMake, Eigen, the npm dev dependencies
#   bash scripts/setup.sh          all `npm test` needs besides: g++, Catch2, Chromium,
#                                  clang-format, Jupyter (the notebook test) and MkDocs
# Asks for root (sudo) only when a Debian package is missing, and says which first.
# Without apt-get, or without root and sudo, it prints what to install by hand.
set -euo pipefail
cd "$(dirname "$0")/.."

site_only=false
case "${1:-}" in
  "") ;;
  --site) site_only=true ;;
  *) echo "usage: $0 [--site]" >&2; exit 2 ;;
esac

missing=()
# need PACKAGE PROBE...: PACKAGE is missing unless dpkg has it installed or PROBE succeeds
# (a manual install: emsdk, Homebrew, another distribution's package).
need() {
  local package=$1
  shift
  if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then return; fi
  if "$@" >/dev/null 2>&1; then return; fi
  missing+=("$package")
}
has_eigen() { for d in /usr/include/eigen3 /usr/local/include/eigen3 /opt/homebrew/include/eigen3 "${EIGEN3_INCLUDE_DIR:-/nonexistent}"; do [ -f "$d/Eigen/Core" ] && return 0; done; return 1; }

need emscripten command -v em++
need cmake command -v cmake
need libeigen3-dev has_eigen
if [ "$site_only" = false ]; then
  need g++ command -v g++
  need catch2 test -f /usr/include/catch2/catch.hpp
  need chromium command -v chromium
  need clang-format command -v clang-format
  # A real notebook host for tests/package/notebook.test.mjs: Jupyter executes and exports a notebook.
  need jupyter-nbconvert command -v jupyter-nbconvert
  need python3-nbconvert command -v jupyter-nbconvert
  need jupyter-notebook command -v jupyter-notebook
  need python3-ipykernel /usr/bin/python3 -c 'import ipykernel'
  # A real static-site host for tests/package/mkdocs.test.mjs (9 MB to download).
  need mkdocs command -v mkdocs
fi

manual() {
  cat >&2 <<EOF
setup: install these by hand, then run this again: ${missing[*]}
  Debian/Ubuntu:  sudo apt-get install ${missing[*]}
  Without apt (README, "Work on the project"): Emscripten from its SDK (emsdk install 3.1.6 &&
  emsdk activate 3.1.6, then source emsdk_env.sh), Eigen 3 and CMake from the system's packages
  (macOS: brew install eigen cmake; Fedora: sudo dnf install eigen3-devel cmake; Arch: sudo pacman
  -S eigen cmake; set EIGEN3_INCLUDE_DIR if Eigen is elsewhere), and for npm test also g++, Catch2 2,
  Chromium, clang-format, Jupyter and MkDocs.
EOF
  exit 1
}

if [ ${#missing[@]} -gt 0 ]; then
  command -v apt-get >/dev/null 2>&1 || manual
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || manual
    echo "setup: needs root to install: ${missing[*]} (apt-get, through sudo)"
    SUDO="sudo"
  else
    echo "setup: installing Debian packages: ${missing[*]}"
  fi
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# npm ci only when node_modules is missing or older than the lock file.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
