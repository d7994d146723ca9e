#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "demo/kafka_io.h"
#include "demo/sample_crawl.h"

namespace pagesieve::demo {

// A duplicate worth showing: what it is, what it duplicates and why.
struct DuplicateExample {
  std::string tier;
  std::string url;
  std::string of_url;
  std::optional<int> distance;       // SimHash bits, near tier
  std::optional<double> similarity;  // estimated Jaccard, near tier, when both had sketches
  std::string method;                // what decided a near duplicate: simhash or minhash
  std::string variant;
};

// What a demo run decided, set against the sample's labels.
struct DemoSummary {
  int64_t events = 0;
  std::array<int64_t, 6> expected{};  // indexed like kAllExpected
  std::array<int64_t, 6> got{};
  int64_t as_labelled = 0;               // events whose outcome is their label
  int64_t missing = 0;                   // events without a verdict or dead letter
  int64_t unknown_outputs = 0;           // outputs naming no event of the sample
  int64_t duplicates_checked = 0;        // labelled duplicates found duplicate
  int64_t duplicate_of_as_labelled = 0;  // ... whose duplicate_of is the labelled page
  std::vector<std::string> mismatches;   // the first few, one line each
  std::vector<DuplicateExample> examples;
  double decide_seconds = 0;  // first to last verdict, from their Kafka timestamps
};

// Matches the outputs (verdicts, dead letters) to the events by event id.
// An event with several outputs (a verdict produced again after a retry)
// counts once, by its last output.
DemoSummary Summarize(const std::vector<SampleEvent>& events,
                      const std::vector<OutputRecord>& outputs);

// Where the run happened, for the summary's header.
struct DemoContext {
  uint64_t seed = 0;
  std::string kafka;  // "librdkafka mock cluster at 127.0.0.1:4321"
  std::string input_topic;
  int partitions = 0;
  double run_seconds = 0;  // the whole pagesieve run, start-up included
};

std::string RenderText(const DemoSummary& summary, const DemoContext& context);
// One JSON object on one line, for scripts and the demo's test.
std::string RenderJson(const DemoSummary& summary, const DemoContext& context);

}  // namespace pagesieve::demo
