// Throughput and size of one state shard (docs/state-store.md quotes the
// figures with the commands that produced them).
//
//   shard_bench --dir=/tmp/shard-bench --stages=1000000,10000000 [--ops=200000]
//               [--scopes=1] [--batch=1000] [--cache_mb=1024] [--buffer_mb=256]
//               [--near_tables=0] [--minhash_slots=256] [--lsh_threshold=0.6]
//               [--url_filter=bloom|cuckoo|fuse]
//
// For each stage N the shard is filled (through the Shard API, checkpointing
// every --batch records) until it holds N records, each with a URL, an exact
// and a near entry (a SimHash and a 264-byte MinHash sketch, indexed in the
// SimHash tables and the LSH bands derived for --lsh_threshold, by default
// the engine's: near.containment_jaccard 0.6, 33 bands of 4 rows); then every store is measured on
// --ops operations, half on stored records (hits, chosen uniformly over all N) and half on new
// ones, and so is the whole per-record sequence of the engine. A near copy of a stored record flips
// 1 to 3 bits of its SimHash and a fifth of its sketch's slots (keeping one band whole). An "op" is
// one lookup, insert or touch call; checkpoints are inside the timed loops. An existing directory
// is resumed, so stages can grow one shard step by step. Before measuring, each stage waits until
// RocksDB has no compaction left.
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "common/split_mix64.h"
#include "store/shard_probe.h"
#include "store/state_env.h"
#include "store/testing/synthetic_records.h"

namespace pagesieve::store::bench {
namespace {

using testing::FlipBits;
using testing::MakeSyntheticRecord;
using testing::NearCopySketch;
using testing::SyntheticRecord;
using testing::SyntheticRecordTime;

struct Flags {
  std::string dir = "/tmp/pagesieve-shard-bench";
  std::vector<uint64_t> stages = {1'000'000};
  uint64_t ops = 200'000;
  uint64_t scopes = 1;
  uint64_t batch = 1000;
  int cache_mb = 1024;
  int buffer_mb = 256;
  int near_tables = 0;  // near.tables: 0 derives it from the distance (3)
  // near.minhash_slots: 0 stores the sketches without indexing their bands
  // (what storing them costs apart from the LSH index).
  int minhash_slots = testing::kSyntheticSketchSlots;
  // The Jaccard the LSH bands are derived for (ShardOptions::
  // near_lsh_threshold); 0.8 gives the 25 bands of 8 rows of near.jaccard
  // alone, as measured before the containment rule.
  double lsh_threshold = 0.6;
  FilterKind url_filter = ShardOptions().url_filter;  // url.filter: bloom or cuckoo
};

constexpr uint64_t kFresh = uint64_t{1} << 40;  // ids of records made while measuring
constexpr int64_t kTimedOffsets = int64_t{1} << 50;

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "shard_bench: %s\n", what.c_str());
  std::exit(1);
}

void Check(const Status& s) {
  if (!s.ok()) Die(s.ToString());
}

Flags ParseFlags(int argc, char** argv) {
  Flags f;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    if (arg.rfind("--", 0) != 0 || eq == std::string::npos) Die("bad flag " + arg);
    const std::string name = arg.substr(2, eq - 2), value = arg.substr(eq + 1);
    if (name == "dir") {
      f.dir = value;
    } else if (name == "stages") {
      f.stages.clear();
      for (size_t p = 0; p <= value.size();) {
        const size_t c = value.find(',', p);
        f.stages.push_back(std::stoull(value.substr(p, c - p)));
        p = c == std::string::npos ? value.size() + 1 : c + 1;
      }
    } else if (name == "ops") {
      f.ops = std::stoull(value);
    } else if (name == "scopes") {
      f.scopes = std::stoull(value);
    } else if (name == "batch") {
      f.batch = std::stoull(value);
    } else if (name == "cache_mb") {
      f.cache_mb = std::stoi(value);
    } else if (name == "buffer_mb") {
      f.buffer_mb = std::stoi(value);
    } else if (name == "near_tables") {
      f.near_tables = std::stoi(value);
    } else if (name == "url_filter") {
      if (value != "bloom" && value != "cuckoo" && value != "fuse") {
        Die("--url_filter must be bloom, cuckoo or fuse");
      }
      f.url_filter = value == "bloom"    ? FilterKind::kBloom
                     : value == "cuckoo" ? FilterKind::kCuckoo
                                         : FilterKind::kFuse;
    } else if (name == "minhash_slots") {
      f.minhash_slots = std::stoi(value);
    } else if (name == "lsh_threshold") {
      f.lsh_threshold = std::stod(value);
    } else {
      Die("unknown flag " + arg);
    }
  }
  return f;
}

double CpuSeconds(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// Wall time, the CPU time of this (the shard's) thread, and of the process
// (which adds RocksDB's flushes and compactions). Per-core rates divide by
// the thread's CPU time: on a shared machine wall time also counts the
// time other processes held the core.
struct Timer {
  std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
  double thread = CpuSeconds(CLOCK_THREAD_CPUTIME_ID);
  double process = CpuSeconds(CLOCK_PROCESS_CPUTIME_ID);

  std::string Report(double units, const char* unit) const {
    const double w = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
    const double t = CpuSeconds(CLOCK_THREAD_CPUTIME_ID) - thread;
    const double p = CpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - process;
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "%9.0f %s/s per core (%8.0f per wall s; %.1f s wall, %.1f s thread CPU, %.1f s "
                  "process CPU)",
                  units / t, unit, units / w, w, t, p);
    return buf;
  }
};

// Drives one shard: event time advances by 1 ms per record, offsets count up.
class Driver {
 public:
  // Records are spread over six days of event time at the largest stage, as
  // a crawl spreads them over url.ttl (7 days): the Bloom filter's
  // generations are sized for that.
  Driver(Shard* shard, const Flags& flags)
      : shard_(shard),
        flags_(flags),
        spacing_ms_(
            std::max<int64_t>(1, 6 * 86'400'000 / static_cast<int64_t>(flags.stages.back()))) {}

  uint64_t stored() const { return stored_; }
  void set_stored(uint64_t n) { stored_ = n; }

  void Fill(uint64_t target) {
    const Timer timer;
    const uint64_t from = stored_;
    for (uint64_t i = from; i < target; ++i) {
      Insert(MakeSyntheticRecord(i, flags_.scopes, SyntheticRecordTime(i, spacing_ms_)));
      stored_ = i + 1;
      if (stored_ % flags_.batch == 0) Check(shard_->Checkpoint(Offset(stored_)));
      if (stored_ % 1'000'000 == 0 && stored_ != target) {
        std::printf("  filled %llu: %s\n", static_cast<unsigned long long>(stored_),
                    timer.Report(static_cast<double>(stored_ - from), "records").c_str());
      }
    }
    Check(shard_->Checkpoint(Offset(stored_)));
    std::printf("fill %llu -> %llu: %s\n", static_cast<unsigned long long>(from),
                static_cast<unsigned long long>(target),
                timer.Report(static_cast<double>(target - from), "records").c_str());
  }

  void Insert(const SyntheticRecord& r) {
    Check(shard_->RecordUrl(r.scope, r.url, r.origin, r.origin.event_time, r.content));
    Check(shard_->InsertContent(r.scope, r.content, r.origin));
    Check(shard_->InsertNear(r.scope, r.simhash, r.sketch, r.origin));
  }

  // Records for one timed loop: even j a stored record (with a new one in
  // `fresh`, for pages that copy only part of it), odd j a new one.
  struct Work {
    SyntheticRecord record;
    SyntheticRecord fresh;
    bool stored;
  };
  std::vector<Work> Workload(uint64_t n, uint64_t salt) {
    std::vector<Work> out;
    out.reserve(n);
    for (uint64_t j = 0; j < n; ++j) {
      const bool stored = j % 2 == 0;
      const uint64_t old = SplitMix64(j ^ salt) % stored_;
      out.push_back(
          {stored ? MakeSyntheticRecord(old, flags_.scopes, SyntheticRecordTime(old, spacing_ms_))
                  : Fresh(),
           stored ? Fresh() : SyntheticRecord{}, stored});
    }
    return out;
  }

  // Runs `step` over a workload, checkpointing every batch, and prints the
  // rates; `step` returns how many store calls it made.
  void Timed(const char* name, uint64_t salt, const std::function<int(const Work&)>& step) {
    std::vector<Work> work = Workload(flags_.ops, salt);
    uint64_t ops = 0;
    const Timer timer;
    for (uint64_t j = 0; j < work.size(); ++j) {
      ops += step(work[j]);
      if ((j + 1) % flags_.batch == 0) Check(shard_->Checkpoint(TimedOffset()));
    }
    Check(shard_->Checkpoint(TimedOffset()));
    std::printf("  %-7s %s, %.2f ops/record\n", name,
                timer.Report(static_cast<double>(ops), "ops").c_str(),
                static_cast<double>(ops) / static_cast<double>(work.size()));
  }

  // Event time moves on from the last record of the fill (or the watermark
  // a resumed shard opened at), 1 ms per call.
  EventTime Now() {
    return std::max(SyntheticRecordTime(stored_, spacing_ms_), opened_at_) + Duration(++clock_);
  }
  SyntheticRecord Fresh() {
    return MakeSyntheticRecord(kFresh + fresh_salt_ + fresh_++, flags_.scopes, Now());
  }
  // A resumed shard holds the new records of earlier runs: this run's are
  // numbered from the watermark it opened at, which each run moves on (Now).
  void Resume(EventTime watermark) {
    opened_at_ = watermark;
    fresh_salt_ = static_cast<uint64_t>(std::max<int64_t>(0, ToMillis(watermark)) + 1) << 24;
  }

  Shard* shard_;
  const Flags& flags_;
  const int64_t spacing_ms_;
  uint64_t stored_ = 0;
  uint64_t fresh_ = 0;
  uint64_t fresh_salt_ = 0;
  EventTime opened_at_{};
  int64_t clock_ = 0;
  // Checkpoints of the timed loops still say how many records were filled,
  // so a run that stops there resumes without filling again.
  Offset TimedOffset() const { return Offset(kTimedOffsets + static_cast<int64_t>(stored_)); }
  uint64_t misses_ = 0;  // answers contradicting the workload (must stay 0)
};

void MeasureStores(Driver& d) {
  Shard& s = *d.shard_;
  d.Timed("url", 1, [&](const Driver::Work& w) {
    const SyntheticRecord& r = w.record;
    UrlLookup u = s.LookupUrl(r.scope, r.url).value();
    d.misses_ += u.seen != w.stored;
    Check(s.RecordUrl(r.scope, r.url, r.origin, d.Now(), r.content));
    return 2;
  });
  d.Timed("exact", 2, [&](const Driver::Work& w) {
    const SyntheticRecord& r = w.record;
    std::optional<ContentEntry> e = s.LookupContent(r.scope, r.content).value();
    d.misses_ += e.has_value() != w.stored;
    Check(e ? s.TouchContent(r.scope, r.content, d.Now())
            : s.InsertContent(r.scope, r.content, r.origin));
    return 2;
  });
  d.Timed("near", 3, [&](const Driver::Work& w) {
    const SyntheticRecord& r = w.record;
    NearQuery q{r.simhash, 3, r.sketch};
    std::string copy;
    if (w.stored) {
      q.simhash = FlipBits(r.simhash, 1 + static_cast<int>(r.simhash % 3), r.simhash);
      copy = NearCopySketch(r.sketch, r.simhash);
      q.sketch = copy;
    }
    std::vector<NearCandidate> m = s.FindNear(r.scope, q).value();
    const bool banded = d.flags_.minhash_slots > 0;
    d.misses_ +=
        m.empty() == w.stored || (w.stored && !(m[0].in_tables && m[0].in_bands == banded));
    Check(!m.empty() ? s.TouchNear(r.scope, m[0].simhash, d.Now())
                     : s.InsertNear(r.scope, r.simhash, r.sketch, r.origin));
    return 2;
  });
}

// The engine's sequence for one record: URL, then exact, then near, then
// insert. New records run all three lookups and three inserts; stored ones
// come back as a URL revisit, an exact copy at a new URL or a near copy, in turn.
void MeasureRecords(Driver& d) {
  Shard& s = *d.shard_;
  uint64_t turn = 0;
  d.Timed("record", 4, [&](const Driver::Work& w) {
    // The page: a new record, or a new one copying the stored record's URL
    // (kind 0), content (kind 1) or, nearly, its text (kind 2).
    SyntheticRecord p = w.stored ? w.fresh : w.record;
    const int kind = w.stored ? static_cast<int>(turn++ % 3) : -1;
    if (w.stored) p.scope = w.record.scope;
    if (kind == 0) p.url = w.record.url;
    if (kind == 0 || kind == 1) p.content = w.record.content;
    if (kind == 2) {
      p.simhash = FlipBits(w.record.simhash, 2, p.simhash);
      p.sketch = NearCopySketch(w.record.sketch, p.simhash);
    }
    if (s.LookupUrl(p.scope, p.url).value().seen) {
      d.misses_ += kind != 0;
      Check(s.RecordUrl(p.scope, p.url, p.origin, d.Now(), p.content));
      return 2;
    }
    if (s.LookupContent(p.scope, p.content).value()) {
      d.misses_ += kind != 1;
      Check(s.RecordUrl(p.scope, p.url, p.origin, d.Now(), p.content));
      Check(s.TouchContent(p.scope, p.content, d.Now()));
      return 4;
    }
    std::vector<NearCandidate> m = s.FindNear(p.scope, {p.simhash, 3, p.sketch}).value();
    d.misses_ += m.empty() == (kind == 2);
    Check(s.RecordUrl(p.scope, p.url, p.origin, d.Now(), p.content));
    Check(s.InsertContent(p.scope, p.content, p.origin));
    Check(!m.empty() ? s.TouchNear(p.scope, m[0].simhash, d.Now())
                     : s.InsertNear(p.scope, p.simhash, p.sketch, p.origin));
    return 6;
  });
}

// A bulk fill leaves RocksDB a compaction debt that a crawl arriving at its
// own pace would not: until it is paid, every lookup probes more files, and
// the figures measured depend on how much of it is left (up to 2x at 10 M).
// So each stage waits for the tree to settle, and says how long that took.
void Settle(ShardProbe& shard) {
  double waited = 0;
  while (shard.BackgroundWorkPending()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    waited += 0.2;
  }
  std::printf("settled: compactions done after %.1f s\n", waited);
}

void PrintSizes(ShardProbe& shard, const ShardStats& stats, uint64_t n) {
  Check(shard.FlushAll());
  auto per = [n](uint64_t bytes) { return static_cast<double>(bytes) / static_cast<double>(n); };
  const struct {
    const char* name;
    std::vector<Cf> cfs;
  } stores[] = {{"url", {kUrlCf}}, {"exact", {kExactCf}}, {"near", {kNearCf}}};
  for (const auto& st : stores) {
    ShardProbe::CfFigures sum;
    for (Cf cf : st.cfs) {
      ShardProbe::CfFigures f = shard.Figures(cf).value();
      sum.sst_bytes += f.sst_bytes;
      sum.index_bytes += f.index_bytes;
      sum.filter_bytes += f.filter_bytes;
    }
    std::printf("  %-6s disk %6.1f B/entry   index+filter %5.1f B/entry (in the block cache)\n",
                st.name, per(sum.sst_bytes), per(sum.index_bytes + sum.filter_bytes));
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("  near   index %.1f B/entry in memory (%d tables, %.2f indexed per entry)\n",
              per(stats.near_index_memory_bytes), stats.near_tables, per(stats.near_index_entries));
  std::printf(
      "  lsh    index %.1f B/entry in memory (%d bands x %d rows, %.2f indexed per entry)\n",
      per(stats.lsh_index_memory_bytes), stats.lsh_bands, stats.lsh_rows,
      per(stats.lsh_index_entries));
  std::printf("  bloom  %.2f B/URL in memory (fill %.3f, est. FPR %.4f)\n",
              per(stats.bloom_memory_bytes), stats.bloom_fill_ratio,
              stats.bloom_false_positive_rate);
  std::printf("  total  disk %.1f B/record; process max RSS %.0f MiB\n", per(stats.disk_bytes),
              usage.ru_maxrss / 1024.0);
}

int Run(const Flags& flags) {
  StateEnvOptions env_options;
  env_options.dir = flags.dir;
  env_options.block_cache_bytes = static_cast<uint64_t>(flags.cache_mb) << 20;
  env_options.write_buffer_bytes = static_cast<uint64_t>(flags.buffer_mb) << 20;
  env_options.sync = false;
  std::unique_ptr<StateEnv> env = StateEnv::Create(env_options).value();
  ShardOptions options;
  options.fingerprint_version = testing::kSyntheticFingerprintVersion;
  options.url_expected_items = flags.stages.back() + 3 * flags.ops * flags.stages.size();
  options.near_tables = flags.near_tables;
  options.url_filter = flags.url_filter;
  options.minhash_slots = flags.minhash_slots;
  options.near_lsh_threshold = flags.lsh_threshold;
  const Timer open_timer;
  std::unique_ptr<Shard> shard = env->OpenShard("bench", PartitionId(0), options).value();
  const ShardStats opened = shard->Stats();
  std::printf("open: %s (SimHash and LSH indexes rebuilt from the entries)\n",
              open_timer.Report(static_cast<double>(opened.near_index_entries), "entries").c_str());
  ShardProbe probe(*shard);
  Driver driver(shard.get(), flags);
  driver.Resume(shard->watermark());
  const int64_t resumed = shard->checkpointed_offset().value_or(Offset(0)).value();
  driver.set_stored(static_cast<uint64_t>(resumed % kTimedOffsets));
  for (uint64_t n : flags.stages) {
    if (n > driver.stored()) driver.Fill(n);
    Settle(probe);
    std::printf("stage %llu records, %llu scopes, batch %llu:\n",
                static_cast<unsigned long long>(n), static_cast<unsigned long long>(flags.scopes),
                static_cast<unsigned long long>(flags.batch));
    MeasureStores(driver);
    MeasureRecords(driver);
    PrintSizes(probe, shard->Stats(), n);
    if (driver.misses_ != 0)
      Die(std::to_string(driver.misses_) + " answers contradicted the workload");
    Check(shard->Checkpoint(Offset(static_cast<int64_t>(driver.stored()))));
  }
  return 0;
}

}  // namespace
}  // namespace pagesieve::store::bench

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // lines show as they come, also in a file
  return pagesieve::store::bench::Run(pagesieve::store::bench::ParseFlags(argc, argv));
}
