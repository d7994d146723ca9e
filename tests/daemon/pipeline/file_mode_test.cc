// File mode is the same pipeline with a file source and a file sink: these
// tests hold the two to the pipeline's contract (positions, ends, output
// acknowledged only once written), and show that pagesieve dedup gets the
// pipeline's ordering and checkpoint rule.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "files/dedup_runner.h"
#include "files/file_sink.h"
#include "files/file_source.h"
#include "pipeline_fakes.h"
#include "pipeline_test_env.h"
#include "recording_lanes.h"
#include "store/shard_inspector.h"

namespace pagesieve::pipeline::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Json = nlohmann::json;

class FileModeTest : public PipelineTestBase {};

TEST_F(FileModeTest, TheFileSourceNumbersRecordsOnFromTheStatesCheckpoint) {
  const std::string path = dir_.File("in.jsonl");
  pagesieve::testing::WriteFile(path, "{\"a\":1}\n\n   \n{\"b\":2}\r\n{\"c\":3}\n");
  files::FileSource source({path}, 2, clock_);
  RecordingLanes lanes;
  lanes.checkpointed = Offset(100);  // a state that decided 100 records before
  ASSERT_TRUE(source.Poll(Duration(0), lanes).ok());
  EXPECT_EQ(lanes.start, Offset(100));
  ASSERT_EQ(lanes.records.size(), 2u);  // at most two per poll
  EXPECT_FALSE(source.EndOf(files::FileSource::kLane).has_value());
  ASSERT_TRUE(source.Poll(Duration(0), lanes).ok());
  ASSERT_TRUE(source.Poll(Duration(0), lanes).ok());
  ASSERT_EQ(lanes.records.size(), 3u);
  EXPECT_EQ(source.EndOf(files::FileSource::kLane), Offset(103));
  // Origins keep (file id, line index); the lane counts records.
  EXPECT_EQ(lanes.records[1].value, "{\"b\":2}");
  EXPECT_EQ(lanes.records[1].offset, Offset(3));  // the fourth line
  EXPECT_EQ(lanes.records[1].lane_offset, Offset(101));
  EXPECT_EQ(lanes.records[1].partition, files::FileId(path));
  EXPECT_EQ(lanes.records[1].default_event_id, path + ":4");
  EXPECT_FALSE(lanes.records[1].position_in_verdict);
}

TEST_F(FileModeTest, AFileThatCannotBeOpenedFailsThePoll) {
  files::FileSource source({dir_.File("missing.jsonl")}, 8, clock_);
  RecordingLanes lanes;
  const Status s = source.Poll(Duration(0), lanes);
  EXPECT_EQ(s.code(), StatusCode::kIoError);
  EXPECT_THAT(s.message(), HasSubstr("missing.jsonl"));
}

TEST_F(FileModeTest, TheFileSinkAcknowledgesOnlyWhatItWroteOut) {
  files::FileSink sink;
  ASSERT_TRUE(sink.Open(dir_.File("v.jsonl"), dir_.File("dlq.jsonl")).ok());
  auto counter = std::make_shared<DeliveryCounter>();
  ASSERT_TRUE(
      sink.Send({files::FileSink::kVerdicts, {}, "{\"v\":1}", {}, {}, false}, counter).ok());
  ASSERT_TRUE(
      sink.Send({files::FileSink::kDeadLetters, {}, "{\"d\":1}", {}, {}, false}, counter).ok());
  EXPECT_EQ(counter->unacknowledged, 2);
  EXPECT_EQ(pagesieve::testing::ReadFile(dir_.File("v.jsonl")), "");  // still buffered
  sink.Poll(Duration(0));
  EXPECT_EQ(counter->unacknowledged, 0);
  EXPECT_EQ(pagesieve::testing::ReadFile(dir_.File("v.jsonl")), "{\"v\":1}\n");
  EXPECT_EQ(pagesieve::testing::ReadFile(dir_.File("dlq.jsonl")), "{\"d\":1}\n");
  ASSERT_TRUE(sink.Close().ok());
}

TEST_F(FileModeTest, AWriteThatFailsIsAFailedDelivery) {
  files::FileSink sink;
  ASSERT_TRUE(sink.Open("/dev/full", std::nullopt).ok());
  auto counter = std::make_shared<DeliveryCounter>();
  ASSERT_TRUE(
      sink.Send({files::FileSink::kVerdicts, {}, "{\"v\":1}", {}, {}, false}, counter).ok());
  sink.Poll(Duration(0));
  EXPECT_EQ(counter->unacknowledged, 0);
  EXPECT_EQ(counter->failures, 1);
  EXPECT_THAT(counter->first_error, HasSubstr("/dev/full"));
}

// pagesieve dedup and pagesieve run share the lane's checkpoint rule: here
// the file run meets a full disk (the Kafka run's counterpart is
// tests/integration's OutputThatCannotBeDeliveredStopsTheDaemonBeforeItsCheckpoint).
// The run stops naming the failure, and its state is not checkpointed past
// output that was never written: a rerun decides those records again.
TEST_F(FileModeTest, DedupStopsAtAFullDiskWithoutCheckpointingPastLostVerdicts) {
  const std::string input = dir_.File("in.jsonl");
  std::ofstream out(input);
  for (int i = 0; i < 40; ++i) {
    out << EventJson(i, "https://a.example/" + std::to_string(i), i % 7) << "\n";
  }
  out.close();
  files::DedupRunOptions run;
  run.inputs = {input};
  run.output = "/dev/full";
  run.state_dir = dir_.File("state");
  run.threads = 2;
  run.batch_records = 4;
  run.checkpoint_every = 8;
  run.progress = false;
  store::StateEnvOptions state;
  state.sync = false;
  files::DedupRunner runner(engine_, state, run, clock_);
  StatusOr<engine::VerdictCounts> result = runner.Run();
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.status().message(), HasSubstr("No space left on device"));
  auto shard = store::ShardInspector::Open(dir_.File("state") + "/dedup", engine_.shard);
  ASSERT_TRUE(shard.ok()) << shard.status().ToString();
  EXPECT_FALSE((*shard)->checkpointed_offset().has_value())
      << "checkpointed at " << (*shard)->checkpointed_offset()->value()
      << " though nothing was written";
}

TEST_F(FileModeTest, DedupWritesVerdictsInInputOrderWithFourWorkersAndTinyBatches) {
  const std::string input = dir_.File("in.jsonl");
  std::ofstream out(input);
  std::vector<std::string> expected;
  for (int i = 0; i < 60; ++i) {
    // Long and short pages mixed, so the workers finish out of order.
    std::string big(i % 5 == 0 ? 200'000 : 10, 'x');
    out << Json{{"url", "https://a.example/" + std::to_string(i)},
                {"fetched_at", kT0 + i},
                {"text", Article(i) + big},
                {"event_id", "e" + std::to_string(i)}}
               .dump()
        << "\n";
    expected.push_back("e" + std::to_string(i));
  }
  out.close();
  files::DedupRunOptions run;
  run.inputs = {input};
  run.output = dir_.File("verdicts.jsonl");
  run.threads = 4;
  run.batch_records = 1;
  run.progress = false;
  files::DedupRunner runner(engine_, store::StateEnvOptions{}, run, clock_);
  StatusOr<engine::VerdictCounts> result = runner.Run();
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  std::vector<std::string> ids;
  std::ifstream in(run.output);
  for (std::string line; std::getline(in, line);) ids.push_back(Json::parse(line)["event_id"]);
  EXPECT_EQ(ids, expected);
}

}  // namespace
}  // namespace pagesieve::pipeline::testing
