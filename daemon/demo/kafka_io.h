#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common/status_or.h"
#include "common/types.h"
#include "demo/sample_crawl.h"
#include "kafka/kafka_options.h"

namespace pagesieve::demo {

// The demo's own traffic around a run: producing the sample and reading the
// verdicts back. Not the daemon's code path (that is run::KafkaStage); these are
// plain clients built from the same [kafka] options. Functions block until
// done or `timeout`.

// (topic, partition) → an offset.
using TopicOffsets = std::map<std::pair<std::string, int32_t>, int64_t>;

// The first and next offsets (low and high watermarks) of a partition.
struct OffsetRange {
  int64_t low = 0;
  int64_t high = 0;
};
using TopicRanges = std::map<std::pair<std::string, int32_t>, OffsetRange>;

// The watermarks of every partition of `topics`; NotFound while a topic is
// missing from the broker's metadata.
StatusOr<TopicRanges> Watermarks(const kafka::KafkaOptions& kafka,
                                 const std::vector<std::string>& topics, Duration timeout);

// The high watermarks alone.
TopicOffsets Ends(const TopicRanges& ranges);

// Produces every event to `topic`, keyed by its site, and waits until the
// broker acknowledged all of them.
Status ProduceSample(const kafka::KafkaOptions& kafka, const std::string& topic,
                     const std::vector<SampleEvent>& events, Duration timeout);

// A record read back from an output topic.
struct OutputRecord {
  std::string topic;
  std::string value;
  int64_t timestamp_ms = 0;  // when pagesieve produced it
};

// Every record of `topics` from `from` (partitions not listed: from the
// start) up to the end they have when the call starts.
StatusOr<std::vector<OutputRecord>> ReadOutputs(const kafka::KafkaOptions& kafka,
                                                const std::vector<std::string>& topics,
                                                const TopicOffsets& from, Duration timeout);

}  // namespace pagesieve::demo
