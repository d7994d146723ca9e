// "Reads see the batch": RocksDB's WriteBatchWithIndex against the shard's
// own overlay (a hash map of pending writes, ShardDb), on the operations a
// shard makes between two checkpoints. docs/state-store.md quotes the result.
//
//   overlay_bench [dir]     (run it under valgrind --tool=callgrind too)
//
// Point reads: a third of the keys are pending, a third committed, a third
// absent. Scans: one prefix probe each, as FindNear makes ten per lookup;
// WriteBatchWithIndex needs a new base iterator per probe (it takes
// ownership), the overlay reuses one database iterator.
#include <rocksdb/db.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/utilities/write_batch_with_index.h>
#include <time.h>

#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

constexpr int kStored = 200'000;
constexpr int kPending = 1'000;
constexpr int kReads = 200'000;
constexpr int kProbes = 50'000;

double ThreadCpu() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

void Report(const char* what, int n, const std::function<void()>& body) {
  const double start = ThreadCpu();
  body();
  std::printf("%-44s %8.0f ns/op\n", what, (ThreadCpu() - start) * 1e9 / n);
}

std::string Key(uint64_t i) {
  std::mt19937_64 rng(i);
  std::string k(24, '\0');
  for (char& c : k) c = static_cast<char>(rng());
  return k;
}

void Check(const rocksdb::Status& s) {
  if (!s.ok()) {
    std::fprintf(stderr, "overlay_bench: %s\n", s.ToString().c_str());
    std::exit(1);
  }
}

struct Setup {
  std::unique_ptr<rocksdb::DB> db;
  std::vector<std::string> pending;  // written since the last commit
  std::vector<std::string> reads;    // a third pending, a third stored, a third absent
  const std::string value = std::string(100, 'v');
};

void Fill(Setup& s, const std::string& dir, const rocksdb::Options& options) {
  rocksdb::DB* raw = nullptr;
  Check(rocksdb::DB::Open(options, dir, &raw));
  s.db.reset(raw);
  for (int i = 0; i < kStored; ++i) Check(s.db->Put(rocksdb::WriteOptions(), Key(i), s.value));
  Check(s.db->Flush(rocksdb::FlushOptions()));
  for (int i = 0; i < kPending; ++i) s.pending.push_back(Key(kStored + i));
  for (int i = 0; i < kReads; ++i) {
    s.reads.push_back(i % 3 == 0   ? s.pending[i % kPending]
                      : i % 3 == 1 ? Key(static_cast<uint64_t>(i) * 7 % kStored)
                                   : Key(10 * kStored + i));
  }
}

size_t MeasureReads(Setup& s, const std::unordered_map<std::string, std::string>& overlay,
                    rocksdb::WriteBatchWithIndex& wbwi) {
  size_t found = 0;
  rocksdb::PinnableSlice slice;
  rocksdb::DB* db = s.db.get();
  Report("point read: overlay, then DB::Get", kReads, [&] {
    for (const std::string& k : s.reads) {
      if (overlay.count(k) != 0) {
        ++found;
        continue;
      }
      slice.Reset();
      found += db->Get(rocksdb::ReadOptions(), db->DefaultColumnFamily(), k, &slice).ok();
    }
  });
  Report("point read: GetFromBatchAndDB", kReads, [&] {
    for (const std::string& k : s.reads) {
      slice.Reset();
      found += wbwi.GetFromBatchAndDB(db, rocksdb::ReadOptions(), k, &slice).ok();
    }
  });
  return found;
}

size_t MeasureProbes(Setup& s, const std::unordered_map<std::string, std::string>& overlay,
                     rocksdb::WriteBatchWithIndex& wbwi) {
  size_t found = 0;
  rocksdb::ReadOptions scan;
  scan.prefix_same_as_start = true;
  rocksdb::DB* db = s.db.get();
  std::unique_ptr<rocksdb::Iterator> reused(db->NewIterator(scan));
  Report("prefix probe: reused DB iterator + overlay", kProbes, [&] {
    for (int i = 0; i < kProbes; ++i) {
      const std::string probe = s.reads[i].substr(0, 12);
      for (reused->Seek(probe); reused->Valid(); reused->Next()) ++found;
      found += overlay.count(probe);  // the overlay's probe index is a hash lookup
    }
  });
  Report("prefix probe: NewIteratorWithBase per probe", kProbes, [&] {
    for (int i = 0; i < kProbes; ++i) {
      const std::string probe = s.reads[i].substr(0, 12);
      std::unique_ptr<rocksdb::Iterator> it(
          wbwi.NewIteratorWithBase(db->DefaultColumnFamily(), db->NewIterator(scan)));
      for (it->Seek(probe); it->Valid() && it->key().starts_with(probe); it->Next()) ++found;
    }
  });
  return found;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : "/tmp/pagesieve-overlay-bench";
  rocksdb::Options options;
  options.create_if_missing = true;
  options.prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(12));
  rocksdb::DestroyDB(dir, options).PermitUncheckedError();
  Setup s;
  Fill(s, dir, options);

  std::unordered_map<std::string, std::string> overlay;
  rocksdb::WriteBatchWithIndex wbwi(rocksdb::BytewiseComparator(), 0, true);
  Report("write 1000 pending keys: overlay", kPending, [&] {
    for (const std::string& k : s.pending) overlay[k] = s.value;
  });
  Report("write 1000 pending keys: WriteBatchWithIndex", kPending, [&] {
    for (const std::string& k : s.pending) Check(wbwi.Put(k, s.value));
  });
  size_t found = MeasureReads(s, overlay, wbwi);
  found += MeasureProbes(s, overlay, wbwi);
  std::printf("(%zu found)\n", found);
  s.db.reset();
  rocksdb::DestroyDB(dir, options).PermitUncheckedError();
  return 0;
}
