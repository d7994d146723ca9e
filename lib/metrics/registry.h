#pragma once

#include <prometheus/registry.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "metrics/family.h"

namespace pagesieve::metrics {

// The metrics of one process: a prometheus-cpp registry, whose families hold
// the values, rendered by prometheus-cpp's TextSerializer.
//
// Names and labels are fixed by the code that registers them, so a bad name,
// a name registered twice or histogram bounds that are not finite and
// strictly increasing stop the process (internal::Die): they are bugs, and
// tests catch them at once. They are checked here, at registration, because
// prometheus-cpp checks label names only when a child is first made and
// reports every problem with an exception.
//
// Thread-safe: families may be added and rendered from any thread. Families
// live as long as the registry; the references returned stay valid.
class Registry {
 public:
  Registry();
  ~Registry();
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  CounterFamily& AddCounter(const std::string& name, const std::string& help,
                            std::vector<std::string> label_names = {});
  GaugeFamily& AddGauge(const std::string& name, const std::string& help,
                        std::vector<std::string> label_names = {});
  HistogramFamily& AddHistogram(const std::string& name, const std::string& help,
                                std::vector<std::string> label_names, std::vector<double> bounds);

  // The Prometheus text format (0.0.4): every family in registration order,
  // each child's series sorted by label values. A family with no children
  // yet still gets its HELP and TYPE lines.
  std::string Render() const;

  // The underlying registry, for anything that speaks prometheus-cpp.
  prometheus::Registry& prometheus_registry() { return *registry_; }

 private:
  void CheckNew(const std::string& name, const std::vector<std::string>& label_names) const;
  template <typename T, typename Builder>
  Family<T>& Add(Builder builder, const std::string& name, const std::string& help,
                 prometheus::MetricType type, std::vector<std::string> label_names,
                 std::vector<double> bounds);

  const std::unique_ptr<prometheus::Registry> registry_;
  mutable std::mutex mu_;
  std::vector<std::unique_ptr<FamilyBase>> families_;  // guarded by mu_; registration order
};

}  // namespace pagesieve::metrics
