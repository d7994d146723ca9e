#pragma once

#include <prometheus/family.h>
#include <prometheus/metric_type.h>

#include <string>
#include <type_traits>
#include <vector>

#include "metrics/metric.h"

namespace pagesieve::metrics {

// The values of a metric's labels, in the order of the family's label names.
using LabelValues = std::vector<std::string>;

namespace internal {
// A metric used against its declaration (wrong number of label values, a
// name registered twice) is a bug in the caller, not bad input: the process
// stops with the message, as a failed StatusOr does.
[[noreturn]] void Die(const std::string& message);
}  // namespace internal

// What the registry needs of any family to render it: a family that has no
// children yet still gets its HELP and TYPE lines (prometheus-cpp would leave
// it out), so every documented metric is in the first scrape.
class FamilyBase {
 public:
  FamilyBase(std::string escaped_help, prometheus::MetricType type)
      : escaped_help_(std::move(escaped_help)), type_(type) {}
  virtual ~FamilyBase() = default;

  virtual const std::string& name() const = 0;
  const std::string& escaped_help() const { return escaped_help_; }
  prometheus::MetricType type() const { return type_; }
  // prometheus-cpp's snapshot of the children; empty when there are none.
  virtual std::vector<prometheus::MetricFamily> Collect() const = 0;

 private:
  const std::string escaped_help_;
  const prometheus::MetricType type_;
};

// One metric name with positional label values over a prometheus-cpp family,
// which holds the children and their values.
//
// Thread-safe. Finding a child takes prometheus-cpp's family lock (and
// builds a throwaway child), so hot paths look a child up once and keep the
// reference; updating the child takes no family lock. A reference stays
// valid until that child is removed (Remove), which only code that never
// caches the reference should do (per-partition gauges).
template <typename T>
class Family final : public FamilyBase {
 public:
  Family(prometheus::Family<T>& family, std::string escaped_help, prometheus::MetricType type,
         std::vector<std::string> label_names, std::vector<double> bounds = {})
      : FamilyBase(std::move(escaped_help), type),
        family_(family),
        label_names_(std::move(label_names)),
        bounds_(std::move(bounds)) {}

  const std::string& name() const override { return family_.GetName(); }

  // The child for `values`, created (at zero) on first use.
  T& WithLabels(const LabelValues& values) {
    const prometheus::Labels labels = ToLabels(values);
    if constexpr (std::is_same_v<T, Histogram>) {
      return family_.Add(labels, bounds_);
    } else {
      return family_.Add(labels);
    }
  }
  // The only child of a family without labels.
  T& Get() { return WithLabels({}); }

  // Drops a child, if there is one: its series disappears from the next
  // scrape.
  void Remove(const LabelValues& values) {
    if (family_.Has(ToLabels(values))) family_.Remove(&WithLabels(values));
  }

  std::vector<prometheus::MetricFamily> Collect() const override { return family_.Collect(); }

 private:
  prometheus::Labels ToLabels(const LabelValues& values) const {
    if (values.size() != label_names_.size()) {
      internal::Die("metric " + name() + " takes " + std::to_string(label_names_.size()) +
                    " label values, got " + std::to_string(values.size()));
    }
    prometheus::Labels labels;
    for (size_t i = 0; i < values.size(); ++i) labels.emplace(label_names_[i], values[i]);
    return labels;
  }

  prometheus::Family<T>& family_;  // owned by the prometheus::Registry
  const std::vector<std::string> label_names_;
  const std::vector<double> bounds_;  // histograms only
};

using CounterFamily = Family<Counter>;
using GaugeFamily = Family<Gauge>;
using HistogramFamily = Family<Histogram>;

}  // namespace pagesieve::metrics
