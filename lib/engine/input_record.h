#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/types.h"

namespace pagesieve::engine {

// Where an input record sits in Kafka; its verdict repeats it.
struct SourcePosition {
  std::string topic;
  PartitionId partition{};
  Offset offset{};

  friend bool operator==(const SourcePosition&, const SourcePosition&) = default;
};

// How an input record's bytes are read.
enum class InputFormat {
  kJsonEvent,     // one fetched-page event as a JSON object
  kWarcResponse,  // a WARC response record, header and block as stored (docs/warc.md)
};

// The engine's view of one input record: the bytes of a Kafka message or of
// a JSONL line, and where it came from. The source that reads the record
// owns these bytes; the views are valid while it keeps the record, which
// covers every call the engine makes with it.
struct InputRecord {
  std::string_view value;               // the event's JSON
  std::optional<std::string_view> key;  // Kafka key, if any
  std::optional<EventTime> timestamp;   // Kafka timestamp: fetched_at's default
  // The record's position in its stream: a Kafka partition and offset, or,
  // for files, an id of the file and the line's index. Origins store it, so a
  // record processed again recognises itself.
  PartitionId partition{};
  Offset offset{};
  std::string_view default_event_id;     // "topic-partition-offset" or "file:line"
  std::optional<SourcePosition> source;  // Kafka only; copied into the verdict
  InputFormat format = InputFormat::kJsonEvent;
  // Set when the source already knows the record is unusable (a WARC record
  // it could not frame): the reason for its dead letter.
  std::string_view refused;
};

}  // namespace pagesieve::engine
