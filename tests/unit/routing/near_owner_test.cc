// A near owner as the home of its entries (docs/global-routing.md, "The
// home of a near entry"): the fetches of the content owners it answers.
#include "routing/near_owner.h"

#include <gtest/gtest.h>

#include "owner_fixture.h"

namespace pagesieve::routing {
namespace {

class NearOwnerTest : public testing::OwnerFixture {
 protected:
  // A SimHash whose home is `p` of `owners`.
  uint64_t HomedAt(const Ownership& owners, PartitionId p) const {
    uint64_t s = 0x9e37'79b9'7f4a'7c15;
    while (plan_->Home(owners, "", s) != p) s += 0x10'0000'0000'0001;
    return s;
  }
  static OrderKey Key(int64_t time_ms, int64_t offset) {
    return OrderKey{EventTime::FromMillis(time_ms), "pages", PartitionId(0), Offset(offset)};
  }
};

// The insert of the entry a fetch wants comes from another content owner
// than the fetch, and may come after it: the fetch waits for it, across a
// restart, and is then answered with the entry whole.
TEST_F(NearOwnerTest, AFetchWaitsForItsEntrysInsertAcrossARestart) {
  const Ownership owners = *Ownership::Create(2);
  const SourceId self{"near", PartitionId(0)};
  const uint64_t simhash = HomedAt(owners, self.partition);
  const store::Origin origin{"e-old", "https://b.example/old", EventTime::FromMillis(1'000),
                             PartitionId(0), Offset(3)};
  std::unique_ptr<store::Shard> shard = OpenShard("near");
  auto owner = std::make_unique<NearOwner>(self, *shard, owners, *plan_);
  owner->OnFetch(
      NearFetch{Key(5'000, 40), PartitionId(1), "", {{simhash, store::PositionOf(origin)}}});
  Outbox out;
  ASSERT_TRUE(owner->Step(&out).ok());
  EXPECT_TRUE(out.fetch_replies.empty()) << "answered before the entry was inserted";
  EXPECT_EQ(owner->fetches_waiting(), 1u);
  EXPECT_LE(owner->ExpiryHold(), EventTime::FromMillis(5'000));
  EXPECT_FALSE(owner->Finished());

  ASSERT_TRUE(shard->Checkpoint(Offset(1)).ok());
  owner.reset();
  shard.reset();
  shard = OpenShard("near");
  owner = std::make_unique<NearOwner>(self, *shard, owners, *plan_);
  ASSERT_TRUE(owner->Restore().ok());
  EXPECT_EQ(owner->fetches_waiting(), 1u);

  NearOutcome insert;
  insert.key = Key(1'000, 3);
  insert.insert = true;
  insert.simhash = simhash;
  insert.origin = origin;
  ASSERT_TRUE(owner->OnOutcome(insert).ok());
  Outbox replied;
  ASSERT_TRUE(owner->Step(&replied).ok());
  ASSERT_EQ(replied.fetch_replies.size(), 1u);
  EXPECT_EQ(replied.fetch_replies[0].first, PartitionId(1));
  const NearFetchReply& reply = replied.fetch_replies[0].second;
  EXPECT_EQ(reply.key, Key(5'000, 40));
  EXPECT_EQ(reply.from, self.partition);
  ASSERT_EQ(reply.entries.size(), 1u);
  EXPECT_EQ(reply.entries[0].simhash, simhash);
  EXPECT_EQ(reply.entries[0].origin, origin);
  EXPECT_EQ(owner->fetches_waiting(), 0u);
  Outbox after;
  ASSERT_TRUE(owner->Step(&after).ok());
  EXPECT_TRUE(after.fetch_replies.empty()) << "replied twice";
}

// Only an entry's home answers with it whole; another owner leaves out what
// the home keeps (origin id and URL, sketch), and keeps no incarnation.
TEST_F(NearOwnerTest, OnlyTheHomeAnswersWithAnEntryWhole) {
  const Ownership owners = *Ownership::Create(2);
  for (int p = 0; p < 2; ++p) {
    SCOPED_TRACE("owner " + std::to_string(p));
    const SourceId self{"near", PartitionId(p)};
    std::unique_ptr<store::Shard> shard = OpenShard("near-" + std::to_string(p));
    NearOwner owner(self, *shard, owners, *plan_);
    owner.Expect(SourceId{"content", PartitionId(0)});
    const uint64_t simhash = HomedAt(owners, PartitionId(0));
    const store::Origin origin{"e-old", "https://b.example/old", EventTime::FromMillis(1'000),
                               PartitionId(0), Offset(3)};
    NearOutcome insert;
    insert.key = Key(1'000, 3);
    insert.insert = true;
    insert.simhash = simhash;
    insert.origin = origin;
    ASSERT_TRUE(owner.OnOutcome(insert).ok());
    // A record one bit away probes every table key (the rows are all here:
    // the outcome came without a probe).
    NearProbeRequest probe;
    probe.key = Key(2'000, 4);
    probe.reply_to = PartitionId(0);
    probe.simhash = simhash ^ 1;
    probe.event_time = probe.key.time;
    probe.input_partition = PartitionId(-1);
    for (const NearProbe& np : plan_->Probes(owners, "", probe.simhash, "")) {
      probe.keys.insert(probe.keys.end(), np.keys.begin(), np.keys.end());
    }
    owner.OnProbe(probe);
    const OrderKey after = Key(3'000, 5);
    owner.OnProgress(Progress{SourceId{"content", PartitionId(0)}, after, after});
    Outbox out;
    ASSERT_TRUE(owner.Step(&out).ok());
    ASSERT_EQ(out.answers.size(), 1u);
    ASSERT_EQ(out.answers[0].second.candidates.size(), 1u);
    const store::NearCandidate& c = out.answers[0].second.candidates[0];
    EXPECT_EQ(c.simhash, simhash);
    EXPECT_EQ(store::PositionOf(c.origin), store::PositionOf(origin));
    EXPECT_EQ(c.origin.url, p == 0 ? origin.url : "");
    EXPECT_EQ(c.origin.event_id, p == 0 ? origin.event_id : "");
  }
}

}  // namespace
}  // namespace pagesieve::routing
