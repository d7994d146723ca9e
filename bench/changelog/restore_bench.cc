// How fast a shard is restored from its changelog topic on the local broker
// (docs/changelog.md, docs/benchmarks.md).
//
//   scripts/kafka-local start
//   build/bench/changelog/restore_bench --records=1000000,10000000
//
// For each size it writes a changelog partition shaped like the one
// `pagesieve run` ships (per page: one URL entry, one content digest, one
// SimHash entry and its ten table keys, values of the real sizes; a marker
// at every 1000 pages), then restores it into an empty state directory with
// the daemon's ChangelogRestorer, and reports wall time, CPU time and
// records per second. The topic is deleted afterwards.
#include <librdkafka/rdkafkacpp.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "common/clock.h"
#include "kafka/kafka_options.h"
#include "kafka/topic_admin.h"
#include "metrics/registry.h"
#include "run/changelog_restorer.h"
#include "run/run_metrics.h"
#include "store/changelog.h"
#include "store/shard_db.h"
#include "store/shard_meta.h"
#include "store/simhash_tables.h"
#include "store/state_env.h"

namespace pagesieve {
namespace {

double CpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

std::string RandomBytes(std::mt19937_64& rng, size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; i += 8) {
    const uint64_t v = rng();
    for (size_t j = 0; j < 8 && i + j < n; ++j) s[i + j] = static_cast<char>(v >> (8 * j));
  }
  return s;
}

// Produces `records` changelog records to partition 0 of `topic`.
Status ProduceChangelog(const std::string& bootstrap, const std::string& topic, int64_t records) {
  std::unique_ptr<RdKafka::Conf> conf(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
  std::string err;
  conf->set("bootstrap.servers", bootstrap, err);
  conf->set("linger.ms", "20", err);
  conf->set("compression.type", "lz4", err);
  conf->set("queue.buffering.max.messages", "1000000", err);
  std::unique_ptr<RdKafka::Producer> producer(RdKafka::Producer::create(conf.get(), err));
  if (!producer) return Status::Internal("producer: " + err);
  std::mt19937_64 rng(42);
  // Per page: url (24-byte key, ~110-byte value), exact (24, ~90), near
  // (16, ~100) and ten table keys (~19 bytes, 8-byte value).
  struct Shape {
    int cf;
    size_t key, value;
  };
  std::vector<Shape> page = {{store::kUrlCf, 24, 110}, {store::kExactCf, 24, 90},
                             {store::kNearCf, 16, 100}};
  int64_t sent = 0, pages = 0;
  // A marker the restoring shard accepts: this build's format and the
  // default SimHash layout.
  const store::NearLayout layout = store::NearLayout::Create(3, 0).value();
  store::ChangelogMarker marker;
  marker.format_version = store::kFormatVersion;
  marker.fingerprint_version = 1;
  marker.near_max_distance = layout.max_distance();
  marker.near_blocks = layout.blocks();
  auto send = [&](const std::string& key, const std::string& value) -> Status {
    for (;;) {
      const RdKafka::ErrorCode e = producer->produce(
          topic, 0, RdKafka::Producer::RK_MSG_COPY, const_cast<char*>(value.data()), value.size(),
          key.data(), key.size(), 0, nullptr, nullptr);
      if (e == RdKafka::ERR_NO_ERROR) break;
      if (e != RdKafka::ERR__QUEUE_FULL) return Status::Internal(RdKafka::err2str(e));
      producer->poll(10);
    }
    ++sent;
    return Status::Ok();
  };
  while (sent < records) {
    for (const Shape& s : page) {
      if (sent >= records) break;
      PS_RETURN_IF_ERROR(send(store::ChangelogEntryKey(s.cf, RandomBytes(rng, s.key)),
                              RandomBytes(rng, s.value)));
    }
    if (++pages % 1000 == 0 && sent < records) {
      marker.next_offset = Offset(pages);
      PS_RETURN_IF_ERROR(send(store::ChangelogMarkerKey(), store::EncodeChangelogMarker(marker)));
    }
    producer->poll(0);
  }
  if (producer->flush(600'000) != RdKafka::ERR_NO_ERROR) return Status::Internal("flush timed out");
  return Status::Ok();
}

int Main(int argc, char** argv) {
  std::vector<int64_t> sizes = {1'000'000};
  const char* port = std::getenv("PAGESIEVE_KAFKA_PORT");
  std::string bootstrap = std::string("127.0.0.1:") + (port ? port : "9092");
  std::string dir = "/tmp/restore-bench";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--records=", 0) == 0) {
      sizes.clear();
      std::string list = a.substr(10);
      for (size_t pos = 0; pos < list.size();) {
        size_t comma = list.find(',', pos);
        if (comma == std::string::npos) comma = list.size();
        sizes.push_back(std::stoll(list.substr(pos, comma - pos)));
        pos = comma + 1;
      }
    } else if (a.rfind("--bootstrap=", 0) == 0) {
      bootstrap = a.substr(12);
    } else if (a.rfind("--dir=", 0) == 0) {
      dir = a.substr(6);
    } else {
      std::fprintf(stderr,
                   "usage: restore_bench [--records=N,M] [--bootstrap=host:port] [--dir=D]\n");
      return 2;
    }
  }
  std::printf("%12s %10s %10s %12s %14s %10s %8s\n", "records", "produce_s", "restore_s", "cpu_s",
              "records/s", "MB/s", "stalls");
  for (int64_t n : sizes) {
    const std::string topic =
        "restore-bench-" + std::to_string(n) + "-" + std::to_string(::getpid());
    kafka::TopicAdmin admin(bootstrap, {}, std::chrono::seconds(30));
    if (Status s = admin.Create({topic}, 1, {{"cleanup.policy", "compact"}}); !s.ok()) {
      std::fprintf(stderr, "%s\n", s.ToString().c_str());
      return 1;
    }
    const auto p0 = std::chrono::steady_clock::now();
    if (Status s = ProduceChangelog(bootstrap, topic, n); !s.ok()) {
      std::fprintf(stderr, "produce: %s\n", s.ToString().c_str());
      return 1;
    }
    const double produce_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - p0).count();

    std::filesystem::remove_all(dir);
    store::StateEnvOptions env_options;
    env_options.dir = dir;
    env_options.sync = false;
    auto env = store::StateEnv::Create(env_options).value();
    store::ShardOptions shard_options;
    shard_options.fingerprint_version = 1;  // the synthetic marker's
    kafka::KafkaOptions kafka;
    kafka.bootstrap_servers = bootstrap;
    kafka.group_id = "restore-bench";
    kafka.input_topic = "pages";
    kafka.startup_timeout = std::chrono::seconds(30);
    kafka.changelog.topic = topic;
    metrics::Registry registry;
    run::RunMetrics metrics(registry);
    run::ChangelogRestorer restorer(kafka, *env, shard_options, Clock::System(), metrics);
    if (Status s = restorer.Init(); !s.ok()) {
      std::fprintf(stderr, "%s\n", s.ToString().c_str());
      return 1;
    }
    const double cpu0 = CpuSeconds();
    const auto r0 = std::chrono::steady_clock::now();
    StatusOr<bool> begun = restorer.Begin(PartitionId(0));
    if (!begun.ok() || !*begun) {
      std::fprintf(stderr, "restore did not begin: %s\n",
                   begun.ok() ? "shard current" : begun.status().ToString().c_str());
      return 1;
    }
    while (restorer.busy()) {
      StatusOr<std::vector<run::ChangelogRestorer::Restored>> done =
          restorer.Advance(std::chrono::milliseconds(100));
      Status s = done.status();
      // The daemon makes a restore durable on an opener thread; here it is
      // part of the time measured, as it was before it moved there.
      for (size_t i = 0; s.ok() && i < done->size(); ++i) {
        if ((*done)[i].finish) s = (*done)[i].finish();
      }
      if (!s.ok()) {
        std::fprintf(stderr, "%s\n", s.ToString().c_str());
        return 1;
      }
    }
    const double restore_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - r0).count();
    const double cpu_s = CpuSeconds() - cpu0;
    const double bytes = metrics.restored_bytes.Value();
    // Steps that read nothing while RocksDB stalled the restore's writes.
    std::printf("%12lld %10.1f %10.2f %12.2f %14.0f %10.1f %8.0f\n", static_cast<long long>(n),
                produce_s, restore_s, cpu_s, n / restore_s, bytes / 1e6 / restore_s,
                metrics.restore_stalls.Value());
    std::fflush(stdout);
    (void)admin.Delete({topic});
    std::filesystem::remove_all(dir);
  }
  return 0;
}

}  // namespace
}  // namespace pagesieve

int main(int argc, char** argv) { return pagesieve::Main(argc, argv); }
