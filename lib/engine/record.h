#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/digest.h"
#include "common/types.h"
#include "engine/verdict.h"

namespace pagesieve::engine {

// One input record as a source hands it over: the bytes of a Kafka message or
// of a JSONL line, and where it came from. Views are valid during Prepare().
struct InputRecord {
  std::string_view value;                  // the event's JSON
  std::optional<std::string_view> key;     // Kafka key, if any
  std::optional<EventTime> timestamp;      // Kafka timestamp: fetched_at's default
  // The record's position in its stream: a Kafka partition and offset, or,
  // for files, an id of the file and the line's index. Origins store it, so a
  // record processed again recognises itself.
  PartitionId partition{};
  Offset offset{};
  std::string_view default_event_id;       // "topic-partition-offset" or "file:line"
  std::optional<SourcePosition> source;    // Kafka only; copied into the verdict
};

// What a record that travelled through the repartition topic (docs/rekey.md)
// brings from its original input record, for its verdict message: the Kafka
// key it is published under, and the body field's raw JSON (name and value)
// when output.include_body needs it.
struct ForwardedFields {
  std::optional<std::string> key;
  std::optional<std::string> body_field;
  std::string body_json;

  friend bool operator==(const ForwardedFields&, const ForwardedFields&) = default;
};

// A record after the CPU-heavy, stateless part: parsed, fingerprinted,
// scoped. The verdict is filled in except for the decision.
//
// `partition` and `offset` are the record's position in its input; origins
// store them. For a re-keyed record they are the original input record's,
// not the repartition topic's, so a record republished twice (the re-keying
// stage is at-least-once) still recognises itself.
struct PreparedRecord {
  Verdict verdict;
  bool skipped = false;  // status not accepted: no fingerprints, no state
  int near_max_distance = 0;
  PartitionId partition{};
  Offset offset{};
  std::optional<ForwardedFields> forwarded;  // re-keyed records only

  friend bool operator==(const PreparedRecord&, const PreparedRecord&) = default;
};

}  // namespace pagesieve::engine
