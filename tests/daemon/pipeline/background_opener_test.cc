// BackgroundOpener: shards open on its workers, each reported once; an open
// no longer wanted is stopped or dropped, and its shard closed (its RocksDB
// lock released) before the partition counts as free again.
#include "pipeline/background_opener.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

#include "pipeline_test_env.h"
#include "wait_until.h"

namespace pagesieve::pipeline::testing {
namespace {

using pagesieve::testing::WaitUntil;
using std::chrono::milliseconds;

constexpr milliseconds kTimeout(10'000);

// Opens run until the test lets them go (or their stop is requested), so
// that a test can act while one is under way.
class Gate {
 public:
  void Open() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      open_ = true;
    }
    cv_.notify_all();
  }
  // Whether it was opened (false: the stop was requested first).
  bool Pass(const std::stop_token& stop) {
    std::unique_lock<std::mutex> lock(mu_);
    ++waiting_;
    return cv_.wait(lock, stop, [this] { return open_; });
  }
  int waiting() {
    std::lock_guard<std::mutex> lock(mu_);
    return waiting_;
  }

 private:
  std::mutex mu_;
  std::condition_variable_any cv_;
  bool open_ = false;
  int waiting_ = 0;  // guarded by mu_
};

class BackgroundOpenerTest : public PipelineTestBase {
 protected:
  // Waits for `n` results, however many calls that takes.
  std::vector<BackgroundOpener::Finished> TakeFinished(BackgroundOpener& opener, size_t n) {
    std::vector<BackgroundOpener::Finished> all;
    const auto deadline = std::chrono::steady_clock::now() + kTimeout;
    while (all.size() < n && std::chrono::steady_clock::now() < deadline) {
      opener.WaitForFinished(milliseconds(50));
      for (BackgroundOpener::Finished& f : opener.TakeFinished()) all.push_back(std::move(f));
    }
    return all;
  }
};

TEST_F(BackgroundOpenerTest, OpensOnItsWorkersAndReportsEachShardOnce) {
  std::mutex mu;
  std::set<std::thread::id> threads;
  BackgroundOpener opener(
      [&](PartitionId p, std::stop_token) {
        {
          std::lock_guard<std::mutex> lock(mu);
          threads.insert(std::this_thread::get_id());
        }
        return OpenShard(p);
      },
      2);
  opener.Begin(PartitionId(0));
  opener.Begin(PartitionId(1));
  EXPECT_TRUE(opener.busy());
  std::vector<BackgroundOpener::Finished> done = TakeFinished(opener, 2);
  ASSERT_EQ(done.size(), 2u);
  std::set<PartitionId> partitions;
  for (BackgroundOpener::Finished& f : done) {
    ASSERT_TRUE(f.shard.ok()) << f.shard.status().ToString();
    EXPECT_NE(*f.shard, nullptr);
    partitions.insert(f.partition);
  }
  EXPECT_EQ(partitions, (std::set<PartitionId>{PartitionId(0), PartitionId(1)}));
  EXPECT_EQ(threads.count(std::this_thread::get_id()), 0u);
  EXPECT_FALSE(opener.busy());
  EXPECT_FALSE(opener.Holds(PartitionId(0)));
  EXPECT_TRUE(opener.TakeFinished().empty());
}

TEST_F(BackgroundOpenerTest, AFailedOpenIsReportedWithItsPartitionAndReason) {
  BackgroundOpener opener(
      [](PartitionId, std::stop_token) -> StatusOr<std::unique_ptr<store::Shard>> {
        return Status::FailedPrecondition("shard pages-4 is held elsewhere");
      },
      1);
  opener.Begin(PartitionId(4));
  std::vector<BackgroundOpener::Finished> done = TakeFinished(opener, 1);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].partition, PartitionId(4));
  EXPECT_EQ(done[0].shard.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_FALSE(opener.busy());
}

TEST_F(BackgroundOpenerTest, ACancelledOpenUnderWayIsStoppedAndItsShardClosedBeforeItIsLetGo) {
  Gate gate;  // never opened: only the stop lets the open end
  std::atomic<bool> stopped{false};
  BackgroundOpener opener(
      [&](PartitionId p, std::stop_token stop) {
        StatusOr<std::unique_ptr<store::Shard>> shard = OpenShard(p);
        stopped = !gate.Pass(stop);
        return shard;  // produced all the same, as a rebuild nearly done would
      },
      1);
  opener.Begin(PartitionId(2));
  ASSERT_TRUE(WaitUntil([&] { return gate.waiting() == 1; }, kTimeout));
  opener.Cancel(PartitionId(2));
  EXPECT_FALSE(opener.opening(PartitionId(2)));
  EXPECT_FALSE(opener.busy());
  ASSERT_TRUE(WaitUntil([&] { return !opener.Holds(PartitionId(2)); }, kTimeout));
  EXPECT_TRUE(stopped);
  EXPECT_TRUE(opener.TakeFinished().empty());
  // Its lock is released: the partition's shard opens again.
  StatusOr<std::unique_ptr<store::Shard>> again = OpenShard(PartitionId(2));
  EXPECT_TRUE(again.ok()) << again.status().ToString();
}

TEST_F(BackgroundOpenerTest, ACancelledQueuedOpenNeverRuns) {
  Gate gate;
  std::mutex mu;
  std::vector<PartitionId> opened;
  BackgroundOpener opener(
      [&](PartitionId p, std::stop_token stop) {
        {
          std::lock_guard<std::mutex> lock(mu);
          opened.push_back(p);
        }
        gate.Pass(stop);
        return OpenShard(p);
      },
      1);
  opener.Begin(PartitionId(0));
  ASSERT_TRUE(WaitUntil([&] { return gate.waiting() == 1; }, kTimeout));
  opener.Begin(PartitionId(1));  // queued behind the one worker
  opener.Cancel(PartitionId(1));
  EXPECT_FALSE(opener.Holds(PartitionId(1)));
  gate.Open();
  std::vector<BackgroundOpener::Finished> done = TakeFinished(opener, 1);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].partition, PartitionId(0));
  std::lock_guard<std::mutex> lock(mu);
  EXPECT_EQ(opened, std::vector<PartitionId>{PartitionId(0)});
}

TEST_F(BackgroundOpenerTest, AFinishedOpenNotTakenYetIsClosedByItsCancel) {
  BackgroundOpener opener([&](PartitionId p, std::stop_token) { return OpenShard(p); }, 1);
  opener.Begin(PartitionId(3));
  opener.WaitForFinished(kTimeout);
  ASSERT_TRUE(opener.opening(PartitionId(3)));
  opener.Cancel(PartitionId(3));
  EXPECT_FALSE(opener.Holds(PartitionId(3)));
  EXPECT_TRUE(opener.TakeFinished().empty());
  StatusOr<std::unique_ptr<store::Shard>> again = OpenShard(PartitionId(3));
  EXPECT_TRUE(again.ok()) << again.status().ToString();
}

TEST_F(BackgroundOpenerTest, ThePartitionOfACancelledOpenCanBeOpenedAgainOnceLetGo) {
  Gate first_time;
  std::atomic<int> calls{0};
  BackgroundOpener opener(
      [&](PartitionId p, std::stop_token stop) {
        if (calls++ == 0) first_time.Pass(stop);
        return OpenShard(p);
      },
      1);
  opener.Begin(PartitionId(1));
  ASSERT_TRUE(WaitUntil([&] { return first_time.waiting() == 1; }, kTimeout));
  opener.Cancel(PartitionId(1));  // revoked...
  ASSERT_TRUE(WaitUntil([&] { return !opener.Holds(PartitionId(1)); }, kTimeout));
  opener.Begin(PartitionId(1));  // ...and assigned again
  std::vector<BackgroundOpener::Finished> done = TakeFinished(opener, 1);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_TRUE(done[0].shard.ok()) << done[0].shard.status().ToString();
}

// The end of a changelog restore rides on the open: its flush must not run
// on the thread that polls the group either, and the shard it holds must be
// closed before the open takes its lock.
TEST_F(BackgroundOpenerTest, APrologueRunsOnTheWorkerAndReleasesItsShardBeforeTheOpen) {
  std::atomic<bool> prologue_done{false};
  std::thread::id prologue_thread;
  BackgroundOpener opener(
      [&](PartitionId p, std::stop_token) -> StatusOr<std::unique_ptr<store::Shard>> {
        if (!prologue_done) return Status::Internal("opened before its prologue ended");
        return OpenShard(p);  // fails while the prologue's shard holds the lock
      },
      1);
  StatusOr<std::unique_ptr<store::Shard>> held = OpenShard(PartitionId(5));
  ASSERT_TRUE(held.ok()) << held.status().ToString();
  std::shared_ptr<store::Shard> restoring = std::move(*held);
  // Moved in: the prologue holds the only reference, or the open could
  // find the shard still held here.
  opener.Begin(PartitionId(5), [&, restoring = std::move(restoring)]() mutable -> Status {
    prologue_thread = std::this_thread::get_id();
    restoring.reset();
    prologue_done = true;
    return Status::Ok();
  });
  std::vector<BackgroundOpener::Finished> done = TakeFinished(opener, 1);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_TRUE(done[0].shard.ok()) << done[0].shard.status().ToString();
  EXPECT_NE(prologue_thread, std::this_thread::get_id());
}

TEST_F(BackgroundOpenerTest, AFailedPrologueIsTheResultAndNothingOpens) {
  std::atomic<int> opens{0};
  BackgroundOpener opener(
      [&](PartitionId p, std::stop_token) {
        ++opens;
        return OpenShard(p);
      },
      1);
  opener.Begin(PartitionId(6), [] { return Status::IoError("restore flush: disk full"); });
  std::vector<BackgroundOpener::Finished> done = TakeFinished(opener, 1);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].partition, PartitionId(6));
  EXPECT_EQ(done[0].shard.status().code(), StatusCode::kIoError);
  EXPECT_EQ(opens, 0);
}

TEST_F(BackgroundOpenerTest, ACancelledQueuedOpenDropsItsPrologueUnrunAndWithItItsShard) {
  Gate gate;
  BackgroundOpener opener(
      [&](PartitionId p, std::stop_token stop) {
        gate.Pass(stop);
        return OpenShard(p);
      },
      1);
  opener.Begin(PartitionId(0));
  ASSERT_TRUE(WaitUntil([&] { return gate.waiting() == 1; }, kTimeout));
  StatusOr<std::unique_ptr<store::Shard>> held = OpenShard(PartitionId(7));
  ASSERT_TRUE(held.ok()) << held.status().ToString();
  std::shared_ptr<store::Shard> restoring = std::move(*held);
  std::atomic<bool> ran{false};
  opener.Begin(PartitionId(7), [&ran, restoring = std::move(restoring)]() {
    ran = true;
    return Status::Ok();
  });
  opener.Cancel(PartitionId(7));  // revoked while queued behind the one worker
  EXPECT_FALSE(opener.Holds(PartitionId(7)));
  StatusOr<std::unique_ptr<store::Shard>> again = OpenShard(PartitionId(7));
  EXPECT_TRUE(again.ok()) << again.status().ToString();
  gate.Open();
  EXPECT_EQ(TakeFinished(opener, 1).size(), 1u);
  EXPECT_FALSE(ran);
}

TEST_F(BackgroundOpenerTest, DestroyingItStopsTheOpensUnderWay) {
  Gate gate;  // never opened
  std::atomic<bool> stopped{false};
  {
    BackgroundOpener opener(
        [&](PartitionId p, std::stop_token stop) {
          stopped = !gate.Pass(stop);
          return OpenShard(p);
        },
        2);
    opener.Begin(PartitionId(0));
    opener.Begin(PartitionId(1));
    ASSERT_TRUE(WaitUntil([&] { return gate.waiting() == 2; }, kTimeout));
  }  // returns: without the stop it would wait for the gate forever
  EXPECT_TRUE(stopped);
}

}  // namespace
}  // namespace pagesieve::pipeline::testing
