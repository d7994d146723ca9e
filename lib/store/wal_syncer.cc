#include "store/wal_syncer.h"

#include <utility>

namespace pagesieve::store {

struct WalSyncer::Client::State {
  std::function<Status()> sync;
  std::mutex mutex;
  std::condition_variable changed;
  bool queued = false;   // in the syncer's queue
  bool running = false;  // its sync under way
  std::function<void()> then;
  Status error;
};

WalSyncer::WalSyncer() : thread_([this](std::stop_token stop) { Loop(stop); }) {}

WalSyncer::~WalSyncer() {
  thread_.request_stop();
  thread_.join();
}

void WalSyncer::Enqueue(std::shared_ptr<Client::State> state) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(state));
  }
  ready_.notify_one();
}

void WalSyncer::Loop(std::stop_token stop) {
  for (;;) {
    std::shared_ptr<Client::State> state;
    {
      std::unique_lock lock(mutex_);
      // Stopping only once the queue is empty: a client drains before it
      // goes, so what is queued is still waited for.
      ready_.wait(lock, stop, [&] { return !queue_.empty(); });
      if (queue_.empty()) return;
      state = std::move(queue_.front());
      queue_.pop_front();
    }
    RunOne(*state);
  }
}

void WalSyncer::RunOne(Client::State& state) {
  std::function<void()> then;
  Status earlier;
  {
    std::lock_guard lock(state.mutex);
    // A request from here on needs a sync of its own: its writes may come
    // after this one has started.
    state.queued = false;
    state.running = true;
    then = std::move(state.then);
    state.then = nullptr;
    earlier = state.error;
  }
  const Status s = earlier.ok() ? state.sync() : earlier;
  if (s.ok() && then) then();
  {
    std::lock_guard lock(state.mutex);
    state.running = false;
    if (!s.ok() && state.error.ok()) state.error = s;
  }
  state.changed.notify_all();
}

WalSyncer::Client::Client(std::shared_ptr<WalSyncer> syncer, std::function<Status()> sync)
    : syncer_(std::move(syncer)), state_(std::make_shared<State>()) {
  state_->sync = std::move(sync);
}

WalSyncer::Client::~Client() { Drain(); }

void WalSyncer::Client::Request(std::function<void()> then) {
  bool enqueue = false;
  {
    std::lock_guard lock(state_->mutex);
    state_->then = std::move(then);
    enqueue = !state_->queued;
    state_->queued = true;
  }
  if (enqueue) syncer_->Enqueue(state_);
}

void WalSyncer::Client::Drain() {
  std::unique_lock lock(state_->mutex);
  state_->changed.wait(lock, [&] { return !state_->queued && !state_->running; });
}

Status WalSyncer::Client::status() const {
  std::lock_guard lock(state_->mutex);
  return state_->error;
}

}  // namespace pagesieve::store
