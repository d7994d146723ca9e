#pragma once

// Shared set-up of the pagesieve run integration tests: fresh topics, a
// labelled stream of real pages keyed by scope, a config file, and the
// verdicts pagesieve dedup gives over each input partition (what the daemon
// must publish).

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "daemon_process.h"
#include "kafka_test_env.h"
#include "run_process.h"

namespace pagesieve::testing {

using Json = nlohmann::json;

// A record's position in the input topic.
using Position = std::pair<int32_t, int64_t>;

struct StreamOptions {
  int seed = 3;
  int articles = 15;    // readability pages (clusters with edits, comments, negatives)
  int sites = 25;       // trafilatura pages (url variants, mirrors, noise)
  int bad_records = 0;  // not JSON, no url, unusable url (in turn)
};

// The stream as messages for the input topic, keyed by scope (the
// registered domain), so each site's pages share a partition.
std::vector<TestMessage> LabelledStream(const StreamOptions& options);

// What a run published, from the output topics.
struct Published {
  std::map<std::string, std::vector<Json>> verdicts;  // by event_id; repeats after crashes
  std::vector<TestMessage> dead_letters;
  size_t messages = 0;
};

// What pagesieve dedup says over each input partition.
struct Expected {
  std::map<std::string, Json> verdicts;  // by event_id, without "source"
  std::set<Position> dead_letters;
  size_t records = 0;
};

class DaemonTest : public ::testing::Test {
 protected:
  void SetUp() override;
  // Deletes the test's topics, and those its daemons created (named after
  // them). The daemons are gone by then: they belong to the test's body.
  void TearDown() override;

  // A config for this test's topics; `extra` is TOML appended (keys of
  // sections not already written here).
  std::string WriteConfig(const std::string& name, const std::string& group,
                          const std::string& state_dir, const std::string& extra = "") const;
  std::string ConfigPath(const std::string& name) const { return dir_.File(name + ".toml"); }

  // What pagesieve dedup says over each input partition.
  Expected ExpectVerdicts(const std::string& config_path) const;
  // pagesieve dedup over `records` in the order given (a file named after
  // `name`): each verdict by event id, each dead letter by the record's
  // input position.
  Expected DedupOver(const std::string& config_path, const std::vector<TestMessage>& records,
                     const std::string& name) const;
  // Reads the output topics until `count` messages arrived (or 120 s).
  Published ReadPublished(size_t count) const;
  // Messages in the output topics now (sum of their end offsets).
  int64_t PublishedCount() const;
  // Every expected verdict published, and published the same each time;
  // exactly the expected dead letters.
  void ExpectPublishedEquals(const Published& published, const Expected& expected) const;

  TempDir dir_;
  std::string base_;  // every topic of this test has it in its name
  std::string input_, unique_, duplicate_, skipped_, dead_letter_;
  static constexpr int kPartitions = 4;
};

}  // namespace pagesieve::testing
