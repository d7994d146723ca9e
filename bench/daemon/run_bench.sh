#!/usr/bin/env bash
# End-to-end benchmark of `pagesieve dedup` and `pagesieve run` on the real
# pages of ../shared/data/extraction (docs/benchmarks.md, "daemon" and "dedup").
#
#   scripts/kafka-local start                 (not needed with --dedup-only)
#   bench/daemon/run_bench.sh                 dedup vs run throughput, latency, memory
#   bench/daemon/run_bench.sh --dedup-only    dedup alone, --threads 1 and one per core
#   bench/daemon/run_bench.sh --json          the same as JSON; --help for the rest
#
# Builds the pagesieve and paced_produce binaries first in
# $PAGESIEVE_BENCH_BUILD (default build/, configured RelWithDebInfo if new);
# the figures only mean something from an optimized build, so a Debug or
# sanitized build directory is refused.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${PAGESIEVE_BENCH_BUILD:-$repo/build}
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
if ! grep -Eq '^CMAKE_BUILD_TYPE:STRING=(RelWithDebInfo|Release)$' "$build/CMakeCache.txt" ||
    grep -q '^PAGESIEVE_SANITIZE:BOOL=ON$' "$build/CMakeCache.txt"; then
  echo "run_bench.sh: $build is not an optimized, unsanitized build" >&2
  exit 2
fi
cmake --build "$build" --target pagesieve paced_produce >&2
exec python3 "$repo/bench/daemon/daemon_bench.py" --pagesieve "$build/pagesieve" "$@"
