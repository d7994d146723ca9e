#include "metrics/registry.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace pagesieve::metrics {

namespace internal {

void Die(const std::string& message) {
  std::fprintf(stderr, "pagesieve: metrics: %s\n", message.c_str());
  std::abort();
}

}  // namespace internal

namespace {

std::string_view TypeName(MetricType type) {
  switch (type) {
    case MetricType::kCounter:
      return "counter";
    case MetricType::kGauge:
      return "gauge";
    case MetricType::kHistogram:
      return "histogram";
  }
  return "untyped";
}

void CheckBounds(const std::string& name, const std::vector<double>& bounds) {
  for (size_t i = 0; i < bounds.size(); ++i) {
    if (!std::isfinite(bounds[i]) || (i > 0 && bounds[i] <= bounds[i - 1])) {
      internal::Die("histogram " + name + ": bucket bounds must be finite and strictly increasing");
    }
  }
}

}  // namespace

void Registry::CheckNew(const std::string& name, const std::vector<std::string>& labels) const {
  if (!IsValidMetricName(name)) internal::Die("invalid metric name '" + name + "'");
  for (const std::string& label : labels) {
    if (!IsValidLabelName(label)) {
      internal::Die("metric " + name + ": invalid label name '" + label + "'");
    }
  }
  for (const auto& family : families_) {
    if (family->name() == name) internal::Die("metric " + name + " registered twice");
  }
}

CounterFamily& Registry::AddCounter(std::string name, std::string help,
                                    std::vector<std::string> label_names) {
  std::lock_guard<std::mutex> lock(mu_);
  CheckNew(name, label_names);
  auto family = std::make_unique<CounterFamily>(std::move(name), std::move(help),
                                                MetricType::kCounter, std::move(label_names),
                                                [] { return std::make_unique<Counter>(); });
  CounterFamily& ref = *family;
  families_.push_back(std::move(family));
  return ref;
}

GaugeFamily& Registry::AddGauge(std::string name, std::string help,
                                std::vector<std::string> label_names) {
  std::lock_guard<std::mutex> lock(mu_);
  CheckNew(name, label_names);
  auto family = std::make_unique<GaugeFamily>(std::move(name), std::move(help), MetricType::kGauge,
                                              std::move(label_names),
                                              [] { return std::make_unique<Gauge>(); });
  GaugeFamily& ref = *family;
  families_.push_back(std::move(family));
  return ref;
}

HistogramFamily& Registry::AddHistogram(std::string name, std::string help,
                                        std::vector<std::string> label_names,
                                        std::vector<double> bounds) {
  std::lock_guard<std::mutex> lock(mu_);
  CheckNew(name, label_names);
  CheckBounds(name, bounds);
  for (const std::string& label : label_names) {
    if (label == "le") internal::Die("histogram " + name + ": 'le' is reserved");
  }
  auto family = std::make_unique<HistogramFamily>(
      std::move(name), std::move(help), MetricType::kHistogram, std::move(label_names),
      [bounds = std::move(bounds)] { return std::make_unique<Histogram>(bounds); });
  HistogramFamily& ref = *family;
  families_.push_back(std::move(family));
  return ref;
}

std::string Registry::Render() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::string out;
  for (const auto& family : families_) {
    out += "# HELP ";
    out += family->name();
    out += ' ';
    out += EscapeHelp(family->help());
    out += "\n# TYPE ";
    out += family->name();
    out += ' ';
    out += TypeName(family->type());
    out += '\n';
    family->RenderSamples(out);
  }
  return out;
}

}  // namespace pagesieve::metrics
