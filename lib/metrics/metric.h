#pragma once

// The metric types are prometheus-cpp's (docs/metrics.md says why and what
// they cost). Hot paths keep a reference to a child and call it directly:
//   Counter::Increment(), Increment(n)   ignores n < 0
//   Gauge::Set(v), Increment(d), Decrement(d)
//   Histogram::Observe(v)                one mutex, held for two atomic adds
// All three are thread-safe.

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>

#include <chrono>
#include <vector>

namespace pagesieve::metrics {

using Counter = prometheus::Counter;
using Gauge = prometheus::Gauge;
using Histogram = prometheus::Histogram;

// Durations are observed in seconds, the unit every `_seconds` histogram is
// named for. (A duration is never NaN, which prometheus-cpp would add to the
// sum and count in the lowest bucket.)
inline void ObserveDuration(Histogram& histogram, std::chrono::nanoseconds d) {
  histogram.Observe(std::chrono::duration<double>(d).count());
}

// `count` bounds start, start*factor, start*factor^2, ...
std::vector<double> ExponentialBuckets(double start, double factor, int count);

}  // namespace pagesieve::metrics
