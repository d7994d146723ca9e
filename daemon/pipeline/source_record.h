#pragma once

#include <optional>
#include <string>

#include "common/clock.h"
#include "common/types.h"
#include "engine/input_record.h"
#include "pipeline/output_message.h"
#include "pipeline/payload.h"

namespace pagesieve::pipeline {

// One input record as a source hands it to the pipeline, holding its bytes:
// a Kafka message or a line of a file. The pipeline keeps it until its output
// is sent, so dead letters can quote it and include_body can forward it.
struct SourceRecord {
  // Where the record comes from: the Kafka topic, partition and offset, or
  // the input file's name, the file's id and the line's index. Origins store
  // (partition, offset), so a record processed again recognises itself.
  std::string stream;
  PartitionId partition{};
  Offset offset{};
  // The record's position in its lane, which checkpoints count and commits
  // name: the Kafka offset, or for files the record's ordinal in the run.
  Offset lane_offset{};

  std::optional<std::string> key;
  Payload value;
  std::optional<EventTime> timestamp;  // Kafka timestamp: fetched_at's default
  Headers headers;
  std::string default_event_id;  // "topic-partition-offset" or "file:line"
  // Kafka sources put the position in the verdict ("source"); files do not.
  bool position_in_verdict = false;
  Clock::SteadyTime received_at{};  // when the source read it: latency starts here
  // What `value` holds: an event's JSON, or a WARC record (files only).
  engine::InputFormat format = engine::InputFormat::kJsonEvent;
  // Non-empty when the source could not read the record: the reason for
  // its dead letter (a WARC record it could not frame).
  std::string refused;

  // The engine's view of this record; valid while this record is neither
  // moved nor destroyed.
  engine::InputRecord AsInput() const {
    engine::InputRecord in;
    in.value = value;
    if (key) in.key = *key;
    in.timestamp = timestamp;
    in.partition = partition;
    in.offset = offset;
    in.default_event_id = default_event_id;
    if (position_in_verdict) in.source = engine::SourcePosition{stream, partition, offset};
    in.format = format;
    in.refused = refused;
    return in;
  }
};

}  // namespace pagesieve::pipeline
