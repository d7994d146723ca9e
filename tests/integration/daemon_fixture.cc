#include "daemon_fixture.h"

#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <thread>

#include "url/canonicalizer.h"
#include "url/registered_domain.h"

namespace pagesieve::testing {

std::vector<TestMessage> LabelledStream(const StreamOptions& o) {
  TempDir tmp;
  const std::string path = tmp.File("stream.jsonl");
  ProcessResult gen = RunProcess(
      {"/usr/bin/python3", PAGESIEVE_SOURCE_DIR "/bench/crawlgen/crawlgen.py", "--seed",
       std::to_string(o.seed), "--articles", std::to_string(o.articles), "--sites",
       std::to_string(o.sites), "-o", path});
  EXPECT_EQ(gen.exit_code, 0) << gen.err;
  url::Canonicalizer canonicalizer{url::CanonicalizerOptions{}};
  std::vector<TestMessage> messages;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    TestMessage m;
    m.value = line;
    const std::string url = Json::parse(line)["url"];
    StatusOr<url::CanonicalUrl> c = canonicalizer.Canonicalize(url);
    m.key = c.ok() ? url::RegisteredDomain(c->host()) : "unknown";
    messages.push_back(std::move(m));
  }
  const std::string bad[] = {"this is not an event",
                             R"({"fetched_at": 1790812800000, "body": "no url"})",
                             R"({"url": "ftp://files.example/x", "fetched_at": 1790812800000})"};
  for (int i = 0; i < o.bad_records; ++i) {
    TestMessage m;
    m.key = "bad-" + std::to_string(i);
    m.value = bad[i % 3];
    m.headers = {{"origin", "test-" + std::to_string(i)}};
    // Spread through the stream, not all at the end.
    const size_t at = messages.empty() ? 0 : (i * 7919u) % messages.size();
    messages.insert(messages.begin() + static_cast<long>(at), m);
  }
  return messages;
}

void DaemonTest::SetUp() {
  base_ = UniqueTopicName("daemon");
  input_ = base_ + "-pages";
  unique_ = base_ + "-unique";
  duplicate_ = base_ + "-duplicate";
  skipped_ = base_ + "-skipped";
  dead_letter_ = base_ + "-dlq";
  ASSERT_TRUE(CreateTopic(input_, kPartitions).ok());
  for (const std::string& t : {unique_, duplicate_, skipped_, dead_letter_}) {
    ASSERT_TRUE(CreateTopic(t, 2).ok()) << t;
  }
}

void DaemonTest::TearDown() {
  // "-" after the base: "daemon-7-1" must not take "daemon-7-12"'s topics.
  const Status deleted = DeleteTopicsNamedWith(base_ + "-");
  if (!deleted.ok()) std::cerr << "deleting the test's topics: " << deleted.ToString() << "\n";
}

std::string DaemonTest::WriteConfig(const std::string& name, const std::string& group,
                                    const std::string& state_dir, const std::string& extra) const {
  std::ostringstream toml;
  toml << "[kafka]\n"
       << "bootstrap_servers = \"" << BootstrapServers() << "\"\n"
       << "group_id = \"" << group << "\"\n"
       << "input_topic = \"" << input_ << "\"\n"
       << "startup_timeout = \"20s\"\n"
       << "[kafka.consumer]\n\"session.timeout.ms\" = \"6000\"\n"
       << "[output]\n"
       << "unique = \"" << unique_ << "\"\nduplicate = \"" << duplicate_ << "\"\n"
       << "skipped = \"" << skipped_ << "\"\ndead_letter = \"" << dead_letter_ << "\"\n"
       << "[state]\ndir = \"" << state_dir << "\"\nsync = false\n"
       // A free port each: tests run several daemons at once.
       << "[metrics]\nlisten = \"127.0.0.1:0\"\nsample_interval = \"200ms\"\n"
       << "[run]\ncheckpoint_interval = \"200ms\"\nbatch_linger = \"5ms\"\n"
       << "progress_interval = \"2s\"\nshutdown_timeout = \"30s\"\n"
       << extra;
  WriteFile(ConfigPath(name), toml.str());
  return ConfigPath(name);
}

Expected DaemonTest::DedupOver(const std::string& config_path,
                               const std::vector<TestMessage>& records,
                               const std::string& name) const {
  Expected expected;
  expected.records = records.size();
  std::string jsonl;
  for (const TestMessage& m : records) jsonl += m.value + "\n";
  const std::string in = dir_.File(name + ".jsonl");
  const std::string dlq = dir_.File(name + ".dlq");
  WriteFile(in, jsonl);
  ProcessResult r = RunPagesieve({"dedup", "-q", "--config", config_path, "-i", in, "--dlq", dlq});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::istringstream verdicts(r.out);
  for (std::string line; std::getline(verdicts, line);) {
    Json v = Json::parse(line);
    expected.verdicts[v["event_id"]] = v;
  }
  std::istringstream dead(ReadFile(dlq));
  for (std::string line; std::getline(dead, line);) {
    const TestMessage& m = records[Json::parse(line)["line"].get<size_t>() - 1];
    expected.dead_letters.emplace(m.partition, m.offset);
  }
  return expected;
}

Expected DaemonTest::ExpectVerdicts(const std::string& config_path) const {
  Expected expected;
  for (int p = 0; p < kPartitions; ++p) {
    StatusOr<std::vector<TestMessage>> records = ReadPartition(input_, p);
    EXPECT_TRUE(records.ok()) << records.status().ToString();
    if (!records.ok()) continue;
    Expected part = DedupOver(config_path, *records, "partition" + std::to_string(p));
    expected.records += part.records;
    expected.verdicts.merge(part.verdicts);
    expected.dead_letters.merge(part.dead_letters);
  }
  return expected;
}

namespace {

// Every message of a two-partition output topic, up to its current end.
// Errors are transient here (a broker that just restarted has no leaders
// yet): the caller reads again.
StatusOr<std::vector<TestMessage>> ReadOutputTopic(const std::string& topic) {
  std::vector<TestMessage> all;
  for (int32_t p = 0; p < 2; ++p) {
    StatusOr<std::vector<TestMessage>> part = ReadPartition(topic, p);
    if (!part.ok()) return part.status().WithContext(topic);
    all.insert(all.end(), part->begin(), part->end());
  }
  return all;
}

}  // namespace

// A progress probe that tests pace their faults by, not a check: while the
// broker restarts (the chaos tests restart it) a topic's watermarks may not
// be readable for a while. Such a topic counts as nothing published yet and
// the caller's wait goes on; what was published is checked by ReadPublished.
int64_t DaemonTest::PublishedCount() const {
  int64_t total = 0;
  for (const std::string& t : {unique_, duplicate_, skipped_, dead_letter_}) {
    StatusOr<int64_t> n = MessageCount(t);
    total += n.ok() ? *n : 0;
  }
  return total;
}

Published DaemonTest::ReadPublished(size_t count) const {
  Published published;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  // Read afresh until enough arrived: only the total is known in advance.
  Status last_error;
  for (;;) {
    published = Published{};
    last_error = Status::Ok();
    for (const std::string& t : {unique_, duplicate_, skipped_}) {
      StatusOr<std::vector<TestMessage>> messages = ReadOutputTopic(t);
      if (!messages.ok()) {
        last_error = messages.status();
        continue;
      }
      for (TestMessage& m : *messages) {
        Json v = Json::parse(m.value);
        published.verdicts[v["event_id"]].push_back(v);
        ++published.messages;
      }
    }
    StatusOr<std::vector<TestMessage>> dead = ReadOutputTopic(dead_letter_);
    if (dead.ok()) {
      published.dead_letters = *dead;
    } else {
      last_error = dead.status();
    }
    published.messages += published.dead_letters.size();
    // Count records decided, not messages: after a restart or a rebalance the
    // records since the last checkpoint are published again, and counting
    // those copies would stop reading before every record has its verdict.
    std::set<std::string> dead_sources;
    for (const TestMessage& m : published.dead_letters) {
      dead_sources.insert(m.Header("pagesieve-source-partition").value_or("") + ":" +
                          m.Header("pagesieve-source-offset").value_or(""));
    }
    if (last_error.ok() && published.verdicts.size() + dead_sources.size() >= count) {
      return published;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      EXPECT_TRUE(last_error.ok()) << last_error.ToString();
      return published;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));  // poll with a deadline
  }
}

void DaemonTest::ExpectPublishedEquals(const Published& published,
                                       const Expected& expected) const {
  size_t missing = 0, differing = 0;
  for (const auto& [id, want] : expected.verdicts) {
    auto it = published.verdicts.find(id);
    if (it == published.verdicts.end()) {
      if (++missing <= 3) ADD_FAILURE() << "no verdict for " << id;
      continue;
    }
    for (const Json& got : it->second) {
      Json without_source = got;
      without_source.erase("source");
      if (without_source != want && ++differing <= 3) {
        ADD_FAILURE() << "verdict for " << id << " differs:\n  daemon " << without_source.dump()
                      << "\n  dedup  " << want.dump();
      }
    }
  }
  EXPECT_EQ(missing, 0u);
  EXPECT_EQ(differing, 0u);
  EXPECT_EQ(published.verdicts.size(), expected.verdicts.size());
  std::set<Position> dead;
  for (const TestMessage& m : published.dead_letters) {
    const std::string partition = m.Header("pagesieve-source-partition").value_or("-1");
    const std::string offset = m.Header("pagesieve-source-offset").value_or("-1");
    dead.emplace(std::stoi(partition), std::stoll(offset));
  }
  EXPECT_EQ(dead, expected.dead_letters);
}

}  // namespace pagesieve::testing
