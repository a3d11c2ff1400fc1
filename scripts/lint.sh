#!/usr/bin/env bash
# Lint and format checks: ESLint (eslint.config.js), Prettier (.prettierrc.json,
# .prettierignore) and clang-format (.clang-format).
#   bash scripts/lint.sh           check only; exits non-zero on any violation (npm run lint)
#   bash scripts/lint.sh --write   rewrite files with Prettier and clang-format (npm run format)
# --write never runs `eslint --fix`: ESLint's fixes can change behaviour, so apply them by hand.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=check
case "${1:-}" in
  "") ;;
  --write) mode=write ;;
  *) echo "usage: $0 [--write]" >&2; exit 2 ;;
esac

# Every C++ source and header, found with find so new subfolders (cpp/ops/, ...) are covered.
cxx=()
while IFS= read -r -d '' f; do cxx+=("$f"); done < <(
  find cpp tests/cpp bench -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cpp' -o -name '*.cc' \) -print0 | sort -z
)

if [ "$mode" = write ]; then
  npx --no-install prettier --write --log-level=warn .
  if [ ${#cxx[@]} -gt 0 ]; then clang-format -i "${cxx[@]}"; fi
  exit 0
fi

status=0
echo "lint: eslint"
npx --no-install eslint --max-warnings=0 . || status=1
echo "lint: prettier --check"
npx --no-install prettier --check --log-level=warn . || status=1
echo "lint: clang-format (${#cxx[@]} files)"
if [ ${#cxx[@]} -gt 0 ]; then clang-format --dry-run -Werror "${cxx[@]}" || status=1; fi
exit "$status"
