// The record the re-keying stage republishes must bring every field the
// deciding stage needs back exactly, and refuse anything else as bad input.
#include "engine/repartition_record.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/clock.h"
#include "config/config.h"
#include "engine/record_preparer.h"

namespace pagesieve::engine {
namespace {

constexpr int64_t kT0 = 1'790'812'800'000;  // 2026-10-01

class RepartitionRecordTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StatusOr<Config> config = Config::Defaults();
    ASSERT_TRUE(config.ok());
    StatusOr<EngineOptions> options = EngineOptionsFromConfig(*config);
    ASSERT_TRUE(options.ok()) << options.status().ToString();
    options_ = *options;
    preparer_ = std::make_unique<RecordPreparer>(options_, clock_);
  }

  PreparedRecord Prepare(const nlohmann::json& event, int64_t offset) {
    const std::string value = event.dump();
    const std::string default_id = "pages-3-" + std::to_string(offset);  // in views below
    InputRecord in;
    in.value = value;
    in.partition = PartitionId(3);
    in.offset = Offset(offset);
    in.default_event_id = default_id;
    in.source = SourcePosition{"pages", PartitionId(3), Offset(offset)};
    StatusOr<PreparedRecord> r = preparer_->Prepare(in);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return std::move(r).value();
  }

  ManualClock clock_{WallTimeFromMillis(kT0 + 86'400'000)};
  EngineOptions options_;
  std::unique_ptr<RecordPreparer> preparer_;
};

std::string Words(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) text += " word" + std::to_string(i * 7 % 101);
  return text;
}

TEST_F(RepartitionRecordTest, AFingerprintedRecordComesBackEqual) {
  PreparedRecord r = Prepare({{"url", "https://News.example/a?utm_source=x"},
                              {"fetched_at", kT0},
                              {"text", Words(120)},
                              {"event_id", "ev-1"}},
                             41);
  ASSERT_TRUE(r.fingerprints && r.fingerprints->simhash);
  r.forwarded = ForwardedFields{std::string("key\0binary", 10), "body_base64", "\"aGVsbG8=\""};
  StatusOr<PreparedRecord> back = DecodeRepartitionRecord(EncodeRepartitionRecord(r));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, r);
  EXPECT_EQ(back->partition, PartitionId(3));  // the original position: origins store it
  EXPECT_EQ(back->offset, Offset(41));
}

TEST_F(RepartitionRecordTest, ARecordWithoutKeyOrSimHashComesBackWithoutThem) {
  // Too few words for a SimHash; no key: the verdict is published unkeyed,
  // not under the scope the repartition record was keyed by.
  PreparedRecord r =
      Prepare({{"url", "https://a.example/"}, {"fetched_at", kT0}, {"text", "short"}}, 0);
  ASSERT_TRUE(r.fingerprints);
  ASSERT_FALSE(r.fingerprints->simhash);
  StatusOr<PreparedRecord> back = DecodeRepartitionRecord(EncodeRepartitionRecord(r));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_TRUE(back->forwarded);
  EXPECT_EQ(back->forwarded->key, std::nullopt);
  EXPECT_EQ(back->forwarded->body_field, std::nullopt);
  back->forwarded.reset();
  EXPECT_EQ(*back, r);
}

TEST_F(RepartitionRecordTest, ASkippedRecordStaysSkipped) {
  PreparedRecord r =
      Prepare({{"url", "https://a.example/gone"}, {"fetched_at", kT0}, {"status", 404}}, 5);
  ASSERT_TRUE(r.skipped());
  StatusOr<PreparedRecord> back = DecodeRepartitionRecord(EncodeRepartitionRecord(r));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(back->skipped());
  EXPECT_EQ(back->status, 404);
  EXPECT_FALSE(back->fingerprints);
  EXPECT_EQ(back->scope, r.scope);
}

TEST_F(RepartitionRecordTest, EveryTruncationAndTrailingBytesAreRefused) {
  PreparedRecord r =
      Prepare({{"url", "https://a.example/x"}, {"fetched_at", kT0}, {"text", Words(80)}}, 9);
  r.forwarded = ForwardedFields{"k", "body", "\"<p>hi</p>\""};
  const std::string bytes = EncodeRepartitionRecord(r);
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_EQ(DecodeRepartitionRecord(bytes.substr(0, n)).status().code(),
              StatusCode::kInvalidArgument)
        << "prefix of " << n << " bytes";
  }
  EXPECT_FALSE(DecodeRepartitionRecord(bytes + "x").ok());
}

TEST_F(RepartitionRecordTest, AnEventOrOtherForeignBytesAreRefusedWithAHint) {
  StatusOr<PreparedRecord> r = DecodeRepartitionRecord(R"({"url":"https://a.example/"})");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("input.repartition_topic"), std::string::npos);
  std::string unknown_flags = "PSR\x02";
  unknown_flags.push_back('\x80');  // varint 256: a flag this version does not know
  unknown_flags.push_back('\x02');
  EXPECT_FALSE(DecodeRepartitionRecord(unknown_flags + std::string(64, '\0')).ok());
}

TEST_F(RepartitionRecordTest, TheSketchAndTheNearRuleComeBack) {
  PreparedRecord r = Prepare({{"url", "https://a.example/x"}, {"fetched_at", kT0},
                              {"text", Words(300)}, {"event_id", "s"}},
                             3);
  ASSERT_FALSE(r.fingerprints->minhash.empty());
  r.near = NearRule{5, 0.65, NearMethod::kMinHash};
  StatusOr<PreparedRecord> back = DecodeRepartitionRecord(EncodeRepartitionRecord(r));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  back->forwarded.reset();
  EXPECT_EQ(*back, r);
}

// A re-keying stage of the release before wrote version 1 records: still in
// the topic after an upgrade, they are read, with the default rule's
// jaccard and method and no sketch.
TEST_F(RepartitionRecordTest, AVersionOneRecordIsStillRead) {
  PreparedRecord r = Prepare({{"url", "https://a.example/x"}, {"fetched_at", kT0},
                              {"text", Words(80)}, {"event_id", "v1"}},
                             4);
  r.fingerprints->minhash.clear();
  r.near = NearRule{};
  r.near.max_distance = 4;
  std::string v2 = EncodeRepartitionRecord(r);
  // Version 1 is version 2 without the jaccard (8 bytes) and the method
  // (1 byte) after the distance, under another version byte.
  std::string v1 = "PSR\x01";
  size_t at = 4;
  for (int varints = 0; varints < 3; ++varints) {  // flags, status, distance
    while (static_cast<unsigned char>(v2[at]) & 0x80) v1.push_back(v2[at++]);
    v1.push_back(v2[at++]);
  }
  v1 += v2.substr(at + 9);
  StatusOr<PreparedRecord> back = DecodeRepartitionRecord(v1);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  back->forwarded.reset();
  EXPECT_EQ(*back, r);
  EXPECT_EQ(back->near.max_distance, 4);
}

TEST_F(RepartitionRecordTest, ARecordNeitherSkippedNorFingerprintedIsRefused) {
  PreparedRecord r =
      Prepare({{"url", "https://a.example/gone"}, {"fetched_at", kT0}, {"status", 404}}, 2);
  std::string bytes = EncodeRepartitionRecord(r);
  // Clear the skipped flag (bit 0 of the flags varint after the magic): a
  // record with no fingerprints that claims to be decidable.
  ASSERT_EQ(bytes[4] & 0x01, 0x01);
  bytes[4] = static_cast<char>(bytes[4] & ~0x01);
  StatusOr<PreparedRecord> back = DecodeRepartitionRecord(bytes);
  EXPECT_EQ(back.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace pagesieve::engine
