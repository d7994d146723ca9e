#include "engine_harness.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

namespace pagesieve::engine::testing {

std::string EventJson(const EventSpec& e) {
  nlohmann::json j;
  j["url"] = e.url;
  j["fetched_at"] = e.time_ms;
  j["status"] = e.status;
  if (e.text) j["text"] = *e.text;
  if (e.body) {
    j["body"] = *e.body;
    j["content_type"] = "text/html; charset=utf-8";
  }
  if (!e.event_id.empty()) j["event_id"] = e.event_id;
  return j.dump();
}

std::string Prose(int seed, int words) {
  static const char* kVocabulary[] = {
      "river",      "council",   "budget",    "station",  "winter",  "harbour",    "museum",
      "festival",   "report",    "village",   "engineer", "market",  "school",     "bridge",
      "garden",     "railway",   "orchestra", "library",  "farmer",  "election",   "forest",
      "hospital",   "storm",     "theatre",   "island",   "factory", "teacher",    "mountain",
      "stadium",    "volunteer", "airport",   "archive",  "coast",   "parliament", "vineyard",
      "laboratory", "castle",    "tunnel",    "canal",    "bakery"};
  std::mt19937 rng(static_cast<uint32_t>(seed) * 7919u + 17u);
  std::ostringstream out;
  for (int i = 0; i < words; ++i) {
    if (i > 0) out << ' ';
    out << kVocabulary[rng() % std::size(kVocabulary)];
    if (i % 12 == 11) out << '.';
  }
  return out.str();
}

std::string ReplaceWord(const std::string& text, int index, const std::string& replacement) {
  std::istringstream in(text);
  std::ostringstream out;
  std::string word;
  for (int i = 0; in >> word; ++i) {
    if (i > 0) out << ' ';
    out << (i == index ? replacement : word);
  }
  return out.str();
}

EngineHarness::EngineHarness(const std::string& config_toml)
    : clock_(WallTimeFromMillis(kT0 + 365 * kDay)) {
  // tmpfs when there is one: RocksDB fsyncs its metadata on open and close,
  // which costs ~10 ms a call on a virtual disk. (Crash and integration tests
  // run on the real disk.)
  const std::filesystem::path base = std::filesystem::is_directory("/dev/shm")
                                         ? std::filesystem::path("/dev/shm")
                                         : std::filesystem::temp_directory_path();
  dir_ = base / ("sieve-test-" + std::to_string(std::random_device()()));
  std::filesystem::create_directories(dir_);
  StatusOr<Config> config = Config::FromToml(config_toml, "test config");
  if (!config.ok()) ADD_FAILURE() << config.status().ToString();
  StatusOr<EngineOptions> options = EngineOptionsFromConfig(*config);
  if (!options.ok()) ADD_FAILURE() << options.status().ToString();
  options_ = *options;
  // Scenarios hold a handful of URLs; the default sizing (10 M) costs a
  // large Bloom allocation per harness.
  options_.shard.url_expected_items = 10'000;
  store::StateEnvOptions env_options;
  env_options.dir = dir_.string();
  env_options.block_cache_bytes = 8 << 20;
  env_options.write_buffer_bytes = 8 << 20;
  env_options.sync = false;
  env_ = std::move(store::StateEnv::Create(env_options)).value();
  Reopen();
  preparer_ = std::make_unique<RecordPreparer>(options_, clock_);
  decider_ = std::make_unique<Decider>(options_.decider);
}

EngineHarness::~EngineHarness() {
  shard_.reset();
  env_.reset();
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

void EngineHarness::Reopen() {
  if (shard_) {
    Status s = shard_->Checkpoint(Offset(next_offset_));
    if (!s.ok()) ADD_FAILURE() << s.ToString();
    shard_.reset();
  }
  StatusOr<std::unique_ptr<store::Shard>> shard =
      env_->OpenShardAt((dir_ / "shard").string(), options_.shard);
  if (!shard.ok()) ADD_FAILURE() << shard.status().ToString();
  shard_ = std::move(shard).value();
}

StatusOr<Verdict> EngineHarness::Process(const EventSpec& event, std::optional<int64_t> offset) {
  const std::string json = EventJson(event);
  const int64_t at = offset ? *offset : next_offset_++;
  const std::string default_id = "test:" + std::to_string(at + 1);
  InputRecord record;
  record.value = json;
  record.partition = PartitionId(0);
  record.offset = Offset(at);
  record.default_event_id = default_id;
  PS_ASSIGN_OR_RETURN(PreparedRecord prepared, preparer_->Prepare(record));
  PS_ASSIGN_OR_RETURN(Decision decision, decider_->Decide(prepared, *shard_));
  return Verdict{std::move(prepared), std::move(decision)};
}

Verdict EngineHarness::Must(const EventSpec& event, std::optional<int64_t> offset) {
  StatusOr<Verdict> v = Process(event, offset);
  if (!v.ok()) {
    ADD_FAILURE() << event.url << ": " << v.status().ToString();
    return Verdict{PreparedRecord{}, Decision::Skipped()};
  }
  return *v;
}

}  // namespace pagesieve::engine::testing
