// jemalloc's options for the pagesieve executable (jemalloc reads this
// symbol at start; MALLOC_CONF in the environment still overrides it, and
// a build without jemalloc, such as a sanitized one, ignores it).
//
// oversize_threshold:0: jemalloc gives allocations of 8 MiB and more an
// arena of their own that returns its pages to the kernel at once, so the
// next such allocation faults in and zeroes fresh pages. librdkafka's fetch
// responses are that large: on the daemon benchmark every byte read from
// the broker landed in fresh pages, 110-160 thousand page faults a run.
// In the shared arenas they are reused within the usual decay time (10 s):
// 70-84 thousand faults and about 5 % less CPU for `pagesieve run`, 2.5 %
// for `pagesieve dedup` (docs/benchmarks.md).
extern "C" {
// NOLINTNEXTLINE: the name and type are jemalloc's.
extern const char* malloc_conf;
const char* malloc_conf = "oversize_threshold:0";
}
