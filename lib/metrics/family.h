#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "metrics/metric.h"
#include "metrics/text_format.h"

namespace pagesieve::metrics {

enum class MetricType { kCounter, kGauge, kHistogram };

// The values of a metric's labels, in the order of the family's label names.
using LabelValues = std::vector<std::string>;

namespace internal {
// A metric used against its declaration (wrong number of label values, a
// name registered twice) is a bug in the caller, not bad input: the process
// stops with the message, as a failed StatusOr does.
[[noreturn]] void Die(const std::string& message);
}  // namespace internal

// One metric name: its help text, type and label names, and one child
// metric per combination of label values seen. The registry renders it.
class FamilyBase {
 public:
  FamilyBase(std::string name, std::string help, MetricType type,
             std::vector<std::string> label_names)
      : name_(std::move(name)),
        help_(std::move(help)),
        type_(type),
        label_names_(std::move(label_names)) {}
  virtual ~FamilyBase() = default;

  const std::string& name() const { return name_; }
  const std::string& help() const { return help_; }
  MetricType type() const { return type_; }
  const std::vector<std::string>& label_names() const { return label_names_; }

  // Appends one sample line per child (several for a histogram).
  virtual void RenderSamples(std::string& out) const = 0;

 protected:
  void CheckArity(const LabelValues& values) const {
    if (values.size() != label_names_.size()) {
      internal::Die("metric " + name_ + " takes " + std::to_string(label_names_.size()) +
                    " label values, got " + std::to_string(values.size()));
    }
  }

 private:
  const std::string name_;
  const std::string help_;
  const MetricType type_;
  const std::vector<std::string> label_names_;
};

// A family of Counter, Gauge or Histogram children.
//
// Thread-safe. Finding a child takes a lock, so hot paths look a child up
// once and keep the reference; updating the child is lock-free. A reference
// stays valid until that child is removed (Remove), which only code that
// never caches the reference should do (per-partition gauges).
template <typename T>
class Family final : public FamilyBase {
 public:
  using Factory = std::function<std::unique_ptr<T>()>;

  Family(std::string name, std::string help, MetricType type, std::vector<std::string> label_names,
         Factory make)
      : FamilyBase(std::move(name), std::move(help), type, std::move(label_names)),
        make_(std::move(make)) {}

  // The child for `values`, created (at zero) on first use.
  T& WithLabels(const LabelValues& values) {
    CheckArity(values);
    std::lock_guard<std::mutex> lock(mu_);
    std::unique_ptr<T>& child = children_[values];
    if (!child) child = make_();
    return *child;
  }
  // The only child of a family without labels.
  T& Get() { return WithLabels({}); }

  // Drops a child: its series disappears from the next scrape.
  void Remove(const LabelValues& values) {
    std::lock_guard<std::mutex> lock(mu_);
    children_.erase(values);
  }

  // Removes every child whose label values `drop` accepts.
  void RemoveIf(const std::function<bool(const LabelValues&)>& drop) {
    std::lock_guard<std::mutex> lock(mu_);
    std::erase_if(children_, [&](const auto& entry) { return drop(entry.first); });
  }

  void RenderSamples(std::string& out) const override {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [values, child] : children_) {
      AppendSamples(name(), label_names(), values, *child, out);
    }
  }

 private:
  const Factory make_;
  mutable std::mutex mu_;
  std::map<LabelValues, std::unique_ptr<T>> children_;  // guarded by mu_; sorted for stable output
};

using CounterFamily = Family<Counter>;
using GaugeFamily = Family<Gauge>;
using HistogramFamily = Family<Histogram>;

}  // namespace pagesieve::metrics
