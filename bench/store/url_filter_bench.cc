// The URL store's time-decayed filters side by side: memory per live key,
// measured false-positive rate, insert and lookup cost, and what persisting
// and restoring them costs.
//
//   url_filter_bench [--kinds=bloom,cuckoo,fuse] [--items=1000000,10000000,100000000]
//                    [--rate=0.01] [--queries=10000000] [--page-bytes=64]
//
// Each filter is sized for `items` live keys per ttl, as the shard sizes it
// (the Bloom with url.bloom_generations = 4, the cuckoo with its 7 tag
// generations, the fuse with its 8), then filled in the worst phase of the
// cycle: every live generation holding its share, the oldest about to
// expire. Rates are per second of this thread's CPU time.
// docs/bloom-filter.md quotes the output.
//
// The fuse filter keeps its key logs in a page store: here a map in this
// process, written every 10,000 inserts as the shard's checkpoints would
// (its memory figure counts what the filter holds, not the map). Its insert
// time includes those checkpoints and the rebuilds at each generation
// boundary of the fill; `next_generation` is one rebuild.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/split_mix64.h"
#include "store/bloom/time_decayed_bloom.h"
#include "store/cuckoo/time_decayed_cuckoo.h"
#include "store/fuse/time_decayed_fuse.h"

namespace pagesieve::store {
namespace {

struct Flags {
  std::vector<std::string> kinds = {"bloom", "cuckoo", "fuse"};
  std::vector<uint64_t> items = {1'000'000, 10'000'000, 100'000'000};
  double rate = 0.01;
  uint64_t queries = 10'000'000;
  size_t page_bytes = 64;
};

double CpuNow() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "url_filter_bench: %s\n", what.c_str());
  std::exit(1);
}

// The pages a checkpoint wrote, as the shard's bloom column family holds
// them; the fuse filter reads its key logs back from it.
using PageMap = std::map<uint32_t, std::string>;

class MapPageStore final : public FilterPageStore {
 public:
  explicit MapPageStore(const PageMap* pages) : pages_(pages) {}
  StatusOr<std::string> Read(uint32_t page_id) const override {
    auto it = pages_->find(page_id);
    if (it == pages_->end()) return Status::NotFound("no page " + std::to_string(page_id));
    return it->second;
  }

 private:
  const PageMap* pages_;
};

void Checkpoint(TimeDecayedFilter& f, PageMap* pages) {
  f.ForEachDirtyPage([&](uint32_t id, std::string_view bytes) { (*pages)[id] = bytes; });
  f.ClearDirty();
}

// A filter and what the fill needs to know of its shape.
struct Built {
  std::unique_ptr<TimeDecayedFilter> filter;
  uint64_t keys_per_generation = 0;
  int64_t width_ms = 0;
  int live_generations = 0;  // G + 1
};

Built Make(const std::string& kind, const BloomOptions& base) {
  BloomOptions o = base;
  Built b;
  if (kind == "bloom") {
    o.generations = 4;
    auto f = TimeDecayedBloom::Create(o);
    if (!f.ok()) Die(f.status().ToString());
    b.keys_per_generation = (*f)->geometry().keys_per_generation;
    b.width_ms = (*f)->geometry().generation_width.count();
    b.filter = std::move(*f);
  } else if (kind == "cuckoo") {
    o.generations = 7;
    auto f = TimeDecayedCuckoo::Create(o);
    if (!f.ok()) Die(f.status().ToString());
    b.keys_per_generation = (*f)->geometry().keys_per_generation;
    b.width_ms = (*f)->geometry().generation_width.count();
    b.filter = std::move(*f);
  } else if (kind == "fuse") {
    o.generations = fuse::kFuseGenerations;
    auto f = TimeDecayedFuse::Create(o);
    if (!f.ok()) Die(f.status().ToString());
    b.keys_per_generation = (*f)->geometry().keys_per_generation;
    b.width_ms = (*f)->geometry().generation_width.count();
    b.filter = std::move(*f);
  } else {
    Die("unknown kind " + kind);
  }
  b.live_generations = o.generations + 1;
  return b;
}

constexpr int64_t kFirstMs = 1'800'000'000'000;

void Run(const Flags& flags, const std::string& kind, uint64_t items) {
  BloomOptions o;
  o.expected_items = items;
  o.false_positive_rate = flags.rate;
  o.page_bytes = flags.page_bytes;
  Built b = Make(kind, o);
  TimeDecayedFilter& f = *b.filter;
  const bool logs = kind == "fuse";
  PageMap stored;
  f.AttachPageStore(std::make_unique<MapPageStore>(&stored));

  SplitMix64Stream keys(1);
  uint64_t inserted = 0;
  // The fill's generations are the filter's: the last one is then the whole
  // open generation (the worst moment), not a part of it.
  const int64_t first_ms = (kFirstMs + b.width_ms - 1) / b.width_ms * b.width_ms;
  double start = CpuNow();
  for (int g = 0; g < b.live_generations; ++g) {
    for (uint64_t i = 0; i < b.keys_per_generation; ++i, ++inserted) {
      const int64_t t =
          first_ms + g * b.width_ms +
          static_cast<int64_t>(i * static_cast<uint64_t>(b.width_ms) / b.keys_per_generation);
      f.Insert(keys.Next(), EventTimeFromMillis(t));
      if (logs && inserted % 10'000 == 9'999) Checkpoint(f, &stored);
    }
  }
  if (logs) Checkpoint(f, &stored);
  if (!f.status().ok()) Die(f.status().ToString());
  const double insert_ns = (CpuNow() - start) * 1e9 / static_cast<double>(inserted);

  SplitMix64Stream absent(0xBADC0FFEE);
  uint64_t hits = 0;
  start = CpuNow();
  for (uint64_t i = 0; i < flags.queries; ++i) hits += f.MayContain(absent.Next());
  const double absent_ns = (CpuNow() - start) * 1e9 / static_cast<double>(flags.queries);
  const double fpr = static_cast<double>(hits) / static_cast<double>(flags.queries);
  const double half_ci = 1.96 * std::sqrt(fpr * (1 - fpr) / static_cast<double>(flags.queries));

  // Present keys: the last generation's, which are live in both filters.
  SplitMix64Stream present(1);
  for (uint64_t i = 0; i < inserted - b.keys_per_generation; ++i) present.Next();
  uint64_t found = 0;
  start = CpuNow();
  for (uint64_t i = 0; i < b.keys_per_generation; ++i) found += f.MayContain(present.Next());
  const double present_ns = (CpuNow() - start) * 1e9 / static_cast<double>(b.keys_per_generation);
  if (found != b.keys_per_generation) Die("a live key was not found");

  // Persisting everything (a first checkpoint), then restoring it. The
  // fuse filter's last rebuild was checkpointed during the fill: what a
  // restore reads is its sealed and open pages, not the key logs.
  std::vector<std::pair<uint32_t, std::string>> pages;
  uint64_t page_bytes = 0;
  start = CpuNow();
  const std::string header = f.EncodeHeader();
  if (logs) {
    for (const auto& [id, bytes] : stored) {
      if (id >= f.LoadedPageEnd()) break;
      pages.emplace_back(id, bytes);
      page_bytes += bytes.size();
    }
  } else {
    f.ForEachDirtyPage([&](uint32_t id, std::string_view bytes) {
      pages.emplace_back(id, std::string(bytes));
      page_bytes += bytes.size();
    });
  }
  const double persist_s = CpuNow() - start;
  f.ClearDirty();
  start = CpuNow();
  std::unique_ptr<TimeDecayedFilter> back;
  if (kind == "bloom") {
    auto r = TimeDecayedBloom::Restore(header);
    if (!r.ok()) Die(r.status().ToString());
    back = std::move(*r);
  } else if (kind == "cuckoo") {
    auto r = TimeDecayedCuckoo::Restore(header);
    if (!r.ok()) Die(r.status().ToString());
    back = std::move(*r);
  } else {
    auto r = TimeDecayedFuse::Restore(header);
    if (!r.ok()) Die(r.status().ToString());
    back = std::move(*r);
  }
  for (const auto& [id, bytes] : pages) {
    if (Status s = back->LoadPage(id, bytes); !s.ok()) Die(s.ToString());
  }
  const double restore_s = CpuNow() - start;
  {
    // The restored filter answers as the original (a sample of present keys).
    SplitMix64Stream last(1);
    for (uint64_t i = 0; i < inserted - b.keys_per_generation; ++i) last.Next();
    for (uint64_t i = 0; i < b.keys_per_generation && i < 100'000; ++i) {
      if (!back->MayContain(last.Next())) Die("the restored filter lost a live key");
    }
  }

  // A steady checkpoint: 1,000 new keys in the newest generation.
  SplitMix64Stream fresh(77);
  const int64_t newest = first_ms + (b.live_generations - 1) * b.width_ms;
  for (int i = 0; i < 1000; ++i) f.Insert(fresh.Next(), EventTimeFromMillis(newest));
  uint64_t checkpoint_bytes = 0;
  f.ForEachDirtyPage([&](uint32_t, std::string_view bytes) { checkpoint_bytes += bytes.size(); });

  // One generation on: the oldest expires (for the cuckoo, a sweep of the
  // table, once per generation).
  if (logs) Checkpoint(f, &stored);
  start = CpuNow();
  f.AdvanceWatermark(EventTimeFromMillis(ToMillis(f.watermark()) + b.width_ms));
  const double advance_s = CpuNow() - start;
  if (!f.status().ok()) Die(f.status().ToString());

  const double bits_per_live =
      8.0 * static_cast<double>(f.MemoryBytes()) / static_cast<double>(items);
  std::printf(
      "%-6s items=%-10llu memory=%.1fMB bits/live_key=%.2f fpr=%.5f (+-%.5f, 95%%, %llu probes) "
      "estimated=%.5f insert=%.0fns lookup_absent=%.0fns lookup_present=%.0fns "
      "persist_all=%.3fs (%.1fMB, %zu pages) restore=%.3fs checkpoint_1000=%.1fKB "
      "next_generation=%.3fs\n",
      kind.c_str(), static_cast<unsigned long long>(items),
      static_cast<double>(f.MemoryBytes()) / 1e6, bits_per_live, fpr, half_ci,
      static_cast<unsigned long long>(flags.queries), f.EstimatedFalsePositiveRate(), insert_ns,
      absent_ns, present_ns, persist_s, static_cast<double>(page_bytes) / 1e6, pages.size(),
      restore_s, static_cast<double>(checkpoint_bytes) / 1e3, advance_s);
  std::fflush(stdout);
}

std::vector<std::string> Split(std::string_view s) {
  std::vector<std::string> out;
  while (!s.empty()) {
    const size_t comma = s.find(',');
    out.emplace_back(s.substr(0, comma));
    s = comma == std::string_view::npos ? std::string_view() : s.substr(comma + 1);
  }
  return out;
}

Flags ParseFlags(int argc, char** argv) {
  Flags f;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const size_t eq = arg.find('=');
    const std::string_view name = arg.substr(0, eq);
    const std::string value(eq == std::string_view::npos ? "" : arg.substr(eq + 1));
    if (name == "--kinds") {
      f.kinds = Split(value);
    } else if (name == "--items") {
      f.items.clear();
      for (const std::string& v : Split(value)) f.items.push_back(std::stoull(v));
    } else if (name == "--rate") {
      f.rate = std::stod(value);
    } else if (name == "--queries") {
      f.queries = std::stoull(value);
    } else if (name == "--page-bytes") {
      f.page_bytes = std::stoul(value);
    } else {
      Die("unknown flag " + std::string(arg));
    }
  }
  return f;
}

}  // namespace
}  // namespace pagesieve::store

int main(int argc, char** argv) {
  using namespace pagesieve::store;
  const Flags flags = ParseFlags(argc, argv);
  for (uint64_t items : flags.items) {
    for (const std::string& kind : flags.kinds) Run(flags, kind, items);
  }
  return 0;
}
