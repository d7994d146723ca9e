#pragma once

// The Prometheus text exposition format, version 0.0.4: how names, label
// values, help text and numbers are written.
// https://prometheus.io/docs/instrumenting/exposition_formats/

#include <string>
#include <string_view>
#include <vector>

#include "metrics/metric.h"

namespace pagesieve::metrics {

inline constexpr std::string_view kTextContentType = "text/plain; version=0.0.4; charset=utf-8";

// [a-zA-Z_:][a-zA-Z0-9_:]*
bool IsValidMetricName(std::string_view name);
// [a-zA-Z_][a-zA-Z0-9_]*, not starting with "__" (reserved for Prometheus).
bool IsValidLabelName(std::string_view name);

// HELP text: backslash and line feed escaped.
std::string EscapeHelp(std::string_view text);
// A label value: backslash, double quote and line feed escaped.
std::string EscapeLabelValue(std::string_view value);
// The shortest text that reads back as the same double; +Inf, -Inf, NaN.
std::string FormatValue(double value);

// One child's sample lines: `name{labels} value`; for a histogram the
// cumulative `_bucket{...,le="..."}` lines, `_sum` and `_count`.
void AppendSamples(const std::string& name, const std::vector<std::string>& label_names,
                   const std::vector<std::string>& values, const Counter& counter,
                   std::string& out);
void AppendSamples(const std::string& name, const std::vector<std::string>& label_names,
                   const std::vector<std::string>& values, const Gauge& gauge, std::string& out);
void AppendSamples(const std::string& name, const std::vector<std::string>& label_names,
                   const std::vector<std::string>& values, const Histogram& histogram,
                   std::string& out);

}  // namespace pagesieve::metrics
