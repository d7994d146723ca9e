#!/usr/bin/env bash
# Configures the project with one dependency hidden and checks that CMake
# stops with a message naming the Debian package to install.
set -uo pipefail
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

expect_message() {
  local what=$1 package=$2
  shift 2
  local out
  out=$("$@" 2>&1)
  if [ $? -eq 0 ]; then
    echo "FAIL: configuring without $what succeeded"; failed=1; return
  fi
  if ! grep -q "apt-get install $package" <<<"$out"; then
    echo "FAIL: without $what, expected a message naming $package, got:"; echo "$out" | tail -15
    failed=1; return
  fi
  echo "ok: without $what -> names $package"
}

# A CMake-config package (spdlog) and the pkg-config ones (librdkafka first).
expect_message spdlog libspdlog-dev \
  cmake -S "$src" -B "$work/a" -DCMAKE_DISABLE_FIND_PACKAGE_spdlog=ON -DPAGESIEVE_BUILD_TESTS=OFF
expect_message rdkafka librdkafka-dev \
  env PKG_CONFIG_LIBDIR=/nonexistent cmake -S "$src" -B "$work/b" -DPAGESIEVE_BUILD_TESTS=OFF
exit $failed
