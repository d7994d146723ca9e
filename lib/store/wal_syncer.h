#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "common/status.h"

namespace pagesieve::store {

// Syncs shards' write-ahead logs on one background thread, for a process
// whose checkpoints follow a commit that already made their progress
// durable elsewhere (exactly once: the Kafka transaction commits first, and
// a shard found behind it is caught up from the changelog without publishing
// again). The run loop then no longer waits for an fsync while no lane
// decides: on the development machine's ext4 one took up to 149 ms while the
// kernel wrote back the broker's pages, and a commit ran one per shard, one
// after the other. A power loss may now take a shard back one checkpoint
// more, which is what that catch-up is for. Thread-safe.
class WalSyncer {
 public:
  WalSyncer();
  // Waits for the syncs already requested. Every Client must be gone.
  ~WalSyncer();
  WalSyncer(const WalSyncer&) = delete;
  WalSyncer& operator=(const WalSyncer&) = delete;

  // One shard's syncs, run one at a time and in order. A request made while
  // an earlier one still waits for the thread joins it: one fsync covers
  // everything written before it starts.
  class Client {
   public:
    // `sync` forces everything written so far to disk; it runs on the
    // syncer's thread while the shard goes on writing.
    Client(std::shared_ptr<WalSyncer> syncer, std::function<Status()> sync);
    // Drains first: `sync` may use what the shard is about to destroy.
    ~Client();
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    // Asks for a sync of everything written so far. `then` runs on the
    // syncer's thread once that sync succeeded (a later request's `then`
    // replaces it if both are covered by the same sync).
    void Request(std::function<void()> then);
    // Waits until no sync of this client is waiting or running.
    void Drain();
    // The first failed sync's error: the shard's checkpoints are no longer
    // made durable, and it must stop.
    Status status() const;

   private:
    friend class WalSyncer;
    struct State;
    std::shared_ptr<WalSyncer> syncer_;
    std::shared_ptr<State> state_;
  };

 private:
  void Enqueue(std::shared_ptr<Client::State> state);
  void Loop(std::stop_token stop);
  static void RunOne(Client::State& state);

  std::mutex mutex_;
  std::condition_variable_any ready_;
  std::deque<std::shared_ptr<Client::State>> queue_;
  std::jthread thread_;  // last: started after the members it uses exist
};

}  // namespace pagesieve::store
