#pragma once

// What the lane and pipeline tests share: real engine options, a real state
// directory, fake time, and events whose verdicts are known.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "common/clock.h"
#include "engine/engine_options.h"
#include "kafka/output_messages.h"
#include "pipeline/output_message.h"
#include "pipeline/source_record.h"
#include "run_process.h"
#include "store/state_env.h"

namespace pagesieve::pipeline::testing {

inline constexpr int64_t kT0 = 1'790'812'800'000;  // 2026-10-01

// 80 words derived from `seed`: equal seeds, equal texts (exact duplicates).
std::string Article(int seed);
// An event at `offset` of `url` with Article(seed), event id "e<offset>".
std::string EventJson(int64_t offset, const std::string& url, int seed);
// The record at `offset` of partition `p` of topic "pages", keyed "site",
// with a header "trace: t<offset>".
SourceRecord Record(int64_t offset, const std::string& url, int seed,
                    PartitionId p = PartitionId(2));
// The event ids of `messages`, in order ("raw:<value>" for what is not a
// verdict, such as a dead letter).
std::vector<std::string> EventIds(const std::vector<OutputMessage>& messages);

class PipelineTestBase : public ::testing::Test {
 protected:
  void SetUp() override;
  StatusOr<std::unique_ptr<store::Shard>> OpenShard(PartitionId p,
                                                    const std::string& topic = "pages");

  pagesieve::testing::TempDir dir_;
  ManualClock clock_{WallTimeFromMillis(kT0 + 86'400'000)};
  engine::EngineOptions engine_;
  std::unique_ptr<store::StateEnv> env_;
  kafka::KafkaFormat format_{{"u", "d", "s", "dlq", false}, "body", "body_base64"};
};

}  // namespace pagesieve::pipeline::testing
