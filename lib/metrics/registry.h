#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "metrics/family.h"

namespace pagesieve::metrics {

// The metrics of one process, rendered in the Prometheus text format.
//
// Names and labels are fixed by the code that registers them, so a bad name,
// a name registered twice or histogram bounds that are not finite and
// strictly increasing stop the process (internal::Die): they are bugs, and
// tests catch them at once.
//
// Thread-safe: families may be added and rendered from any thread. Families
// live as long as the registry; the references returned stay valid.
class Registry {
 public:
  Registry() = default;
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  CounterFamily& AddCounter(std::string name, std::string help,
                            std::vector<std::string> label_names = {});
  GaugeFamily& AddGauge(std::string name, std::string help,
                        std::vector<std::string> label_names = {});
  HistogramFamily& AddHistogram(std::string name, std::string help,
                                std::vector<std::string> label_names, std::vector<double> bounds);

  // Every family in registration order: HELP and TYPE lines, then samples.
  // A family with no children yet still gets its HELP and TYPE lines.
  std::string Render() const;

 private:
  void CheckNew(const std::string& name, const std::vector<std::string>& label_names) const;

  mutable std::mutex mu_;
  std::vector<std::unique_ptr<FamilyBase>> families_;  // guarded by mu_
};

}  // namespace pagesieve::metrics
