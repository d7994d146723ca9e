#include "run/stage_chain.h"

#include <pthread.h>

#include <chrono>
#include <string>
#include <thread>

namespace pagesieve::run {
namespace {

// Threads take their creator's name: the stage's loop and the threads its
// start creates (the prepare pool, the shard openers) carry "ps-<stage>",
// so top, perf and /proc/<pid>/task tell the stages apart. (librdkafka
// and RocksDB name theirs.)
void NameThisThread(const std::string& name) {
  pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());
}

}  // namespace

const std::atomic<bool>& StageChain::NextStopFlag() {
  links_.push_back(std::make_unique<Link>());
  return links_.back()->stop;
}

void StageChain::Add(std::unique_ptr<KafkaStage> stage, const char* name) {
  links_.back()->stage = std::move(stage);
  links_.back()->name = name;
}

StatusOr<std::vector<StatusOr<RunSummary>>> StageChain::Run() {
  char own_name[16] = {};
  pthread_getname_np(pthread_self(), own_name, sizeof(own_name));
  for (const auto& link : links_) {
    NameThisThread(std::string("ps-") + link->name);
    const Status started = link->stage->Start();
    NameThisThread(own_name);
    PS_RETURN_IF_ERROR(started.WithContext(std::string(link->name) + " stage"));
  }
  std::vector<std::thread> threads;
  for (const auto& link : links_) {
    threads.emplace_back([l = link.get()] {
      NameThisThread(std::string("ps-") + l->name);
      l->result = l->stage->Run();
      l->finished.store(true);
    });
  }
  auto stop_all = [&] {
    for (const auto& l : links_) l->stop.store(true);
  };
  std::vector<bool> seen(links_.size(), false);
  for (bool all = false; !all;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (stop_requested_.load()) stop_all();
    all = true;
    for (size_t i = 0; i < links_.size(); ++i) {
      Link& l = *links_[i];
      if (!l.finished.load()) {
        all = false;
        continue;
      }
      if (seen[i]) continue;
      seen[i] = true;
      if (l.result.ok() && l.result->backfill_complete) {
        l.done.store(true);  // the next stage may finish now
      } else {
        stop_all();  // failed, or stopped by a signal
      }
      // The last stage done: whatever else still runs has nothing to do.
      if (i + 1 == links_.size()) stop_all();
    }
  }
  for (std::thread& t : threads) t.join();
  std::vector<StatusOr<RunSummary>> results;
  for (const auto& l : links_) results.push_back(std::move(l->result));
  return results;
}

}  // namespace pagesieve::run
