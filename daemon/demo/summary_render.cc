// The demo's summary as people read it, and as scripts read it.
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "demo/demo_summary.h"

namespace pagesieve::demo {
namespace {

const char* RowName(Expected e) {
  switch (e) {
    case Expected::kUnique:
      return "unique";
    case Expected::kUrl:
      return "duplicate, url tier";
    case Expected::kExact:
      return "duplicate, exact tier";
    case Expected::kNear:
      return "duplicate, near tier";
    case Expected::kSkipped:
      return "skipped (HTTP status)";
    case Expected::kDeadLetter:
      return "dead letter";
  }
  return "?";
}

const char* Why(const std::string& variant) {
  if (variant == "url_variant")
    return "same page; tracking parameters, session id or host case in the URL";
  if (variant == "mirror") return "same article on the site's mobile or AMP host";
  if (variant == "edit") return "print version with a misspelt word corrected";
  if (variant == "correction") return "same URL, a correction appended to the article";
  if (variant == "refetch") return "same URL fetched again; ads, teasers and clock rotated";
  return "";
}

std::string Format(const char* fmt, double a, double b = 0, double c = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, a, b, c);
  return buf;
}

std::string Table(const DemoSummary& s) {
  std::string out = "                               expected       got\n";
  for (Expected e : kAllExpected) {
    const auto i = static_cast<size_t>(e);
    char line[128];
    std::snprintf(line, sizeof line, "  %-26s %9lld %9lld%s\n", RowName(e),
                  static_cast<long long>(s.expected[i]), static_cast<long long>(s.got[i]),
                  s.expected[i] == s.got[i] ? "" : "   <- differs");
    out += line;
  }
  return out;
}

// ", MinHash similarity 0.98 (SimHash distance 1)": what decided first.
std::string NearWhy(const DuplicateExample& x) {
  const std::string distance = "SimHash distance " + std::to_string(x.distance.value_or(-1));
  if (x.method == "minhash" && x.similarity) {
    return Format(", MinHash similarity %.2f", *x.similarity) + " (" + distance + ")";
  }
  return ", " + distance;
}

std::string Examples(const DemoSummary& s) {
  std::string out = "\nExamples of duplicates:\n";
  for (const DuplicateExample& x : s.examples) {
    std::string why = x.tier + " tier";
    if (x.tier == "exact") why += ", same main text";
    if (x.tier == "near") why += NearWhy(x);
    out += "  " + x.url + "\n    duplicates " + (x.of_url.empty() ? "(unknown)" : x.of_url) +
           "\n    " + why + ": " + Why(x.variant) + "\n";
  }
  return out;
}

}  // namespace

std::string RenderText(const DemoSummary& s, const DemoContext& c) {
  std::string out = "pagesieve demo: " + std::to_string(s.events) +
                    " fetched-page events from synthetic news sites (seed " +
                    std::to_string(c.seed) + ")\n  Kafka: " + c.kafka + "; input topic " +
                    c.input_topic + " (" + std::to_string(c.partitions) + " partitions)\n\n";
  out += Table(s);
  out += "  as labelled: " + std::to_string(s.as_labelled) + " of " + std::to_string(s.events) +
         "; duplicate_of is the labelled page for " + std::to_string(s.duplicate_of_as_labelled) +
         " of " + std::to_string(s.duplicates_checked) + " duplicates\n";
  for (const std::string& m : s.mismatches) out += "  differs: " + m + "\n";
  if (!s.mismatches.empty()) {
    out +=
        "  (a near-duplicate decided unique is one whose estimated similarity fell\n"
        "   below near.jaccard; docs/demo.md)\n";
  }
  if (!s.examples.empty()) out += Examples(s);
  const double rate = s.decide_seconds > 0 ? static_cast<double>(s.events) / s.decide_seconds : 0;
  out += "\nThroughput: " +
         Format("%.0f records/s from the first verdict to the last (%.0f events in %.2f s).\n",
                rate, static_cast<double>(s.events), s.decide_seconds) +
         Format(
             "The whole run took %.1f s: most of it is joining the consumer group (a broker\n"
             "holds a new group's first rebalance for about 3 s) and opening a RocksDB shard\n"
             "per partition. bench/daemon measures pagesieve's sustained throughput.\n",
             c.run_seconds);
  return out;
}

std::string RenderJson(const DemoSummary& s, const DemoContext& c) {
  nlohmann::ordered_json expected, got;
  for (Expected e : kAllExpected) {
    const std::string name(ExpectedName(e));
    expected[name] = s.expected[static_cast<size_t>(e)];
    got[name] = s.got[static_cast<size_t>(e)];
  }
  nlohmann::ordered_json examples = nlohmann::ordered_json::array();
  for (const DuplicateExample& x : s.examples) {
    examples.push_back({{"tier", x.tier},
                        {"url", x.url},
                        {"duplicate_of", x.of_url},
                        {"distance", x.distance ? nlohmann::ordered_json(*x.distance) : nullptr},
                        {"similarity",
                         x.similarity ? nlohmann::ordered_json(*x.similarity) : nullptr},
                        {"method", x.method.empty() ? nlohmann::ordered_json(nullptr)
                                                    : nlohmann::ordered_json(x.method)},
                        {"variant", x.variant}});
  }
  nlohmann::ordered_json j = {
      {"events", s.events},
      {"seed", c.seed},
      {"kafka", c.kafka},
      {"expected", expected},
      {"got", got},
      {"as_labelled", s.as_labelled},
      {"missing", s.missing},
      {"unknown_outputs", s.unknown_outputs},
      {"duplicates_checked", s.duplicates_checked},
      {"duplicate_of_as_labelled", s.duplicate_of_as_labelled},
      {"mismatches", s.mismatches},
      {"examples", examples},
      {"decide_seconds", s.decide_seconds},
      {"run_seconds", c.run_seconds},
  };
  return j.dump() + "\n";
}

}  // namespace pagesieve::demo
