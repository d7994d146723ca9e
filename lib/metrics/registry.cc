#include "metrics/registry.h"

#include <prometheus/check_names.h>
#include <prometheus/text_serializer.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "metrics/text_format.h"

namespace pagesieve::metrics {

namespace internal {

void Die(const std::string& message) {
  std::fprintf(stderr, "pagesieve: metrics: %s\n", message.c_str());
  std::abort();
}

}  // namespace internal

namespace {

void CheckBounds(const std::string& name, const std::vector<double>& bounds) {
  for (size_t i = 0; i < bounds.size(); ++i) {
    if (!std::isfinite(bounds[i]) || (i > 0 && bounds[i] <= bounds[i - 1])) {
      internal::Die("histogram " + name + ": bucket bounds must be finite and strictly increasing");
    }
  }
}

// prometheus-cpp keeps children in a hash map; a scrape a person reads is
// easier with partitions in order, as the text format was before.
void SortByLabelValues(std::vector<prometheus::ClientMetric>& children) {
  std::sort(children.begin(), children.end(), [](const auto& a, const auto& b) {
    return std::lexicographical_compare(
        a.label.begin(), a.label.end(), b.label.begin(), b.label.end(),
        [](const auto& x, const auto& y) { return x.value < y.value; });
  });
}

}  // namespace

Registry::Registry()
    : registry_(
          std::make_unique<prometheus::Registry>(prometheus::Registry::InsertBehavior::Throw)) {}

Registry::~Registry() = default;

void Registry::CheckNew(const std::string& name, const std::vector<std::string>& labels) const {
  if (!prometheus::CheckMetricName(name)) internal::Die("invalid metric name '" + name + "'");
  for (const std::string& label : labels) {
    if (!prometheus::CheckLabelName(label)) {
      internal::Die("metric " + name + ": invalid label name '" + label + "'");
    }
  }
  for (const auto& family : families_) {
    if (family->name() == name) internal::Die("metric " + name + " registered twice");
  }
}

template <typename T, typename Builder>
Family<T>& Registry::Add(Builder builder, const std::string& name, const std::string& help,
                         prometheus::MetricType type, std::vector<std::string> label_names,
                         std::vector<double> bounds) {
  std::lock_guard<std::mutex> lock(mu_);
  CheckNew(name, label_names);
  // prometheus-cpp 1.0.1 writes help text as given: a line feed in it would
  // end the HELP line early.
  std::string escaped_help = EscapeHelp(help);
  prometheus::Family<T>* family = nullptr;
  try {
    family = &builder.Name(name).Help(escaped_help).Register(*registry_);
  } catch (const std::exception& e) {  // no exception leaves lib/
    internal::Die("metric " + name + ": " + e.what());
  }
  auto ours = std::make_unique<Family<T>>(*family, std::move(escaped_help), type,
                                          std::move(label_names), std::move(bounds));
  Family<T>& ref = *ours;
  families_.push_back(std::move(ours));
  return ref;
}

CounterFamily& Registry::AddCounter(const std::string& name, const std::string& help,
                                    std::vector<std::string> label_names) {
  return Add<Counter>(prometheus::BuildCounter(), name, help, prometheus::MetricType::Counter,
                      std::move(label_names), {});
}

GaugeFamily& Registry::AddGauge(const std::string& name, const std::string& help,
                                std::vector<std::string> label_names) {
  return Add<Gauge>(prometheus::BuildGauge(), name, help, prometheus::MetricType::Gauge,
                    std::move(label_names), {});
}

HistogramFamily& Registry::AddHistogram(const std::string& name, const std::string& help,
                                        std::vector<std::string> label_names,
                                        std::vector<double> bounds) {
  CheckBounds(name, bounds);
  for (const std::string& label : label_names) {
    if (label == "le") internal::Die("histogram " + name + ": 'le' is reserved");
  }
  return Add<Histogram>(prometheus::BuildHistogram(), name, help, prometheus::MetricType::Histogram,
                        std::move(label_names), std::move(bounds));
}

std::string Registry::Render() const {
  std::vector<prometheus::MetricFamily> families;
  {
    std::lock_guard<std::mutex> lock(mu_);
    families.reserve(families_.size());
    for (const auto& family : families_) {
      std::vector<prometheus::MetricFamily> collected = family->Collect();
      if (collected.empty()) {
        families.push_back({family->name(), family->escaped_help(), family->type(), {}});
        continue;
      }
      for (prometheus::MetricFamily& f : collected) {
        SortByLabelValues(f.metric);
        families.push_back(std::move(f));
      }
    }
  }
  return prometheus::TextSerializer().Serialize(families);
}

}  // namespace pagesieve::metrics
