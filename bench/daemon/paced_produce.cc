// paced_produce: the benchmark's crawler. Produces the lines `key<TAB>value`
// of a file to a topic, either as fast as the broker takes them or open loop
// at a fixed rate (line i is handed to librdkafka at start + i / rate, however
// far behind the consumer is), and prints where each one landed.
//
//   paced_produce --bootstrap HOST:PORT --topic T --file KEYED [--rate R]
//                 [--count N] [--report] [-X key=value]...
//
// --report prints one line per record, in file order, once all are
// delivered: `partition<TAB>offset<TAB>timestamp_ms<TAB>L|C`, the timestamp
// the broker answered with (L: the topic stamps LogAppendTime, C: the
// producer's CreateTime). The latency benchmark starts each record's clock
// there, without reading the input back.
//
// Why not kcat, which the benchmark used before: kcat -P finds each line end
// with memchr over everything buffered so far, so a 172 KB page is scanned
// many times over. Measured 2026-12-06, 3,000 pages (549 MB) to the local
// broker: kcat spent 2.16 CPU-seconds, 77 % of it in memchr, and this
// program 0.25. At the latency benchmark's 566 pages/s kcat took 0.3-0.6 of
// a core from the daemon under test, on a machine of two. Here the file is
// mapped and each record points into the mapping: librdkafka sends it
// without a copy.
#include <fcntl.h>
#include <librdkafka/rdkafka.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

struct Options {
  std::string bootstrap;
  std::string topic;
  std::string file;
  double rate = 0;  // records per second; 0: as fast as the broker takes them
  size_t count = SIZE_MAX;
  bool report = false;
  std::vector<std::pair<std::string, std::string>> settings;
};

struct Line {
  std::string_view key;
  std::string_view value;
};

// Where one record landed, filled in by the delivery report.
struct Landing {
  int32_t partition = -1;
  int64_t offset = -1;
  int64_t timestamp_ms = -1;
  char timestamp_kind = '?';
  bool delivered = false;
};

struct Deliveries {
  std::vector<Landing> landings;
  size_t done = 0;
  size_t failed = 0;
};

[[noreturn]] void Fail(const std::string& message) {
  std::fprintf(stderr, "paced_produce: %s\n", message.c_str());
  std::exit(2);
}

Options ParseOptions(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Fail(std::string(arg) + " needs a value");
      return argv[++i];
    };
    if (arg == "--bootstrap") {
      o.bootstrap = value();
    } else if (arg == "--topic") {
      o.topic = value();
    } else if (arg == "--file") {
      o.file = value();
    } else if (arg == "--rate") {
      o.rate = std::stod(value());
    } else if (arg == "--count") {
      o.count = std::stoull(value());
    } else if (arg == "--report") {
      o.report = true;
    } else if (arg == "-X") {
      std::string kv = value();
      size_t eq = kv.find('=');
      if (eq == std::string::npos) Fail("-X wants key=value, got " + kv);
      o.settings.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    } else {
      Fail("unknown argument " + std::string(arg));
    }
  }
  if (o.bootstrap.empty() || o.topic.empty() || o.file.empty()) {
    Fail("usage: paced_produce --bootstrap HOST:PORT --topic T --file KEYED [--rate R] "
         "[--count N] [--report] [-X key=value]...");
  }
  return o;
}

// The file's non-empty lines, split at their first tab; the views point into
// the mapping, which lives until the process exits.
std::vector<Line> MapLines(const std::string& path, size_t limit) {
  int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) Fail("cannot open " + path + ": " + std::strerror(errno));
  struct stat st {};
  if (fstat(fd, &st) != 0) Fail("cannot stat " + path + ": " + std::strerror(errno));
  std::vector<Line> lines;
  if (st.st_size == 0) return lines;
  void* base = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  if (base == MAP_FAILED) Fail("cannot map " + path + ": " + std::strerror(errno));
  close(fd);
  std::string_view all(static_cast<const char*>(base), static_cast<size_t>(st.st_size));
  size_t at = 0;
  while (at < all.size() && lines.size() < limit) {
    size_t end = all.find('\n', at);
    if (end == std::string_view::npos) end = all.size();
    std::string_view line = all.substr(at, end - at);
    at = end + 1;
    if (line.empty()) continue;
    size_t tab = line.find('\t');
    if (tab == std::string_view::npos) {
      Fail("line " + std::to_string(lines.size() + 1) + " of " + path + " has no tab");
    }
    lines.push_back({line.substr(0, tab), line.substr(tab + 1)});
  }
  return lines;
}

void OnDelivery(rd_kafka_t*, const rd_kafka_message_t* message, void* opaque) {
  auto* deliveries = static_cast<Deliveries*>(opaque);
  deliveries->done++;
  if (message->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    deliveries->failed++;
    std::fprintf(stderr, "paced_produce: delivery failed: %s\n",
                 rd_kafka_err2str(message->err));
    return;
  }
  auto index = reinterpret_cast<uintptr_t>(message->_private);
  Landing& landing = deliveries->landings[index];
  landing.partition = message->partition;
  landing.offset = message->offset;
  rd_kafka_timestamp_type_t kind = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
  landing.timestamp_ms = rd_kafka_message_timestamp(message, &kind);
  landing.timestamp_kind = kind == RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME ? 'L' : 'C';
  landing.delivered = true;
}

rd_kafka_t* NewProducer(const Options& o, Deliveries* deliveries) {
  char error[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  auto set = [&](const std::string& key, const std::string& value) {
    if (rd_kafka_conf_set(conf, key.c_str(), value.c_str(), error, sizeof(error)) !=
        RD_KAFKA_CONF_OK) {
      Fail(key + ": " + error);
    }
  };
  set("bootstrap.servers", o.bootstrap);
  // Pages reach 1.7 MB; the local broker accepts 16 MiB
  // (scripts/kafka/server.properties.in).
  set("message.max.bytes", "16777216");
  for (const auto& [key, value] : o.settings) set(key, value);
  rd_kafka_conf_set_dr_msg_cb(conf, OnDelivery);
  rd_kafka_conf_set_opaque(conf, deliveries);
  rd_kafka_t* producer = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof(error));
  if (producer == nullptr) Fail(std::string("cannot create the producer: ") + error);
  return producer;
}

// Hands one record to librdkafka without copying it, serving delivery
// reports while its queue is full.
void Produce(rd_kafka_t* producer, const std::string& topic, const Line& line, size_t index) {
  for (;;) {
    rd_kafka_resp_err_t err = rd_kafka_producev(
        producer, RD_KAFKA_V_TOPIC(topic.c_str()),
        RD_KAFKA_V_KEY(const_cast<char*>(line.key.data()), line.key.size()),
        RD_KAFKA_V_VALUE(const_cast<char*>(line.value.data()), line.value.size()),
        RD_KAFKA_V_OPAQUE(reinterpret_cast<void*>(static_cast<uintptr_t>(index))),
        RD_KAFKA_V_END);
    if (err == RD_KAFKA_RESP_ERR_NO_ERROR) return;
    if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
      Fail("cannot produce line " + std::to_string(index + 1) + ": " + rd_kafka_err2str(err));
    }
    rd_kafka_poll(producer, 10);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o = ParseOptions(argc, argv);
  std::vector<Line> lines = MapLines(o.file, o.count);
  Deliveries deliveries;
  deliveries.landings.resize(lines.size());
  rd_kafka_t* producer = NewProducer(o, &deliveries);

  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  for (size_t i = 0; i < lines.size(); ++i) {
    if (o.rate > 0) {
      auto due = start + std::chrono::duration_cast<Clock::duration>(
                             std::chrono::duration<double>(static_cast<double>(i) / o.rate));
      // Serve delivery reports while waiting, without ever waking late by
      // more than a millisecond for them.
      for (auto now = Clock::now(); now < due; now = Clock::now()) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(due - now).count();
        if (left >= 2) {
          rd_kafka_poll(producer, static_cast<int>(left - 1));
        } else {
          std::this_thread::sleep_until(due);
        }
      }
    }
    Produce(producer, o.topic, lines[i], i);
    rd_kafka_poll(producer, 0);
  }
  while (rd_kafka_outq_len(producer) > 0 || deliveries.done < lines.size()) {
    rd_kafka_poll(producer, 100);
  }
  rd_kafka_destroy(producer);

  if (o.report) {
    for (const Landing& l : deliveries.landings) {
      if (!l.delivered) continue;
      std::printf("%d\t%lld\t%lld\t%c\n", l.partition, static_cast<long long>(l.offset),
                  static_cast<long long>(l.timestamp_ms), l.timestamp_kind);
    }
  }
  if (deliveries.failed > 0) {
    std::fprintf(stderr, "paced_produce: %zu of %zu records were not delivered\n",
                 deliveries.failed, lines.size());
    return 1;
  }
  return 0;
}
