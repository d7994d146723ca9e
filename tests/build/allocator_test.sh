#!/usr/bin/env bash
# The daemon allocates with jemalloc (pagesieve_allocator in
# cmake/Dependencies.cmake): with glibc's malloc, a shard grown to 10 M
# entries ran the per-record sequence 1.7x slower (docs/state-store.md).
# jemalloc prints its statistics at exit when MALLOC_CONF asks it to, and
# glibc's malloc ignores MALLOC_CONF, so this fails if the link loses it.
set -euo pipefail
binary=$1
out=$(MALLOC_CONF=stats_print:true "$binary" --version 2>&1)
if ! grep -q "Begin jemalloc statistics" <<<"$out"; then
  echo "allocator_test: $binary does not allocate with jemalloc" >&2
  exit 1
fi
# Its options (daemon/allocator_options.cc) are compiled in: the statistics
# list them.
if ! grep -Eq "opt.oversize_threshold: 0$" <<<"$out"; then
  echo "allocator_test: $binary does not set jemalloc's oversize_threshold to 0" >&2
  exit 1
fi
echo "allocator_test: $binary allocates with jemalloc, with its options"
