#!/usr/bin/env bash
# A user's plain configure must not turn warnings into errors (their
# compiler may warn where ours does not); -DPAGESIEVE_WERROR=ON must.
# Checks the flags CMake writes for one of our objects.
set -uo pipefail
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

flags_of() {
  local dir=$1
  shift
  cmake -S "$src" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPAGESIEVE_BUILD_TESTS=OFF \
      -DPAGESIEVE_BUILD_BENCHMARKS=OFF "$@" >/dev/null || { echo "FAIL: configure"; exit 1; }
  # The compile command of lib/url's objects, as ninja would run it.
  ninja -C "$dir" -t commands pagesieve_url 2>/dev/null | grep -m1 -- ' -c .*lib/url/'
}

plain=$(flags_of "$work/plain")
if ! grep -q -- '-Wall' <<<"$plain"; then
  echo "FAIL: found no compile command of lib/url to check"; exit 1
fi
if grep -q -- '-Werror' <<<"$plain"; then
  echo "FAIL: a plain Release configure compiles with -Werror:"; echo "$plain"; failed=1
else
  echo "ok: a plain Release configure keeps warnings as warnings"
fi
strict=$(flags_of "$work/strict" -DPAGESIEVE_WERROR=ON)
if grep -q -- '-Werror' <<<"$strict"; then
  echo "ok: -DPAGESIEVE_WERROR=ON compiles with -Werror"
else
  echo "FAIL: -DPAGESIEVE_WERROR=ON compiles without -Werror:"; echo "$strict"; failed=1
fi
exit $failed
