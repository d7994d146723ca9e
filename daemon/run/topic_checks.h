#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/status_or.h"
#include "kafka/consumer.h"
#include "kafka/kafka_options.h"
#include "run/run_options.h"

namespace pagesieve::run {

// The start-up checks of one stage of pagesieve run: the broker answers
// within kafka.startup_timeout, the input and output topics exist, and the
// topics pagesieve owns are there (created when missing: the repartition
// topic for the re-keying stage, the changelog for a stage with state; a
// changelog whose partition count is not the input's is refused). Every
// check fails with one clear line naming the setting at fault, before any
// record is read.
//
// Routed dedup's internal topics are created when missing and refused with
// another partition count than routing.partitions.
//
// Returns the partition count of the topic the stage reads, and sets
// `events_partitions` (when given) to the events' input topic's (for an
// owner stage, not the topic it reads).
StatusOr<int32_t> CheckTopics(kafka::Consumer& consumer, const kafka::KafkaOptions& kafka,
                              StageKind stage, const Clock& clock,
                              const std::atomic<bool>& stop_requested,
                              int32_t* events_partitions = nullptr);

// The topics this stage writes: the outputs, and the changelog, repartition
// and routed topics it uses.
std::vector<std::string> WrittenTopics(const kafka::KafkaOptions& kafka, StageKind stage);

// The largest message this stage may produce: the producer's
// message.max.bytes, or the smallest max.message.bytes of the topics it
// writes (outputs, changelog, repartition topic) when that is smaller.
// A topic just created by another instance is waited for (up to
// kafka.startup_timeout).
StatusOr<int64_t> OutputSizeLimit(const kafka::KafkaOptions& kafka, StageKind stage,
                                  const Clock& clock);

}  // namespace pagesieve::run
