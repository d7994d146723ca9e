// Throughput, memory and persistence figures of TimeDecayedBloom.
//
//   bloom_bench [--items=1000000,10000000,50000000] [--rate=0.01]
//               [--generations=4] [--page-bytes=128] [--queries=10000000]
//               [--section=all|filter|pages]
//
// "filter": for each size, fills G + 1 generations to their design load
// (the worst phase of the cycle: the oldest about to expire), then times
// inserts and lookups on one core and measures the false-positive rate.
// "pages": for each page size, the pages and bytes a checkpoint of 1,000
// inserts writes, and the entries the filter keeps in RocksDB.
// docs/bloom-filter.md quotes the output.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/split_mix64.h"
#include "store/bloom/bloom_math.h"
#include "store/bloom/time_decayed_bloom.h"

namespace pagesieve::store {
namespace {

struct Flags {
  std::vector<uint64_t> items = {1'000'000, 10'000'000, 50'000'000};
  double rate = 0.01;
  int generations = 4;
  size_t page_bytes = 128;
  uint64_t queries = 10'000'000;
  std::string section = "all";
};

// Uniform 64-bit keys, as the shard's digests are.
using KeyStream = SplitMix64Stream;

// CPU time of this thread: on a shared machine, wall time mostly measures
// the other processes; what one core spends per operation is the figure
// wanted ("per second per core").
double CpuNow() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

BloomOptions OptionsFor(const Flags& f, uint64_t items, size_t page_bytes) {
  BloomOptions o;
  o.expected_items = items;
  o.false_positive_rate = f.rate;
  o.generations = f.generations;
  o.page_bytes = page_bytes;
  return o;
}

std::unique_ptr<TimeDecayedBloom> MakeOrDie(const BloomOptions& o) {
  auto bloom = TimeDecayedBloom::Create(o);
  if (!bloom.ok()) {
    std::fprintf(stderr, "bloom_bench: %s\n", bloom.status().ToString().c_str());
    std::exit(1);
  }
  return std::move(bloom).value();
}

// Inserts each generation's design share, evenly over its width, into all
// G + 1 slots. Returns the seconds spent.
double FillAllGenerations(TimeDecayedBloom& bloom, int64_t first_ms, KeyStream& keys) {
  const int64_t width = bloom.geometry().generation_width.count();
  const uint64_t share = bloom.geometry().keys_per_generation;
  const double start = CpuNow();
  for (int g = 0; g < bloom.geometry().slots; ++g) {
    for (uint64_t i = 0; i < share; ++i) {
      const int64_t t = first_ms + g * width + static_cast<int64_t>(i * width / share);
      bloom.Insert(keys.Next(), EventTimeFromMillis(t));
    }
  }
  return CpuNow() - start;
}

struct LookupFigures {
  double per_second = 0;
  double hit_rate = 0;
};

// Independent lookups: the core overlaps their memory accesses.
LookupFigures TimeLookups(const TimeDecayedBloom& bloom, KeyStream keys, uint64_t n) {
  uint64_t hits = 0;
  const double start = CpuNow();
  for (uint64_t i = 0; i < n; ++i) hits += bloom.MayContain(keys.Next());
  const double s = CpuNow() - start;
  return {static_cast<double>(n) / s, static_cast<double>(hits) / static_cast<double>(n)};
}

// Dependent lookups: each key depends on the previous answer, so each
// lookup waits for its memory (the latency a record sees).
double TimeDependentLookups(const TimeDecayedBloom& bloom, KeyStream keys, uint64_t n) {
  uint64_t hit = 0;
  const double start = CpuNow();
  for (uint64_t i = 0; i < n; ++i) hit = bloom.MayContain(keys.Next() ^ hit);
  const double s = CpuNow() - start;
  if (hit == 2) std::puts("");  // keeps `hit` alive
  return static_cast<double>(n) / s;
}

void RunFilter(const Flags& f, uint64_t items) {
  const BloomOptions o = OptionsFor(f, items, f.page_bytes);
  auto bloom = MakeOrDie(o);
  const auto& g = bloom->geometry();
  const int64_t width = g.generation_width.count();
  const int64_t first = (1'800'000'000'000 / width) * width;
  KeyStream keys(items);
  const uint64_t stored = g.keys_per_generation * g.slots;
  const double insert_s = FillAllGenerations(*bloom, first, keys);
  bloom->AdvanceWatermark(EventTimeFromMillis(first + g.slots * width - 1));
  const uint64_t q = std::min<uint64_t>(f.queries, 4 * stored);
  const LookupFigures absent = TimeLookups(*bloom, KeyStream(~items), q);
  const LookupFigures present = TimeLookups(*bloom, KeyStream(items), std::min(q, stored));
  const double dependent = TimeDependentLookups(*bloom, KeyStream(~items + 1), q / 4);
  const double bits = 8.0 * static_cast<double>(g.bit_bytes());
  std::printf(
      "items %llu  rate %g  G %d  page %zu  k %d  bits %.1f MB\n"
      "  bits/live key %.2f (theory %.3f: %+.1f%%)  bits/stored key %.2f (theory for "
      "the per-generation rate %.3f: %+.1f%%)  memory/live key %.2f B\n"
      "  inserts %.2f M/s  lookups absent %.2f M/s  present %.2f M/s  dependent %.2f M/s\n"
      "  FPR measured %.5f over %llu  design %.5f  estimated %.5f  fill %.3f\n",
      static_cast<unsigned long long>(items), f.rate, f.generations, f.page_bytes, g.num_probes,
      bits / 8e6, bits / items, bloom::StandardBloomBitsPerKey(f.rate),
      100 * (bits / items / bloom::StandardBloomBitsPerKey(f.rate) - 1), bits / stored,
      bloom::StandardBloomBitsPerKey(bloom::PerFilterRateForUnion(f.rate, g.slots)),
      100 * (bits / stored /
                 bloom::StandardBloomBitsPerKey(bloom::PerFilterRateForUnion(f.rate, g.slots)) -
             1),
      static_cast<double>(bloom->MemoryBytes()) / items, stored / insert_s / 1e6,
      absent.per_second / 1e6, present.per_second / 1e6, dependent / 1e6, absent.hit_rate,
      static_cast<unsigned long long>(q), g.DesignFalsePositiveRate(),
      bloom->EstimatedFalsePositiveRate(), bloom->FillRatio());
}

// The dirty pages a checkpoint of 1,000 inserts writes do not depend on how
// full the filter is, only on its geometry, so the filter stays empty.
void RunPages(const Flags& f, uint64_t items) {
  std::printf("items %llu: checkpoint of 1000 inserts (mean of 20)\n",
              static_cast<unsigned long long>(items));
  std::printf("  %8s %10s %12s %14s %14s\n", "page", "pages", "dirty/ckpt", "bytes/ckpt",
              "bytes/insert");
  for (size_t page : {64, 128, 256, 512, 1024, 4096, 16384}) {
    auto bloom = MakeOrDie(OptionsFor(f, items, page));
    KeyStream keys(page);
    uint64_t dirty = 0;
    uint64_t bytes = 0;
    constexpr int kCheckpoints = 20;
    for (int c = 0; c < kCheckpoints; ++c) {
      for (int i = 0; i < 1000; ++i) {
        bloom->Insert(keys.Next(), EventTimeFromMillis(1'800'000'000'000 + c));
      }
      bloom->ForEachDirtyPage([&](uint32_t, std::string_view b) {
        ++dirty;
        bytes += b.size();
      });
      bloom->ClearDirty();
    }
    std::printf("  %8zu %10llu %12.1f %14.0f %14.1f\n", page,
                static_cast<unsigned long long>(bloom->geometry().page_count()),
                static_cast<double>(dirty) / kCheckpoints,
                static_cast<double>(bytes) / kCheckpoints,
                static_cast<double>(bytes) / kCheckpoints / 1000);
  }
}

std::vector<uint64_t> ParseList(std::string_view s) {
  std::vector<uint64_t> out;
  while (!s.empty()) {
    const size_t comma = s.find(',');
    out.push_back(std::strtoull(std::string(s.substr(0, comma)).c_str(), nullptr, 10));
    s = comma == std::string_view::npos ? "" : s.substr(comma + 1);
  }
  return out;
}

Flags ParseFlags(int argc, char** argv) {
  Flags f;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const size_t eq = arg.find('=');
    const std::string_view name = arg.substr(0, eq);
    const std::string value(eq == std::string_view::npos ? "" : arg.substr(eq + 1));
    if (name == "--items")
      f.items = ParseList(value);
    else if (name == "--rate")
      f.rate = std::atof(value.c_str());
    else if (name == "--generations")
      f.generations = std::atoi(value.c_str());
    else if (name == "--page-bytes")
      f.page_bytes = std::strtoull(value.c_str(), nullptr, 10);
    else if (name == "--queries")
      f.queries = std::strtoull(value.c_str(), nullptr, 10);
    else if (name == "--section")
      f.section = value;
    else {
      std::fprintf(stderr, "bloom_bench: unknown flag %s\n", argv[i]);
      std::exit(2);
    }
  }
  return f;
}

}  // namespace
}  // namespace pagesieve::store

int main(int argc, char** argv) {
  using namespace pagesieve::store;
  const Flags f = ParseFlags(argc, argv);
  for (uint64_t items : f.items) {
    if (f.section == "all" || f.section == "filter") RunFilter(f, items);
  }
  for (uint64_t items : f.items) {
    if (f.section == "all" || f.section == "pages") RunPages(f, items);
  }
  return 0;
}
