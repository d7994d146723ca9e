// pagesieve run's HTTP listener against a real broker: /metrics scraped and
// parsed as Prometheus text moves with the records processed; /healthz and
// /readyz; JSON log lines; a busy port stops the start.
#include <arpa/inet.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <regex>
#include <sstream>
#include <thread>

#include "daemon_fixture.h"
#include "prometheus_text.h"

namespace pagesieve::testing {
namespace {

using std::chrono::seconds;
using ::testing::HasSubstr;

// The port the daemon logged it listens on; 0 if it never did.
int ListeningPort(const DaemonProcess& daemon) {
  if (!daemon.WaitForLog("serving /metrics", seconds(30))) return 0;
  std::smatch m;
  const std::string log = daemon.Log();
  if (!std::regex_search(log, m, std::regex(R"(on http://127\.0\.0\.1:(\d+))"))) return 0;
  return std::stoi(m[1]);
}

httplib::Result Get(int port, const std::string& path) {
  httplib::Client client("127.0.0.1", port);
  client.set_connection_timeout(5);
  client.set_read_timeout(5);
  return client.Get(path.c_str());
}

Exposition Scrape(int port) {
  httplib::Result res = Get(port, "/metrics");
  EXPECT_TRUE(res) << "scrape failed";
  if (!res) return {};
  EXPECT_EQ(res->status, 200);
  StatusOr<Exposition> e = ParsePrometheusText(res->body);
  EXPECT_TRUE(e.ok()) << e.status().ToString() << "\n" << res->body;
  return e.ok() ? *e : Exposition{};
}

// Scrapes until `done` holds for the exposition (or 60 s pass); the last one.
Exposition ScrapeUntil(int port, const std::function<bool(const Exposition&)>& done) {
  const auto deadline = std::chrono::steady_clock::now() + seconds(60);
  Exposition e = Scrape(port);
  while (!done(e) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // poll with a deadline
    e = Scrape(port);
  }
  return e;
}

TEST_F(DaemonTest, MetricsMoveByTheRecordsProcessedAndMatchTheVerdicts) {
  std::vector<TestMessage> stream = LabelledStream({.seed = 3, .bad_records = 3});
  const std::string config = WriteConfig("run", "group-" + input_, dir_.File("state"));
  DaemonProcess daemon(config, dir_.File("daemon.log"), {"--set", "log.format=json"});
  daemon.Start();
  const int port = ListeningPort(daemon);
  ASSERT_GT(port, 0) << daemon.Log();
  EXPECT_EQ(Get(port, "/healthz")->status, 200);

  // Joined, with every partition's shard open: ready, nothing counted yet.
  Exposition before = ScrapeUntil(port, [](const Exposition& e) {
    return e.Value("pagesieve_assigned_partitions") == kPartitions;
  });
  ASSERT_EQ(before.Value("pagesieve_assigned_partitions"), kPartitions) << daemon.Log();
  EXPECT_EQ(Get(port, "/readyz")->status, 200);
  EXPECT_EQ(before.Value("pagesieve_ready"), 1);
  EXPECT_EQ(before.Value("pagesieve_records_consumed_total"), 0);
  EXPECT_EQ(before.Sum("pagesieve_verdicts_total"), 0);
  EXPECT_GE(before.Value("pagesieve_rebalances_total", {{"event", "assign"}}).value_or(0), 1);
  EXPECT_EQ(before.Sum("pagesieve_restore_progress_ratio"), kPartitions);

  ASSERT_TRUE(Produce(input_, stream).ok());
  Published published = ReadPublished(stream.size());
  const double n = static_cast<double>(stream.size());
  Exposition after = ScrapeUntil(port, [&](const Exposition& e) {
    return e.Value("pagesieve_records_consumed_total") == n &&
           e.Sum("pagesieve_consumer_lag_records") == 0 &&
           e.Sum("pagesieve_store_entries", {{"store", "exact"}}) > 0;
  });
  EXPECT_EQ(after.Value("pagesieve_records_consumed_total"), n);
  EXPECT_EQ(after.Sum("pagesieve_verdicts_total") + *after.Value("pagesieve_dead_letters_total"),
            n);
  EXPECT_EQ(after.Value("pagesieve_dead_letters_total"), published.dead_letters.size());
  // Every assigned shard reports its compaction backlog (0 is a fine value).
  EXPECT_EQ(std::count_if(after.samples.begin(), after.samples.end(),
                          [](const Sample& s) {
                            return s.name == "pagesieve_store_pending_compaction_bytes";
                          }),
            kPartitions);

  // Verdict counters agree with what was published, kind by kind.
  std::map<std::pair<std::string, std::string>, double> by_kind;
  for (const auto& [id, copies] : published.verdicts) {
    const Json& v = copies.front();
    by_kind[{v["verdict"], v["tier"].is_null() ? "none" : v["tier"].get<std::string>()}] += 1;
  }
  for (const auto& [kind, count] : by_kind) {
    EXPECT_EQ(
        after.Value("pagesieve_verdicts_total", {{"verdict", kind.first}, {"tier", kind.second}}),
        count)
        << kind.first << "/" << kind.second;
  }
  const double content_duplicates =
      by_kind[{"duplicate", "exact"}] + by_kind[{"duplicate", "near"}];
  EXPECT_GT(content_duplicates, 0);

  // Every record was fingerprinted and decided; lookups were timed.
  EXPECT_EQ(after.Value("pagesieve_processing_latency_seconds_count"), n);
  EXPECT_EQ(after.Value("pagesieve_fingerprint_seconds_count"), n);
  EXPECT_GT(*after.Value("pagesieve_fingerprint_seconds_sum"), 0);
  EXPECT_GT(after.Value("pagesieve_store_lookup_seconds_count", {{"store", "url"}}).value_or(0), 0);
  EXPECT_GT(after.Sum("pagesieve_bloom_fill_ratio"), 0);
  // The in-memory structures: a Bloom filter per shard, and SimHash index
  // entries for the pages that were unique.
  EXPECT_GT(after.Sum("pagesieve_store_memory_bytes", {{"structure", "bloom"}}), 0);
  EXPECT_GT(after.Sum("pagesieve_store_memory_bytes", {{"structure", "simhash_index"}}), 0);
  EXPECT_GT(after.Sum("pagesieve_store_memory_bytes", {{"structure", "lsh_index"}}), 0);
  EXPECT_GT(after.Sum("pagesieve_store_index_rows", {{"index", "simhash"}}), 0);
  EXPECT_GT(after.Sum("pagesieve_store_index_rows", {{"index", "lsh"}}), 0);
  EXPECT_GT(after.Sum("pagesieve_event_time_lag_seconds"), 0);
  EXPECT_GT(after.Value("pagesieve_checkpoints_total").value_or(0), 0);
  // Exactly once (the default): every committed transaction's commit timed.
  EXPECT_GT(after.Value("pagesieve_commit_seconds_count").value_or(0), 0);
  EXPECT_EQ(after.Value("pagesieve_commit_seconds_count"),
            after.Value("pagesieve_transactions_total", {{"result", "committed"}}));
  EXPECT_EQ(after.Value("pagesieve_producer_delivery_errors_total"), 0);

  EXPECT_EQ(daemon.Terminate(), 0) << daemon.Log();
  // log.format = json: every line the daemon wrote, librdkafka's included,
  // is one JSON object.
  std::istringstream log(daemon.Log());
  int lines = 0;
  for (std::string line; std::getline(log, line); ++lines) {
    Json j = Json::parse(line, nullptr, /*allow_exceptions=*/false);
    ASSERT_TRUE(j.is_object()) << line;
    EXPECT_TRUE(j.contains("time") && j.contains("level") && j.contains("msg")) << line;
  }
  EXPECT_GT(lines, 3);
}

TEST_F(DaemonTest, AReKeyedRunShowsBothStagesOnMetrics) {
  // Input keyed by URL: the re-keying stage reports under pagesieve_rekey_,
  // the deciding stage under the usual names, on one /metrics.
  std::vector<TestMessage> stream = LabelledStream({.seed = 5, .bad_records = 2});
  for (TestMessage& m : stream) {
    const Json event = Json::parse(m.value, nullptr, /*allow_exceptions=*/false);
    if (event.is_object()) m.key = event.value("url", "no url");
  }
  const std::string config = WriteConfig("run", "group-" + input_, dir_.File("state"),
                                         "[input]\npartitioned_by = \"url\"\n");
  DaemonProcess daemon(config, dir_.File("daemon.log"));
  daemon.Start();
  const int port = ListeningPort(daemon);
  ASSERT_GT(port, 0) << daemon.Log();
  Exposition ready = ScrapeUntil(port, [](const Exposition& e) {
    return e.Value("pagesieve_ready") == 1 && e.Value("pagesieve_rekey_ready") == 1;
  });
  EXPECT_EQ(ready.Value("pagesieve_rekey_assigned_partitions"), kPartitions) << daemon.Log();
  EXPECT_EQ(Get(port, "/readyz")->status, 200);

  ASSERT_TRUE(Produce(input_, stream).ok());
  ReadPublished(stream.size());
  const double n = static_cast<double>(stream.size());
  Exposition after = ScrapeUntil(port, [&](const Exposition& e) {
    return e.Value("pagesieve_rekey_records_consumed_total") == n &&
           e.Value("pagesieve_records_consumed_total") == n - 2 &&
           e.Sum("pagesieve_rekey_consumer_lag_records") == 0;
  });
  // The first stage consumed every input record and dead-lettered the bad
  // ones itself; the second decided the rest.
  EXPECT_EQ(after.Value("pagesieve_rekey_records_consumed_total"), n);
  EXPECT_EQ(after.Value("pagesieve_rekey_dead_letters_total"), 2);
  EXPECT_EQ(after.Value("pagesieve_rekey_fingerprint_seconds_count"), n);
  EXPECT_EQ(after.Sum("pagesieve_rekey_consumer_lag_records"), 0);
  EXPECT_EQ(after.Value("pagesieve_records_consumed_total"), n - 2);
  EXPECT_EQ(after.Sum("pagesieve_verdicts_total"), n - 2);
  EXPECT_EQ(after.Value("pagesieve_dead_letters_total"), 0);
  EXPECT_EQ(daemon.Terminate(), 0) << daemon.Log();
}

TEST_F(DaemonTest, ReadyzIs503WhileTheBrokerIsNotReachedAndHealthzIs200) {
  const std::string config = WriteConfig("run", "group-" + input_, dir_.File("state"));
  DaemonProcess daemon(
      config, dir_.File("daemon.log"),
      {"--set", "kafka.bootstrap_servers=127.0.0.1:1", "--set", "kafka.startup_timeout=60s"});
  daemon.Start();
  const int port = ListeningPort(daemon);
  ASSERT_GT(port, 0) << daemon.Log();
  EXPECT_EQ(Get(port, "/healthz")->status, 200);
  httplib::Result ready = Get(port, "/readyz");
  ASSERT_TRUE(ready);
  EXPECT_EQ(ready->status, 503);
  EXPECT_EQ(Scrape(port).Value("pagesieve_ready"), 0);
  EXPECT_NE(daemon.Terminate(seconds(20)), -1) << "did not stop while starting";
}

TEST_F(DaemonTest, ABusyMetricsPortStopsStartUpWithOneClearMessage) {
  // Hold a port the way another process would.
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(listen(fd, 1), 0);
  socklen_t len = sizeof addr;
  ASSERT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  const std::string listen = "127.0.0.1:" + std::to_string(ntohs(addr.sin_port));

  const std::string config = WriteConfig("run", "group-" + input_, dir_.File("state"));
  ProcessResult r = RunPagesieve({"run", "--config", config, "--set", "metrics.listen=" + listen});
  close(fd);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("cannot listen on " + listen + " (metrics.listen)"));
  EXPECT_THAT(r.err, HasSubstr("in use"));
}

}  // namespace
}  // namespace pagesieve::testing
