#include "prometheus_text.h"

#include <cstdlib>
#include <set>

namespace pagesieve::testing {
namespace {

bool NameChar(char c, bool first, bool colon) {
  const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  const bool digit = c >= '0' && c <= '9';
  return alpha || (colon && c == ':') || (!first && digit);
}

// Reads a name at `pos`; empty when there is none.
std::string ReadName(std::string_view line, size_t& pos, bool colon) {
  const size_t start = pos;
  while (pos < line.size() && NameChar(line[pos], pos == start, colon)) ++pos;
  return std::string(line.substr(start, pos - start));
}

StatusOr<double> ReadValue(std::string_view text) {
  if (text == "+Inf") return 1.0 / 0.0;
  if (text == "-Inf") return -1.0 / 0.0;
  // Prometheus reads values with Go's strconv.ParseFloat, which takes NaN in
  // any case; prometheus-cpp writes "Nan".
  if (text.size() == 3 && (text[0] | 0x20) == 'n' && (text[1] | 0x20) == 'a' &&
      (text[2] | 0x20) == 'n') {
    return 0.0 / 0.0;
  }
  std::string s(text);
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || s.find_first_of("iInN") != std::string::npos) {
    return Status::InvalidArgument("bad value '" + s + "'");
  }
  return v;
}

StatusOr<std::string> ReadQuoted(std::string_view line, size_t& pos) {
  if (pos >= line.size() || line[pos] != '"') return Status::InvalidArgument("expected '\"'");
  std::string out;
  for (++pos; pos < line.size(); ++pos) {
    const char c = line[pos];
    if (c == '"') {
      ++pos;
      return out;
    }
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++pos == line.size()) break;
    switch (line[pos]) {
      case '\\':
        out += '\\';
        break;
      case '"':
        out += '"';
        break;
      case 'n':
        out += '\n';
        break;
      default:
        return Status::InvalidArgument("unknown escape in label value");
    }
  }
  return Status::InvalidArgument("unterminated label value");
}

StatusOr<Labels> ReadLabels(std::string_view line, size_t& pos) {
  Labels labels;
  if (pos >= line.size() || line[pos] != '{') return labels;
  ++pos;
  while (pos < line.size() && line[pos] != '}') {
    const std::string name = ReadName(line, pos, /*colon=*/false);
    if (name.empty() || pos >= line.size() || line[pos] != '=') {
      return Status::InvalidArgument("bad label in: " + std::string(line));
    }
    ++pos;
    PS_ASSIGN_OR_RETURN(std::string value, ReadQuoted(line, pos));
    if (!labels.emplace(name, value).second) return Status::InvalidArgument("label twice");
    if (pos < line.size() && line[pos] == ',') ++pos;
  }
  if (pos >= line.size()) return Status::InvalidArgument("unterminated labels");
  ++pos;
  return labels;
}

std::string Unescape(std::string_view help) {
  std::string out;
  for (size_t i = 0; i < help.size(); ++i) {
    if (help[i] == '\\' && i + 1 < help.size()) {
      out += help[i + 1] == 'n' ? '\n' : help[i + 1];
      ++i;
    } else {
      out += help[i];
    }
  }
  return out;
}

// The family a sample belongs to: histograms add suffixes to the name.
std::string FamilyOf(const std::string& name, const std::map<std::string, std::string>& types) {
  if (types.count(name)) return name;
  for (const char* suffix : {"_bucket", "_sum", "_count"}) {
    const std::string_view s(suffix);
    if (name.size() > s.size() && name.ends_with(s)) {
      const std::string base = name.substr(0, name.size() - s.size());
      auto it = types.find(base);
      if (it != types.end() && it->second == "histogram") return base;
    }
  }
  return "";
}

Status ReadComment(std::string_view line, Exposition& e) {
  size_t pos = 2;
  const bool help = line.starts_with("# HELP ");
  if (!help && !line.starts_with("# TYPE ")) return Status::Ok();  // a plain comment
  pos = 7;
  const std::string name = ReadName(line, pos, /*colon=*/true);
  if (name.empty() || pos >= line.size() || line[pos] != ' ') {
    return Status::InvalidArgument("bad comment: " + std::string(line));
  }
  const std::string_view rest = line.substr(pos + 1);
  if (help) {
    e.help[name] = Unescape(rest);
    return Status::Ok();
  }
  static const std::set<std::string_view> kTypes = {"counter", "gauge", "histogram", "summary",
                                                    "untyped"};
  if (!kTypes.count(rest)) return Status::InvalidArgument("bad type: " + std::string(rest));
  if (!e.type.emplace(name, std::string(rest)).second) return Status::InvalidArgument("TYPE twice");
  return Status::Ok();
}

Status ReadSample(std::string_view line, Exposition& e) {
  size_t pos = 0;
  Sample s;
  s.name = ReadName(line, pos, /*colon=*/true);
  if (s.name.empty()) return Status::InvalidArgument("bad sample: " + std::string(line));
  if (FamilyOf(s.name, e.type).empty()) {
    return Status::InvalidArgument("sample before its TYPE: " + s.name);
  }
  PS_ASSIGN_OR_RETURN(s.labels, ReadLabels(line, pos));
  if (pos >= line.size() || line[pos] != ' ') return Status::InvalidArgument("no value: " + s.name);
  PS_ASSIGN_OR_RETURN(s.value, ReadValue(line.substr(pos + 1)));
  for (const Sample& other : e.samples) {
    if (other.name == s.name && other.labels == s.labels) {
      return Status::InvalidArgument("series twice: " + std::string(line));
    }
  }
  e.samples.push_back(std::move(s));
  return Status::Ok();
}

}  // namespace

std::optional<double> Exposition::Value(const std::string& name, const Labels& labels) const {
  for (const Sample& s : samples) {
    if (s.name == name && s.labels == labels) return s.value;
  }
  return std::nullopt;
}

double Exposition::Sum(const std::string& name, const Labels& match) const {
  double sum = 0;
  for (const Sample& s : samples) {
    if (s.name != name) continue;
    bool all = true;
    for (const auto& [k, v] : match) {
      auto it = s.labels.find(k);
      all &= it != s.labels.end() && it->second == v;
    }
    if (all) sum += s.value;
  }
  return sum;
}

StatusOr<Exposition> ParsePrometheusText(std::string_view text) {
  Exposition e;
  if (!text.empty() && text.back() != '\n') return Status::InvalidArgument("no final newline");
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty()) continue;
    PS_RETURN_IF_ERROR(line[0] == '#' ? ReadComment(line, e) : ReadSample(line, e));
  }
  return e;
}

}  // namespace pagesieve::testing
