#include "kafka/output_messages.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/repartition_record.h"

namespace pagesieve::kafka {
namespace {

using Json = nlohmann::json;

OutputTopics Topics(bool include_body) { return {"u", "d", "s", "dlq", include_body}; }

SourceRecord Input(const std::string& value) {
  SourceRecord r;
  r.stream = "pages";
  r.partition = PartitionId(1);
  r.offset = Offset(7);
  r.key = "k";
  r.value = value;
  return r;
}

engine::Verdict Unique() {
  engine::PreparedRecord r;
  r.event_id = "e";
  return engine::Verdict{r, engine::Decision::Unique()};
}

TEST(OutputMessagesTest, IncludeBodyForwardsTheBodyAsSentOnUniqueVerdicts) {
  const std::string event = R"({"url":"u","body":"<p>caf\u00e9 \"x\"</p>","other":1})";
  OutputMessage m = VerdictMessage(Unique(), Input(event), Topics(true), "body", "body_base64");
  Json j = Json::parse(m.value);
  EXPECT_EQ(j["event_id"], "e");
  EXPECT_EQ(j["body"], "<p>caf\xc3\xa9 \"x\"</p>");
  EXPECT_NE(m.value.find(R"("body":"<p>caf\u00e9 \"x\"</p>")"), std::string::npos)
      << "the body is copied as sent, not re-encoded";
}

TEST(OutputMessagesTest, IncludeBodyPrefersBase64AndSkipsDuplicates) {
  const std::string event = R"({"url":"u","body":"text","body_base64":"AAEC"})";
  Json j = Json::parse(
      VerdictMessage(Unique(), Input(event), Topics(true), "body", "body_base64").value);
  EXPECT_EQ(j["body_base64"], "AAEC");
  EXPECT_FALSE(j.contains("body"));
  engine::Verdict dup = Unique();
  dup.decision = engine::Decision::Duplicate(engine::Tier::kExact, std::nullopt, 0);
  Json d =
      Json::parse(VerdictMessage(dup, Input(event), Topics(true), "body", "body_base64").value);
  EXPECT_FALSE(d.contains("body_base64"));
}

TEST(OutputMessagesTest, WithoutIncludeBodyTheValueIsTheVerdict) {
  const std::string event = R"({"url":"u","body":"<p>x</p>"})";
  OutputMessage m = VerdictMessage(Unique(), Input(event), Topics(false), "body", "body_base64");
  EXPECT_EQ(m.value, engine::EncodeVerdictJson(Unique()));
  EXPECT_EQ(m.topic, "u");
  EXPECT_EQ(m.key, "k");
}

TEST(OutputMessagesTest, SkippedVerdictsGoToTheSkippedTopicWithoutATier) {
  engine::Verdict v = Unique();
  v.decision = engine::Decision::Skipped();
  OutputMessage m = VerdictMessage(v, Input("{}"), Topics(false), "body", "body_base64");
  EXPECT_EQ(m.topic, "s");
  ASSERT_EQ(m.headers.size(), 1u);
  EXPECT_EQ(m.headers[0].second, "skipped");
}

TEST(OutputMessagesTest, DeadLetterKeepsKeyValueAndHeadersAndSaysWhy) {
  SourceRecord in = Input("\xff\xfe binary");
  in.key.reset();
  in.headers = {{"h", "v"}};
  OutputMessage m = DeadLetterMessage(in, Status::InvalidArgument("no 'url' field"), Topics(false));
  EXPECT_EQ(m.topic, "dlq");
  EXPECT_FALSE(m.key.has_value());
  EXPECT_EQ(m.value, "\xff\xfe binary");
  EXPECT_THAT(m.headers, ::testing::ElementsAre(
                             std::pair<std::string, std::string>("h", "v"),
                             std::pair<std::string, std::string>(kErrorHeader, "no 'url' field"),
                             std::pair<std::string, std::string>(kSourceTopicHeader, "pages"),
                             std::pair<std::string, std::string>(kSourcePartitionHeader, "1"),
                             std::pair<std::string, std::string>(kSourceOffsetHeader, "7")));
}

// Output over the topics' limit used to fail delivery after every restart
// (issue: a partition whose verdict is too large is never decided again).
OutputTopics SmallTopics() {
  OutputTopics t = Topics(true);
  t.max_message_bytes = 2000;
  return t;
}

TEST(OutputMessagesTest, AVerdictWhoseBodyWouldNotFitLeavesItOutAndSaysHowLarge) {
  const std::string page(5000, 'x');
  const std::string event = R"({"url":"u","body":")" + page + R"("})";
  OutputMessage m = VerdictMessage(Unique(), Input(event), SmallTopics(), "body", "body_base64");
  Json j = Json::parse(m.value);
  EXPECT_FALSE(j.contains("body"));
  EXPECT_EQ(j["body_omitted_bytes"], page.size() + 2);  // the raw JSON string, with its quotes
  EXPECT_LE(m.value.size(), 2000u);

  const std::string small = R"({"url":"u","body":"<p>x</p>"})";
  Json fits =
      Json::parse(VerdictMessage(Unique(), Input(small), SmallTopics(), "body", "body_base64").value);
  EXPECT_EQ(fits["body"], "<p>x</p>");
  EXPECT_FALSE(fits.contains("body_omitted_bytes"));
}

TEST(OutputMessagesTest, ARekeyedRecordTooLargeForItsTopicTravelsWithoutItsBody) {
  const std::string page(5000, 'x');
  const std::string event = R"({"url":"u","body":")" + page + R"("})";
  engine::PreparedRecord record;
  record.event_id = "e";
  record.scope = "example.com";
  record.fingerprints.emplace();
  OutputMessage m = RepartitionMessage(record, Input(event), "rekeyed", /*include_body=*/true,
                                       /*max_message_bytes=*/2000, "body", "body_base64");
  EXPECT_LE(m.value.size(), 2000u);
  StatusOr<engine::PreparedRecord> decoded = engine::DecodeRepartitionRecord(m.value);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  ASSERT_TRUE(decoded->forwarded.has_value());
  EXPECT_FALSE(decoded->forwarded->body_field.has_value());
  EXPECT_EQ(decoded->forwarded->body_omitted_bytes, static_cast<int64_t>(page.size() + 2));
  // The next stage's verdict says so, under any limit.
  Json j = Json::parse(VerdictMessage(engine::Verdict{*decoded, engine::Decision::Unique()},
                                      Input("{}"), Topics(true), "body", "body_base64")
                           .value);
  EXPECT_FALSE(j.contains("body"));
  EXPECT_EQ(j["body_omitted_bytes"], page.size() + 2);
}

TEST(OutputMessagesTest, ADeadLetterTooLargeForItsTopicIsCutToFitAndSaysItsSize) {
  const std::string value(5000, 'v');
  OutputMessage m = DeadLetterMessage(Input(value), Status::InvalidArgument("bad"), SmallTopics());
  EXPECT_LE(m.value.size(), 2000u);
  EXPECT_GT(m.value.size(), 1000u);
  EXPECT_EQ(m.value, value.substr(0, m.value.size()));
  EXPECT_EQ(m.headers.back(),
            (std::pair<std::string, std::string>(kValueTruncatedHeader, "5000")));
}

}  // namespace
}  // namespace pagesieve::kafka
