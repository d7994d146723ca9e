#include "metrics/text_format.h"

#include <charconv>
#include <cmath>

namespace pagesieve::metrics {
namespace {

bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// `{a="x",b="y"}`, with `extra` (already escaped) as a last pair when given;
// nothing at all when there are no pairs.
void AppendLabels(const std::vector<std::string>& names, const std::vector<std::string>& values,
                  std::string_view extra_name, std::string_view extra_value, std::string& out) {
  if (names.empty() && extra_name.empty()) return;
  out += '{';
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ',';
    out += names[i];
    out += "=\"";
    out += EscapeLabelValue(values[i]);
    out += '"';
  }
  if (!extra_name.empty()) {
    if (!names.empty()) out += ',';
    out += extra_name;
    out += "=\"";
    out += extra_value;
    out += '"';
  }
  out += '}';
}

void AppendLine(std::string_view name, std::string_view suffix,
                const std::vector<std::string>& names, const std::vector<std::string>& values,
                std::string_view value, std::string& out, std::string_view extra_name = {},
                std::string_view extra_value = {}) {
  out += name;
  out += suffix;
  AppendLabels(names, values, extra_name, extra_value, out);
  out += ' ';
  out += value;
  out += '\n';
}

}  // namespace

bool IsValidMetricName(std::string_view name) {
  if (name.empty() || IsDigit(name[0])) return false;
  for (char c : name) {
    if (!IsAlpha(c) && !IsDigit(c) && c != '_' && c != ':') return false;
  }
  return true;
}

bool IsValidLabelName(std::string_view name) {
  if (name.empty() || IsDigit(name[0]) || name.starts_with("__")) return false;
  for (char c : name) {
    if (!IsAlpha(c) && !IsDigit(c) && c != '_') return false;
  }
  return true;
}

std::string EscapeHelp(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string EscapeLabelValue(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string FormatValue(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, end);
}

void AppendSamples(const std::string& name, const std::vector<std::string>& label_names,
                   const std::vector<std::string>& values, const Counter& counter,
                   std::string& out) {
  AppendLine(name, "", label_names, values, std::to_string(counter.value()), out);
}

void AppendSamples(const std::string& name, const std::vector<std::string>& label_names,
                   const std::vector<std::string>& values, const Gauge& gauge, std::string& out) {
  AppendLine(name, "", label_names, values, FormatValue(gauge.value()), out);
}

void AppendSamples(const std::string& name, const std::vector<std::string>& label_names,
                   const std::vector<std::string>& values, const Histogram& histogram,
                   std::string& out) {
  const std::vector<uint64_t> counts = histogram.BucketCounts();
  uint64_t cumulative = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    cumulative += counts[i];
    const std::string le =
        i < histogram.bounds().size() ? FormatValue(histogram.bounds()[i]) : "+Inf";
    AppendLine(name, "_bucket", label_names, values, std::to_string(cumulative), out, "le", le);
  }
  AppendLine(name, "_sum", label_names, values, FormatValue(histogram.sum()), out);
  AppendLine(name, "_count", label_names, values, std::to_string(cumulative), out);
}

}  // namespace pagesieve::metrics
