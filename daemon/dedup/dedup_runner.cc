#include "dedup/dedup_runner.h"

#include <simdjson.h>

#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>

#include "dedup/jsonl_source.h"
#include "dedup/line_writer.h"
#include "engine/base64.h"
#include "engine/prepare_pool.h"
#include "engine/sieve.h"
#include "store/state_env.h"

namespace pagesieve::dedup {
namespace {

// Batches come back from the workers in any order; decisions take them in
// submission order.
class InOrder {
 public:
  void Put(uint64_t seq, std::unique_ptr<engine::PrepareBatch> batch) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      ready_[seq] = std::move(batch);
    }
    cv_.notify_one();
  }
  std::unique_ptr<engine::PrepareBatch> Take(uint64_t seq) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return ready_.count(seq) > 0; });
    auto batch = std::move(ready_[seq]);
    ready_.erase(seq);
    return batch;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<uint64_t, std::unique_ptr<engine::PrepareBatch>> ready_;  // guarded by mu_
};

std::string DeadLetterJson(const std::string& file, int64_t line, const Status& error,
                           std::string_view original) {
  nlohmann::ordered_json j;
  j["file"] = file;
  j["line"] = line;
  j["error"] = error.message();
  if (simdjson::validate_utf8(original.data(), original.size())) {
    j["record"] = std::string(original);
  } else {
    j["record_base64"] = engine::EncodeBase64(original);
  }
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

// A directory that exists for the run and is removed afterwards.
class ScratchDir {
 public:
  StatusOr<std::string> Create() {
    std::string pattern = (std::filesystem::temp_directory_path() / "pagesieve-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      return Status::IoError("cannot create a temporary state directory");
    }
    path_ = pattern;
    return path_;
  }
  ~ScratchDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }

 private:
  std::string path_;
};

}  // namespace

StatusOr<engine::VerdictCounts> DedupRunner::Run() {
  ScratchDir scratch;
  if (run_.state_dir) {
    state_.dir = *run_.state_dir;
  } else {
    PS_ASSIGN_OR_RETURN(state_.dir, scratch.Create());
  }
  std::error_code ec;
  std::filesystem::create_directories(state_.dir, ec);
  PS_ASSIGN_OR_RETURN(auto env, store::StateEnv::Create(state_));
  StatusOr<std::unique_ptr<store::Shard>> opened =
      env->OpenShardAt((std::filesystem::path(state_.dir) / "dedup").string(), sieve_.shard);
  if (!opened.ok()) return opened.status().WithContext("state " + state_.dir);
  std::unique_ptr<store::Shard> shard = std::move(opened).value();

  LineWriter verdicts, dead_letters;
  PS_RETURN_IF_ERROR(verdicts.Open(run_.output));
  if (run_.dead_letters) PS_RETURN_IF_ERROR(dead_letters.Open(*run_.dead_letters));

  JsonlSource source(run_.inputs);
  engine::Sieve sieve(sieve_);
  // Declared before the pool: on an early return the pool's destructor
  // drains queued batches into it.
  InOrder in_order;
  engine::PreparePool pool(sieve_, clock_, run_.threads);
  // Enough batches in flight to keep every worker busy while this thread
  // decides; bounded, so memory is too.
  const uint64_t max_in_flight = 2 * static_cast<uint64_t>(pool.threads()) + 1;
  uint64_t submitted = 0, decided = 0;
  bool input_done = false;

  engine::VerdictCounts counts;
  int64_t since_checkpoint = 0;
  const auto start = clock_.SteadyNow();
  auto last_progress = start;

  for (;;) {
    while (!input_done && submitted - decided < max_in_flight) {
      PS_ASSIGN_OR_RETURN(auto batch, source.Next(run_.batch_records));
      if (batch->size() == 0) {
        input_done = true;
        break;
      }
      const uint64_t seq = submitted++;
      pool.Submit(std::move(batch), [&in_order, seq](std::unique_ptr<engine::PrepareBatch> b) {
        in_order.Put(seq, std::move(b));
      });
    }
    if (decided == submitted) break;

    std::unique_ptr<engine::PrepareBatch> batch = in_order.Take(decided++);
    for (size_t i = 0; i < batch->size(); ++i) {
      const engine::InputRecord& record = batch->records[i];
      StatusOr<engine::PreparedRecord>& prepared = batch->results[i];
      if (!prepared.ok()) {
        counts.AddDeadLetter();
        const std::string& file = source.file_name(record.partition);
        const int64_t line = record.offset.value() + 1;
        if (run_.dead_letters) {
          dead_letters.Write(DeadLetterJson(file, line, prepared.status(), record.value));
        } else {
          std::fprintf(stderr, "pagesieve: dead letter %s:%lld: %s\n", file.c_str(),
                       static_cast<long long>(line), prepared.status().message().c_str());
        }
        continue;
      }
      PS_ASSIGN_OR_RETURN(engine::Verdict verdict,
                          sieve.Decide(std::move(prepared).value(), *shard));
      counts.Add(verdict);
      verdicts.Write(engine::EncodeVerdictJson(verdict));
    }
    since_checkpoint += static_cast<int64_t>(batch->size());
    if (since_checkpoint >= run_.checkpoint_every) {
      PS_RETURN_IF_ERROR(verdicts.Flush());
      PS_RETURN_IF_ERROR(shard->Checkpoint(Offset(counts.records)));
      since_checkpoint = 0;
    }
    const auto now = clock_.SteadyNow();
    if (run_.progress && now - last_progress >= std::chrono::seconds(5)) {
      const double secs = std::chrono::duration<double>(now - start).count();
      std::fprintf(stderr, "dedup: %lld records, %.0f/s: %s\n",
                   static_cast<long long>(counts.records), counts.records / secs,
                   counts.Summary().c_str());
      last_progress = now;
    }
  }
  PS_RETURN_IF_ERROR(verdicts.Close());
  PS_RETURN_IF_ERROR(dead_letters.Close());
  PS_RETURN_IF_ERROR(shard->Checkpoint(Offset(counts.records)));
  return counts;
}

}  // namespace pagesieve::dedup
