// What one metric update costs the record path, and what a scrape costs.
//
//   build/bench/metrics/metrics_bench --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true   (one line)
//
// The `/threads:2` variants update the same child from two threads, as the
// fingerprinting workers do with pagesieve_fingerprint_seconds.
#include <benchmark/benchmark.h>

#include <chrono>
#include <string>

#include "metrics/registry.h"

namespace pagesieve::metrics {
namespace {

// The buckets of pagesieve_processing_latency_seconds: 0.5 ms .. 33 s.
std::vector<double> LatencyBuckets() { return ExponentialBuckets(0.0005, 2, 17); }

Registry& SharedRegistry() {
  static Registry* registry = new Registry();
  return *registry;
}

Counter& SharedCounter() {
  static Counter& c = SharedRegistry().AddCounter("bench_counter_total", "C.").Get();
  return c;
}

Gauge& SharedGauge() {
  static Gauge& g = SharedRegistry().AddGauge("bench_gauge", "G.").Get();
  return g;
}

Histogram& SharedHistogram() {
  static Histogram& h =
      SharedRegistry().AddHistogram("bench_seconds", "H.", {}, LatencyBuckets()).Get();
  return h;
}

void BM_CounterIncrement(benchmark::State& state) {
  Counter& c = SharedCounter();
  for (auto _ : state) c.Increment();
}
BENCHMARK(BM_CounterIncrement)->Threads(1)->Threads(2);

void BM_GaugeSet(benchmark::State& state) {
  Gauge& g = SharedGauge();
  double v = 0;
  for (auto _ : state) g.Set(v += 1);
}
BENCHMARK(BM_GaugeSet)->Threads(1)->Threads(2);

void BM_HistogramObserve(benchmark::State& state) {
  Histogram& h = SharedHistogram();
  // Spread over the buckets as real latencies are: 0.1 ms .. 10 s.
  double v = 0.0001;
  for (auto _ : state) {
    ObserveDuration(h, std::chrono::nanoseconds(static_cast<int64_t>(v * 1e9)));
    v = v < 10 ? v * 1.37 : 0.0001;
  }
}
BENCHMARK(BM_HistogramObserve)->Threads(1)->Threads(2);

// A scrape of a daemon that owns 32 partitions: 12 per-partition gauge
// families, three of them with three children per partition, and three
// histograms.
void BM_Scrape(benchmark::State& state) {
  Registry registry;
  for (int f = 0; f < 12; ++f) {
    const bool per_store = f < 3;
    GaugeFamily& family =
        registry.AddGauge("bench_gauge_" + std::to_string(f), "G.",
                          per_store ? std::vector<std::string>{"partition", "store"}
                                    : std::vector<std::string>{"partition"});
    for (int p = 0; p < 32; ++p) {
      if (!per_store) {
        family.WithLabels({std::to_string(p)}).Set(p * 1.5);
        continue;
      }
      for (const char* store : {"url", "exact", "near"}) {
        family.WithLabels({std::to_string(p), store}).Set(p * 1000);
      }
    }
  }
  for (int h = 0; h < 3; ++h) {
    registry
        .AddHistogram("bench_histogram_" + std::to_string(h) + "_seconds", "H.", {},
                      LatencyBuckets())
        .Get()
        .Observe(0.01);
  }
  size_t bytes = 0;
  for (auto _ : state) {
    std::string text = registry.Render();
    bytes = text.size();
    benchmark::DoNotOptimize(text);
  }
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_Scrape)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace pagesieve::metrics

BENCHMARK_MAIN();
