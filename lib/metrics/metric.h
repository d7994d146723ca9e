#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace pagesieve::metrics {

// A count that only goes up (records, verdicts, errors). Lock-free and
// thread-safe; relaxed ordering, because a scrape needs no ordering with
// anything else.
class Counter {
 public:
  void Inc(uint64_t n = 1) { value_.fetch_add(n, std::memory_order_relaxed); }
  uint64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> value_{0};
};

// A value that goes up and down (lag, queue depth, fill ratio). Lock-free
// and thread-safe.
class Gauge {
 public:
  void Set(double v) { value_.store(v, std::memory_order_relaxed); }
  void Add(double d) { value_.fetch_add(d, std::memory_order_relaxed); }
  double value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0};
};

// A distribution over fixed buckets, as Prometheus histograms are: each
// observation lands in the first bucket whose upper bound is >= the value
// (the last bucket, +Inf, takes the rest). Observing is one binary search
// over the bounds and two relaxed atomic adds: lock-free and thread-safe.
//
// A scrape reads the buckets one by one while observations go on, so it may
// see an observation in a bucket and not yet in the sum; _count is derived
// from the buckets, so the rendered buckets, +Inf and _count always agree.
class Histogram {
 public:
  // `bounds`: finite upper bounds, strictly increasing (checked by the
  // registry that creates histograms).
  explicit Histogram(std::vector<double> bounds);

  // NaN is ignored: it would make the sum NaN for the life of the process.
  void Observe(double value);
  void ObserveDuration(std::chrono::nanoseconds d) {
    Observe(std::chrono::duration<double>(d).count());
  }

  const std::vector<double>& bounds() const { return bounds_; }
  // Per-bucket counts (not cumulative), bounds().size() + 1 of them; the
  // last is the +Inf bucket.
  std::vector<uint64_t> BucketCounts() const;
  double sum() const { return sum_.load(std::memory_order_relaxed); }

 private:
  const std::vector<double> bounds_;
  std::unique_ptr<std::atomic<uint64_t>[]> counts_;
  std::atomic<double> sum_{0};
};

// `count` bounds start, start*factor, start*factor^2, ...
std::vector<double> ExponentialBuckets(double start, double factor, int count);

}  // namespace pagesieve::metrics
