#include "routing/content_owner.h"

#include <gtest/gtest.h>

#include "owner_fixture.h"

namespace pagesieve::routing {
namespace {

class ContentOwnerTest : public testing::OwnerFixture {
 protected:
  std::string ConfigToml() const override {
    return "[scope]\nkey = \"global\"\n[exact]\nttl = \"60s\"\n";
  }

  RoutedRecord Page(int64_t offset, uint8_t digest, std::optional<uint64_t> simhash,
                    int64_t time_ms = -1) {
    RoutedRecord r;
    r.key = OrderKey{EventTime::FromMillis(time_ms >= 0 ? time_ms : 1'000 + offset), "pages",
                     PartitionId(0), Offset(offset)};
    r.record.event_id = "e" + std::to_string(offset);
    r.record.url = "https://a.example/" + std::to_string(offset);
    r.record.canonical_url = r.record.url;
    r.record.scope = "";
    r.record.event_time = r.key.time;
    r.record.partition = PartitionId(0);
    r.record.offset = Offset(offset);
    engine::Fingerprints fp;
    fp.url.bytes[0] = static_cast<uint8_t>(offset);
    fp.content.bytes[0] = digest;
    fp.simhash = simhash;  // none: a page too short for one
    r.record.fingerprints = fp;
    return r;
  }
};

// Two records with one digest: the second waits at the content owner for
// the first instead of probing the near owners too, and is then an exact
// duplicate without a probe of its own.
TEST_F(ContentOwnerTest, ARecordWaitsForAnEarlierOneWithItsDigestInsteadOfProbing) {
  const Ownership owners = *Ownership::Create(4);
  std::unique_ptr<store::Shard> shard = OpenShard("content");
  ContentOwner owner(SourceId{"content", PartitionId(0)}, *decider_, *shard, owners, *plan_);
  owner.OnRecord(Page(0, 7, 0x1234));
  owner.OnRecord(Page(1, 7, 0x1234));
  owner.OnProgress(Progress{SourceId{"url", PartitionId(0)},
                            OrderKey{EventTime::FromMillis(10'000), "pages", PartitionId(0), Offset(9)}});
  Outbox out;
  ASSERT_TRUE(owner.Step(&out).ok());
  ASSERT_FALSE(out.probes.empty());
  for (const auto& [to, probe] : out.probes) EXPECT_EQ(probe.key.offset, Offset(0));
  EXPECT_TRUE(out.verdicts.empty());
  EXPECT_EQ(owner.gathering(), 1u);
  // The promise stays below the waiting record: it has sent no probe yet.
  ASSERT_EQ(out.progress.size(), 1u);
  EXPECT_EQ(out.progress[0].promise.offset, Offset(1));

  // Every near owner answers: nothing near. The first is unique, and the
  // second, released, is its exact duplicate at once.
  std::vector<PartitionId> probed;
  for (const auto& [to, probe] : out.probes) probed.push_back(to);
  Outbox after;
  for (PartitionId p : probed) {
    ASSERT_TRUE(owner.OnAnswer(NearAnswer{out.probes[0].second.key, p, {}}, &after).ok());
  }
  ASSERT_TRUE(owner.Step(&after).ok());
  ASSERT_EQ(after.verdicts.size(), 2u);
  EXPECT_EQ(after.verdicts[0].decision.kind, engine::VerdictKind::kUnique);
  EXPECT_EQ(after.verdicts[1].decision.tier, engine::Tier::kExact);
  EXPECT_TRUE(after.probes.empty());
  // The unique record's entries are inserted at every owner it probed.
  ASSERT_EQ(after.outcomes.size(), probed.size());
  for (const auto& [to, o] : after.outcomes) EXPECT_TRUE(o.insert);
}

TEST_F(ContentOwnerTest, AnswersAreCountedOncePerOwner) {
  const Ownership owners = *Ownership::Create(2);
  std::unique_ptr<store::Shard> shard = OpenShard("content");
  ContentOwner owner(SourceId{"content", PartitionId(0)}, *decider_, *shard, owners, *plan_);
  owner.OnRecord(Page(0, 1, 0xabcdef));
  owner.OnProgress(Progress{SourceId{"url", PartitionId(0)},
                            OrderKey{EventTime::FromMillis(10'000), "pages", PartitionId(0), Offset(9)}});
  Outbox out;
  ASSERT_TRUE(owner.Step(&out).ok());
  ASSERT_EQ(out.probes.size(), 2u) << "the default layout's keys fall on both partitions";
  Outbox after;
  const OrderKey key = out.probes[0].second.key;
  ASSERT_TRUE(owner.OnAnswer(NearAnswer{key, out.probes[0].first, {}}, &after).ok());
  ASSERT_TRUE(owner.OnAnswer(NearAnswer{key, out.probes[0].first, {}}, &after).ok());  // repeated
  EXPECT_TRUE(after.verdicts.empty());
  ASSERT_TRUE(owner.OnAnswer(NearAnswer{key, out.probes[1].first, {}}, &after).ok());
  EXPECT_EQ(after.verdicts.size(), 1u);
}

// The exact entry a record would match expires between the last record the
// owner saw and this one: the record must see it dead, as its decision
// will, and go to the near owners (deciding at once would run the near
// tier without their answers).
TEST_F(ContentOwnerTest, AnExactEntryIsJudgedAtTheRecordsOwnEventTime) {
  const Ownership owners = *Ownership::Create(2);
  std::unique_ptr<store::Shard> shard = OpenShard("content");
  ContentOwner owner(SourceId{"content", PartitionId(0)}, *decider_, *shard, owners, *plan_);
  owner.OnRecord(Page(0, 9, std::nullopt, 1'000));  // no SimHash: decided at once, inserted
  owner.OnRecord(Page(1, 9, 0x77, 1'000 + 61'000));  // 61 s later: past the 60 s TTL
  owner.OnProgress(Progress{SourceId{"url", PartitionId(0)},
                            OrderKey{EventTime::FromMillis(100'000), "pages", PartitionId(0), Offset(9)}});
  Outbox out;
  const Status s = owner.Step(&out);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(out.verdicts.size(), 1u);
  EXPECT_EQ(out.verdicts[0].decision.kind, engine::VerdictKind::kUnique);
  EXPECT_FALSE(out.probes.empty());
  for (const auto& [to, probe] : out.probes) EXPECT_EQ(probe.key.offset, Offset(1));
}

// A near owner that is not an entry's home answers with the entry in part
// (no origin URL or id, no sketch): the record fetches it from the home
// before it is decided, and a restart in between waits for the reply
// without fetching again.
TEST_F(ContentOwnerTest, ACandidateFoundAwayFromItsHomeIsFetchedFromItBeforeTheDecision) {
  const Ownership owners = *Ownership::Create(4);
  constexpr uint64_t kSimHash = 0x5a5a'1234'0f0f'7788;
  const uint64_t near = kSimHash ^ 1;
  const PartitionId home = plan_->Home(owners, "", near);
  store::NearCandidate whole;
  whole.simhash = near;
  whole.distance = 1;
  whole.in_tables = true;
  whole.origin = store::Origin{"e-old", "https://b.example/old", EventTime::FromMillis(500),
                               PartitionId(1), Offset(100)};
  whole.last_seen = EventTime::FromMillis(500);
  store::NearCandidate in_part = whole;
  in_part.origin.event_id.clear();
  in_part.origin.url.clear();

  std::unique_ptr<store::Shard> shard = OpenShard("content");
  auto owner = std::make_unique<ContentOwner>(SourceId{"content", PartitionId(0)}, *decider_,
                                              *shard, owners, *plan_);
  const Progress promise{
      SourceId{"url", PartitionId(0)},
      OrderKey{EventTime::FromMillis(10'000), "pages", PartitionId(0), Offset(9)}};
  owner->OnRecord(Page(0, 3, kSimHash));
  owner->OnProgress(promise);
  Outbox out;
  ASSERT_TRUE(owner->Step(&out).ok());
  ASSERT_FALSE(out.probes.empty());
  const OrderKey key = out.probes[0].second.key;
  std::optional<PartitionId> away;
  for (const auto& [to, probe] : out.probes) {
    if (to != home) away = to;
  }
  ASSERT_TRUE(away) << "every probe went to the candidate's home";
  Outbox answered;
  for (const auto& [to, probe] : out.probes) {
    NearAnswer a{key, to, {}};
    if (to == *away) a.candidates.push_back(in_part);
    ASSERT_TRUE(owner->OnAnswer(a, &answered).ok());
  }
  EXPECT_TRUE(answered.verdicts.empty()) << "decided on a candidate given in part";
  ASSERT_EQ(answered.fetches.size(), 1u);
  EXPECT_EQ(answered.fetches[0].first, home);
  const NearFetch& fetch = answered.fetches[0].second;
  EXPECT_EQ(fetch.key, key);
  EXPECT_EQ(fetch.reply_to, PartitionId(0));
  ASSERT_EQ(fetch.wanted.size(), 1u);
  EXPECT_EQ(fetch.wanted[0], (NearWanted{near, store::PositionOf(whole.origin)}));

  // A restart: the record waits for the reply, and sends nothing again.
  ASSERT_TRUE(shard->Checkpoint(Offset(1)).ok());
  owner.reset();
  shard.reset();
  shard = OpenShard("content");
  owner = std::make_unique<ContentOwner>(SourceId{"content", PartitionId(0)}, *decider_, *shard,
                                         owners, *plan_);
  owner->Expect(promise.from);
  ASSERT_TRUE(owner->Restore().ok());
  Outbox restored;
  ASSERT_TRUE(owner->Step(&restored).ok());
  EXPECT_TRUE(restored.fetches.empty() && restored.probes.empty() && restored.verdicts.empty());
  EXPECT_EQ(owner->gathering(), 1u);

  Outbox decided;
  ASSERT_TRUE(owner->OnFetchReply(NearFetchReply{key, home, {whole}}, &decided).ok());
  ASSERT_EQ(decided.verdicts.size(), 1u);
  const engine::Decision& d = decided.verdicts[0].decision;
  EXPECT_EQ(d.tier, engine::Tier::kNear);
  ASSERT_TRUE(d.duplicate_of);
  EXPECT_EQ(*d.duplicate_of, whole.origin);
  ASSERT_TRUE(owner->OnFetchReply(NearFetchReply{key, home, {whole}}, &decided).ok());  // repeated
  EXPECT_EQ(decided.verdicts.size(), 1u);
  EXPECT_EQ(owner->gathering(), 0u);
}

}  // namespace
}  // namespace pagesieve::routing
