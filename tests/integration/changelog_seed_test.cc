// Seeding the changelog from state already on disk (docs/changelog.md,
// "Seeding"): shards kept with the changelog off, or ahead of a changelog
// they did not write, must still follow their partitions whole. The
// verdicts are checked where it shows: on a fresh disk, after the move.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "daemon_fixture.h"

namespace pagesieve::testing {
namespace {

using ::testing::HasSubstr;

constexpr const char* kChangelogOff = "[changelog]\nenabled = false\n";

std::vector<TestMessage> Slice(const std::vector<TestMessage>& all, size_t from, size_t to) {
  return std::vector<TestMessage>(all.begin() + from, all.begin() + to);
}

class ChangelogSeedTest : public DaemonTest {
 protected:
  // Produces stream[from, to) and runs an instance of `config` until every
  // verdict of stream[0, to) is published; returns its log.
  std::string RunOver(const std::vector<TestMessage>& stream, size_t from, size_t to,
                      const std::string& config, const std::string& name) {
    EXPECT_TRUE(Produce(input_, Slice(stream, from, to)).ok());
    DaemonProcess run(config, dir_.File(name + ".log"));
    run.Start();
    published_ = ReadPublished(to);
    EXPECT_EQ(run.Terminate(), 0) << run.Log();
    return run.Log();
  }

  // A third of the stream with the changelog off, a third with it on, on
  // the same disk; the last third on an empty one, whose shards come from
  // the changelog alone.
  void TurnOnThenMove(const std::string& guarantee) {
    std::vector<TestMessage> stream = LabelledStream({.seed = 31, .articles = 20, .sites = 40});
    const size_t third = stream.size() / 3;
    const std::string group = "group-" + input_;
    const std::string processing = "[processing]\nguarantee = \"" + guarantee + "\"\n";
    const std::string off =
        WriteConfig("off", group, dir_.File("state-one"), processing + kChangelogOff);
    const std::string on = WriteConfig("on", group, dir_.File("state-one"), processing);
    const std::string fresh = WriteConfig("fresh", group, dir_.File("state-two"), processing);

    RunOver(stream, 0, third, off, "off");
    const std::string on_log = RunOver(stream, third, 2 * third, on, "on");
    EXPECT_THAT(on_log, HasSubstr("shipping it whole, once"));
    const std::string fresh_log = RunOver(stream, 2 * third, stream.size(), fresh, "fresh");
    EXPECT_THAT(fresh_log, HasSubstr("restored shard"));
    ExpectPublishedEquals(published_, ExpectVerdicts(on));
  }

  Published published_;
};

TEST_F(ChangelogSeedTest, AShardKeptWithTheChangelogOffMovesWithItsWholeHistory) {
  TurnOnThenMove("exactly_once");
}

TEST_F(ChangelogSeedTest, AShardKeptWithTheChangelogOffMovesWithItsWholeHistoryAtLeastOnce) {
  TurnOnThenMove("at_least_once");
}

// The reverse: the changelog holds the first sixth, the shards went on to
// the half with the changelog off. Turned on again they are ahead of it:
// they are kept (not reset to the changelog's older state) and shipped
// whole, and a fresh disk gets all of it.
TEST_F(ChangelogSeedTest, ALocalShardAheadOfTheChangelogIsKeptAndShippedWhole) {
  std::vector<TestMessage> stream = LabelledStream({.seed = 31, .articles = 20, .sites = 40});
  const size_t sixth = stream.size() / 6;
  const std::string group = "group-" + input_;
  const std::string on = WriteConfig("on", group, dir_.File("state-one"));
  const std::string off = WriteConfig("off", group, dir_.File("state-one"), kChangelogOff);
  const std::string fresh = WriteConfig("fresh", group, dir_.File("state-two"));

  RunOver(stream, 0, sixth, on, "on-1");
  RunOver(stream, sixth, 3 * sixth, off, "off");
  const std::string again = RunOver(stream, 3 * sixth, 4 * sixth, on, "on-2");
  EXPECT_THAT(again, HasSubstr("keeping the local state"));
  EXPECT_THAT(again, HasSubstr("shipping it whole, once"));
  EXPECT_THAT(again, ::testing::Not(HasSubstr("restoring it anew")));
  RunOver(stream, 4 * sixth, stream.size(), fresh, "fresh");
  ExpectPublishedEquals(published_, ExpectVerdicts(on));
}

}  // namespace
}  // namespace pagesieve::testing
