#pragma once

// A small, strict reader of the Prometheus text format (0.0.4), written for
// the tests from the format's description rather than from lib/metrics, so
// the renderer is checked against the format and not against itself.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status_or.h"

namespace pagesieve::testing {

using Labels = std::map<std::string, std::string>;

struct Sample {
  std::string name;
  Labels labels;
  double value = 0;
};

struct Exposition {
  std::map<std::string, std::string> help;  // by family name, unescaped
  std::map<std::string, std::string> type;  // by family name
  std::vector<Sample> samples;

  // The sample with exactly these labels, if any.
  std::optional<double> Value(const std::string& name, const Labels& labels = {}) const;
  // The sum over samples of `name` whose labels include `match`.
  double Sum(const std::string& name, const Labels& match = {}) const;
};

// Fails on anything the format does not allow: a sample before its family's
// TYPE line, a bad name, an unknown escape, an unterminated label value, a
// value that is not a number, a series given twice, a missing final newline.
StatusOr<Exposition> ParsePrometheusText(std::string_view text);

}  // namespace pagesieve::testing
