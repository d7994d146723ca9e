#include "store/wal_syncer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace pagesieve::store {
namespace {

using std::chrono::milliseconds;

// A sync that blocks until the test opens it, and counts and announces
// each start.
class GatedSync {
 public:
  Status Run() {
    std::unique_lock lock(mutex_);
    ++started_;
    changed_.notify_all();
    changed_.wait(lock, [&] { return open_; });
    return result_;
  }
  void Open() {
    std::lock_guard lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }
  void Fail(Status s) {
    std::lock_guard lock(mutex_);
    result_ = std::move(s);
  }
  // Waits until `n` syncs have started.
  void WaitForStarts(int n) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return started_ >= n; });
  }
  int started() {
    std::lock_guard lock(mutex_);
    return started_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool open_ = false;
  int started_ = 0;
  Status result_;
};

TEST(WalSyncerTest, ARequestReturnsBeforeItsSyncAndWhatFollowsItRunsAfter) {
  auto syncer = std::make_shared<WalSyncer>();
  GatedSync sync;
  WalSyncer::Client client(syncer, [&] { return sync.Run(); });
  std::atomic<bool> published{false};
  client.Request([&] { published = true; });  // returns although the sync is held
  sync.WaitForStarts(1);
  EXPECT_FALSE(published.load());
  sync.Open();
  client.Drain();
  EXPECT_TRUE(published.load());
  EXPECT_EQ(sync.started(), 1);
  EXPECT_TRUE(client.status().ok());
}

// Checkpoints made while a sync runs need one more (their writes may come
// after it began), and those made meanwhile share it: the last one's
// watermark is what is published.
TEST(WalSyncerTest, RequestsMadeWhileASyncRunsShareTheNextOne) {
  auto syncer = std::make_shared<WalSyncer>();
  GatedSync sync;
  WalSyncer::Client client(syncer, [&] { return sync.Run(); });
  std::atomic<int> published{0};
  client.Request([&] { published = 1; });
  sync.WaitForStarts(1);
  client.Request([&] { published = 2; });
  client.Request([&] { published = 3; });
  sync.Open();
  client.Drain();
  EXPECT_EQ(sync.started(), 2);
  EXPECT_EQ(published.load(), 3);
}

TEST(WalSyncerTest, AFailedSyncStaysFailedAndWhatFollowsItNeverRuns) {
  auto syncer = std::make_shared<WalSyncer>();
  GatedSync sync;
  sync.Fail(Status::IoError("disk gone"));
  sync.Open();
  WalSyncer::Client client(syncer, [&] { return sync.Run(); });
  std::atomic<bool> published{false};
  client.Request([&] { published = true; });
  client.Drain();
  EXPECT_FALSE(published.load());
  EXPECT_EQ(client.status().code(), StatusCode::kIoError);
  EXPECT_NE(client.status().message().find("disk gone"), std::string::npos);
  // Nothing written after a failed sync is taken for durable.
  client.Request([&] { published = true; });
  client.Drain();
  EXPECT_FALSE(published.load());
  EXPECT_EQ(sync.started(), 1);
}

// A shard going away waits for its sync: the sync uses its database.
TEST(WalSyncerTest, AClientGoingAwayWaitsForItsSync) {
  auto syncer = std::make_shared<WalSyncer>();
  GatedSync sync;
  auto client = std::make_unique<WalSyncer::Client>(syncer, [&] { return sync.Run(); });
  client->Request(nullptr);
  sync.WaitForStarts(1);
  std::atomic<bool> gone{false};
  std::thread closer([&] {
    client.reset();
    gone = true;
  });
  std::this_thread::sleep_for(milliseconds(50));
  EXPECT_FALSE(gone.load());
  sync.Open();
  closer.join();
  EXPECT_TRUE(gone.load());
}

// Two shards share the thread; one's held sync delays the other's, never
// loses it.
TEST(WalSyncerTest, ClientsShareTheThreadInTurn) {
  auto syncer = std::make_shared<WalSyncer>();
  GatedSync first, second;
  second.Open();
  WalSyncer::Client a(syncer, [&] { return first.Run(); });
  WalSyncer::Client b(syncer, [&] { return second.Run(); });
  std::atomic<bool> b_published{false};
  a.Request(nullptr);
  first.WaitForStarts(1);
  b.Request([&] { b_published = true; });
  std::this_thread::sleep_for(milliseconds(20));
  EXPECT_FALSE(b_published.load());
  first.Open();
  b.Drain();
  EXPECT_TRUE(b_published.load());
}

}  // namespace
}  // namespace pagesieve::store
