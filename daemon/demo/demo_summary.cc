// Matching pagesieve's outputs to the sample's labels.
#include "demo/demo_summary.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

namespace pagesieve::demo {
namespace {

constexpr size_t kMaxMismatches = 5;

// What pagesieve said about one event.
struct Outcome {
  Expected got = Expected::kUnique;
  std::string url;
  std::string of_id;
  std::string of_url;
  std::optional<int> distance;
  std::optional<double> similarity;
  std::string method;
};

std::string StringField(const nlohmann::json& j, const char* name) {
  auto it = j.find(name);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<Expected> Classify(const std::string& verdict, const std::string& tier) {
  if (verdict == "unique") return Expected::kUnique;
  if (verdict == "skipped") return Expected::kSkipped;
  if (verdict != "duplicate") return std::nullopt;
  if (tier == "url") return Expected::kUrl;
  if (tier == "exact") return Expected::kExact;
  if (tier == "near") return Expected::kNear;
  return std::nullopt;
}

// A verdict, or a dead letter (the original event, which has no "verdict").
std::optional<std::pair<std::string, Outcome>> Parse(const OutputRecord& record) {
  const nlohmann::json j = nlohmann::json::parse(record.value, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return std::nullopt;
  const std::string id = StringField(j, "event_id");
  if (id.empty()) return std::nullopt;
  Outcome o;
  o.url = StringField(j, "url");
  if (!j.contains("verdict")) {
    o.got = Expected::kDeadLetter;
    return std::make_pair(id, o);
  }
  const std::optional<Expected> got = Classify(StringField(j, "verdict"), StringField(j, "tier"));
  if (!got) return std::nullopt;
  o.got = *got;
  auto of = j.find("duplicate_of");
  if (of != j.end() && of->is_object()) {
    o.of_id = StringField(*of, "event_id");
    o.of_url = StringField(*of, "url");
  }
  auto distance = j.find("distance");
  if (distance != j.end() && distance->is_number_integer()) o.distance = distance->get<int>();
  auto similarity = j.find("similarity");
  if (similarity != j.end() && similarity->is_number()) o.similarity = similarity->get<double>();
  o.method = StringField(j, "method");
  return std::make_pair(id, o);
}

bool IsDuplicate(Expected e) {
  return e == Expected::kUrl || e == Expected::kExact || e == Expected::kNear;
}

// One example per kind of duplicate, in this order, among events decided as labelled.
void PickExamples(const std::vector<SampleEvent>& events,
                  const std::map<std::string, Outcome>& by_id, DemoSummary& summary) {
  for (const char* variant : {"url_variant", "mirror", "edit", "correction", "refetch"}) {
    for (const SampleEvent& e : events) {
      auto it = by_id.find(e.event_id);
      if (e.label.variant != variant || it == by_id.end() || it->second.got != e.label.expected) {
        continue;
      }
      const Outcome& o = it->second;
      summary.examples.push_back(
          {std::string(ExpectedName(o.got)), o.url, o.of_url, o.distance, o.similarity, o.method,
           e.label.variant});
      break;
    }
  }
}

double DecideSeconds(const std::vector<OutputRecord>& outputs) {
  if (outputs.empty()) return 0;
  auto [lo, hi] = std::minmax_element(
      outputs.begin(), outputs.end(),
      [](const OutputRecord& a, const OutputRecord& b) { return a.timestamp_ms < b.timestamp_ms; });
  return static_cast<double>(hi->timestamp_ms - lo->timestamp_ms) / 1000.0;
}

void Compare(const SampleEvent& e, const Outcome* o, DemoSummary& s) {
  const auto want = static_cast<size_t>(e.label.expected);
  ++s.expected[want];
  if (o == nullptr) {
    ++s.missing;
    if (s.mismatches.size() < kMaxMismatches) {
      s.mismatches.push_back(e.event_id + " (" + e.label.variant + "): no verdict");
    }
    return;
  }
  ++s.got[static_cast<size_t>(o->got)];
  if (o->got == e.label.expected) {
    ++s.as_labelled;
  } else if (s.mismatches.size() < kMaxMismatches) {
    s.mismatches.push_back(e.event_id + " (" + e.label.variant + ", " + e.url + "): expected " +
                           std::string(ExpectedName(e.label.expected)) + ", got " +
                           std::string(ExpectedName(o->got)));
  }
  if (IsDuplicate(e.label.expected) && o->got == e.label.expected) {
    ++s.duplicates_checked;
    if (o->of_id == e.label.of) ++s.duplicate_of_as_labelled;
  }
}

}  // namespace

DemoSummary Summarize(const std::vector<SampleEvent>& events,
                      const std::vector<OutputRecord>& outputs) {
  DemoSummary s;
  s.events = static_cast<int64_t>(events.size());
  std::map<std::string, Outcome> by_id;
  std::map<std::string, const SampleEvent*> known;
  for (const SampleEvent& e : events) known[e.event_id] = &e;
  for (const OutputRecord& record : outputs) {
    auto parsed = Parse(record);
    if (!parsed || known.count(parsed->first) == 0) {
      ++s.unknown_outputs;
      continue;
    }
    by_id[parsed->first] = std::move(parsed->second);
  }
  for (const SampleEvent& e : events) {
    auto it = by_id.find(e.event_id);
    Compare(e, it == by_id.end() ? nullptr : &it->second, s);
  }
  PickExamples(events, by_id, s);
  s.decide_seconds = DecideSeconds(outputs);
  return s;
}

}  // namespace pagesieve::demo
