#include "pipeline_test_env.h"

#include <nlohmann/json.hpp>

namespace pagesieve::pipeline::testing {

using Json = nlohmann::json;

std::string Article(int seed) {
  std::string text;
  for (int i = 0; i < 80; ++i) text += " word" + std::to_string((seed * 31 + i * 7) % 97);
  return text;
}

std::string EventJson(int64_t offset, const std::string& url, int seed) {
  return Json{{"url", url},
              {"fetched_at", kT0 + offset},
              {"text", Article(seed)},
              {"event_id", "e" + std::to_string(offset)}}
      .dump();
}

SourceRecord Record(int64_t offset, const std::string& url, int seed, PartitionId p) {
  SourceRecord r;
  r.stream = "pages";
  r.partition = p;
  r.offset = Offset(offset);
  r.lane_offset = Offset(offset);
  r.key = "site";
  r.value = EventJson(offset, url, seed);
  r.headers = {{"trace", "t" + std::to_string(offset)}};
  r.default_event_id = "pages-" + std::to_string(p.value()) + "-" + std::to_string(offset);
  r.position_in_verdict = true;
  return r;
}

std::vector<std::string> EventIds(const std::vector<OutputMessage>& messages) {
  std::vector<std::string> ids;
  for (const OutputMessage& m : messages) {
    Json j = Json::parse(m.value, nullptr, false);
    const bool verdict = !j.is_discarded() && j.is_object() && j.contains("verdict");
    ids.push_back(verdict ? j["event_id"].get<std::string>() : "raw:" + m.value);
  }
  return ids;
}

void PipelineTestBase::SetUp() {
  StatusOr<Config> config = Config::Defaults();
  ASSERT_TRUE(config.ok());
  StatusOr<engine::EngineOptions> engine = engine::EngineOptionsFromConfig(*config);
  ASSERT_TRUE(engine.ok()) << engine.status().ToString();
  engine_ = *engine;
  engine_.shard.url_expected_items = 10'000;
  store::StateEnvOptions env;
  env.dir = dir_.path();
  env.sync = false;
  env.block_cache_bytes = env.write_buffer_bytes = 8 << 20;
  env_ = std::move(store::StateEnv::Create(env)).value();
}

StatusOr<std::unique_ptr<store::Shard>> PipelineTestBase::OpenShard(PartitionId p,
                                                                    const std::string& topic) {
  return env_->OpenShard(topic, p, engine_.shard);
}

}  // namespace pagesieve::pipeline::testing
