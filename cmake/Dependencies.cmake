# Finds every third-party library pagesieve uses. Each one comes from a Debian
# bookworm package; when one is missing, configuration stops with a message
# naming the package instead of failing later with a wall of compiler errors.

find_package(PkgConfig QUIET)
if(NOT PkgConfig_FOUND)
  message(FATAL_ERROR
    "pkg-config is missing. Install it with: apt-get install pkg-config "
    "(or run scripts/install-deps)")
endif()

function(_pagesieve_missing what debian_package)
  message(FATAL_ERROR
    "${what} not found. Install the Debian package '${debian_package}': "
    "apt-get install ${debian_package} (or run scripts/install-deps, which "
    "installs everything pagesieve needs)")
endfunction()

# pagesieve_require_config(<cmake package> <debian package>)
macro(pagesieve_require_config name debian_package)
  find_package(${name} CONFIG QUIET)
  if(NOT ${name}_FOUND)
    _pagesieve_missing("${name} (CMake package)" ${debian_package})
  endif()
endmacro()

# pagesieve_require_pkg(<imported target name> <pkg-config module> <debian package>)
# Defines PkgConfig::<target name>.
macro(pagesieve_require_pkg target module debian_package)
  pkg_check_modules(${target} QUIET IMPORTED_TARGET GLOBAL ${module})
  if(NOT ${target}_FOUND)
    _pagesieve_missing("${module} (pkg-config module)" ${debian_package})
  endif()
endmacro()

find_package(Threads REQUIRED)

# The project's fixed choices.
pagesieve_require_pkg(rdkafka rdkafka librdkafka-dev)
pagesieve_require_pkg(rdkafkacpp rdkafka++ librdkafka-dev)
pagesieve_require_pkg(rocksdb rocksdb librocksdb-dev)
pagesieve_require_config(nlohmann_json nlohmann-json3-dev)
pagesieve_require_config(spdlog libspdlog-dev)
pagesieve_require_config(GTest libgtest-dev)
if(NOT TARGET GTest::gmock)
  _pagesieve_missing("GoogleMock" libgmock-dev)
endif()

# Further libraries, each for one job.
pagesieve_require_pkg(openssl libcrypto libssl-dev)          # SHA-256, SHA-1
pagesieve_require_pkg(xxhash libxxhash libxxhash-dev)        # SimHash feature hashing
pagesieve_require_pkg(idn2 libidn2 libidn2-dev)              # IDNA2008/UTS-46 hosts
pagesieve_require_pkg(psl libpsl libpsl-dev)                 # registered domains
pagesieve_require_pkg(utf8proc libutf8proc libutf8proc-dev)  # NFKC + case folding
pagesieve_require_pkg(tomlplusplus tomlplusplus libtomlplusplus-dev)  # config files
pagesieve_require_config(CLI11 libcli11-dev)                 # subcommands and flags
pagesieve_require_pkg(zlib zlib zlib1g-dev)                  # .warc.gz, gzip/deflate bodies, gzipped test pages
pagesieve_require_pkg(libdeflate libdeflate libdeflate-dev)  # .warc.gz members decoded whole, faster than zlib
pagesieve_require_pkg(brotlidec libbrotlidec libbrotli-dev)  # br-encoded bodies in WARC records
pagesieve_require_pkg(brotlienc libbrotlienc libbrotli-dev)  # br-encoded bodies the tests write
pagesieve_require_config(simdjson libsimdjson-dev)           # parsing events (16x nlohmann: docs/engine.md)
pagesieve_require_pkg(httplib cpp-httplib libcpp-httplib-dev)  # the metrics/health HTTP listener
pagesieve_require_pkg(prometheus_core prometheus-cpp-core prometheus-cpp-dev)  # metrics and their text format
pagesieve_require_pkg(jemalloc jemalloc libjemalloc-dev)     # the executables' allocator (below)

# pagesieve_allocator: what the daemon and the store benchmarks allocate
# with. A shard allocates and frees small strings for every key, value and
# cached block; glibc's malloc, after a shard has grown to 10 M entries,
# made the whole per-record sequence 1.7x slower than jemalloc does
# (docs/state-store.md, "Performance"). Sanitizer builds keep their own
# allocator, which replaces malloc to find the bugs.
add_library(pagesieve_allocator INTERFACE)
if(NOT PAGESIEVE_SANITIZE)
  target_link_libraries(pagesieve_allocator INTERFACE PkgConfig::jemalloc)
endif()

if(PAGESIEVE_BUILD_BENCHMARKS)
  pagesieve_require_config(benchmark libbenchmark-dev)
  # Reference HTML parsers, measured against lib/content's own (bench/content).
  pagesieve_require_pkg(libxml2 libxml-2.0 libxml2-dev)
  pagesieve_require_pkg(gumbo gumbo libgumbo-dev)
endif()
