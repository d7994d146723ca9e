#include "store/shard_inspector.h"

#include <filesystem>
#include <system_error>

#include "store/time_decayed_filter.h"
#include "store/codec.h"
#include "store/expiry.h"
#include "store/keys.h"
#include "store/rocks_options.h"
#include "store/shard_db.h"
#include "store/shard_meta.h"
#include "store/simhash_tables.h"
#include "store/url_bloom.h"

namespace pagesieve::store {
namespace {

// An inspection reads a few keys or scans once: a small cache.
constexpr size_t kInspectorCacheBytes = 8u << 20;

uint64_t IntProperty(ShardDb* db, Cf cf, const char* name) {
  uint64_t v = 0;
  return db->db()->GetIntProperty(db->handle(cf), name, &v) ? v : 0;
}

// Every regular file under `dir`; what the shard costs on disk. Files a
// running writer deletes meanwhile are skipped, not errors.
uint64_t DirectoryBytes(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  uint64_t total = 0;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code size_ec;
    if (!it->is_regular_file(size_ec)) continue;
    const uintmax_t size = it->file_size(size_ec);
    if (!size_ec) total += size;
  }
  return total;
}

StatusOr<ShardIdentityInfo> CheckIdentity(ShardDb* db) {
  PS_ASSIGN_OR_RETURN(std::optional<ShardIdentity> stored, ReadIdentity(db));
  if (!stored) {
    return Status::FailedPrecondition("shard " + db->dir() +
                                      " has no identity yet (created, never used)");
  }
  if (!IsReadableFormat(stored->format_version)) {
    return Status::FailedPrecondition("shard " + db->dir() + " uses storage format " +
                                      std::to_string(stored->format_version) + ", " +
                                      ReadableFormatsText());
  }
  ShardIdentityInfo info;
  info.format_version = stored->format_version;
  info.fingerprint_version = stored->fingerprint_version;
  info.near_max_distance = static_cast<int>(stored->near_max_distance);
  info.near_blocks = static_cast<int>(stored->near_blocks);
  return info;
}

// The metadata alone, to learn the SimHash layout before opening the rest.
StatusOr<ShardIdentityInfo> ReadIdentityAt(const std::string& dir) {
  PS_ASSIGN_OR_RETURN(std::unique_ptr<ShardDb> meta, ShardDb::OpenReadOnly(dir));
  return CheckIdentity(meta.get());
}

// The writer's column family options, so that replaying the WAL builds the
// writer's hash memtables: with skiplists, replaying 52 MB of WAL took 35 s
// (docs/state-inspection.md). The compaction filters never run read-only.
std::vector<rocksdb::ColumnFamilyDescriptor> WriterFamilies(const ShardOptions& configured) {
  StateEnv::Resources resources;
  resources.block_cache = rocksdb::NewLRUCache(kInspectorCacheBytes);
  return MakeColumnFamilies(resources, configured, std::make_shared<const DurableWatermark>());
}

}  // namespace

StatusOr<std::unique_ptr<ShardInspector>> ShardInspector::Open(const std::string& dir,
                                                               const ShardOptions& configured) {
  PS_ASSIGN_OR_RETURN(ShardIdentityInfo identity, ReadIdentityAt(dir));
  PS_ASSIGN_OR_RETURN(NearLayout layout,
                      NearLayout::FromBlocks(identity.near_max_distance, identity.near_blocks));
  PS_ASSIGN_OR_RETURN(std::unique_ptr<ShardDb> db,
                      ShardDb::OpenReadOnly(dir, WriterFamilies(configured)));
  // The identity cannot change, but the shard could have been replaced by
  // another one between the two opens.
  PS_ASSIGN_OR_RETURN(ShardIdentityInfo again, CheckIdentity(db.get()));
  if (again.fingerprint_version != identity.fingerprint_version ||
      again.near_blocks != identity.near_blocks ||
      again.near_max_distance != identity.near_max_distance) {
    return Status::Unavailable("shard " + dir + " was replaced while it was opened; try again");
  }
  PS_ASSIGN_OR_RETURN(ShardProgress progress, LoadProgress(db.get()));
  identity.near_tables = layout.tables();
  std::unique_ptr<ShardInspector> inspector(
      new ShardInspector(std::move(db), configured));  // private constructor
  if (configured.minhash_slots > 0) {
    PS_ASSIGN_OR_RETURN(inspector->bands_,
                        LshBands::Create(configured.minhash_slots, configured.minhash_bits,
                                         configured.near_lsh_threshold));
  }
  inspector->identity_ = identity;
  inspector->watermark_ = progress.watermark;
  inspector->checkpointed_ = progress.next_offset;
  return inspector;
}

ShardInspector::ShardInspector(std::unique_ptr<ShardDb> db, const ShardOptions& configured)
    : db_(std::move(db)), configured_(configured) {}

ShardInspector::~ShardInspector() = default;

const std::string& ShardInspector::dir() const { return db_->dir(); }

StatusOr<const TimeDecayedFilter*> ShardInspector::Bloom() {
  if (!bloom_loaded_) {
    PS_ASSIGN_OR_RETURN(bloom_, LoadStoredUrlBloom(db_.get(), watermark_));
    bloom_loaded_ = true;
  }
  return static_cast<const TimeDecayedFilter*>(bloom_.get());
}

StatusOr<ShardReport> ShardInspector::Report() {
  ShardReport r;
  r.dir = dir();
  r.identity = identity_;
  r.watermark = watermark_;
  r.checkpointed_offset = checkpointed_;
  StoreFigures* stores[] = {&r.url, &r.exact, &r.near};
  const Cf cfs[] = {kUrlCf, kExactCf, kNearCf};
  for (size_t i = 0; i < std::size(cfs); ++i) {
    stores[i]->estimated_entries = IntProperty(db_.get(), cfs[i], "rocksdb.estimate-num-keys");
    stores[i]->sst_bytes = IntProperty(db_.get(), cfs[i], "rocksdb.live-sst-files-size");
  }
  for (int cf = 0; cf < kNumCfs; ++cf) {
    r.sst_bytes += IntProperty(db_.get(), static_cast<Cf>(cf), "rocksdb.live-sst-files-size");
  }
  r.dir_bytes = DirectoryBytes(r.dir);
  PS_ASSIGN_OR_RETURN(const TimeDecayedFilter* bloom, Bloom());
  if (bloom) {
    BloomFigures b;
    b.kind = bloom->kind();
    b.options = bloom->options();
    b.matches_config = IsConfiguredFilter(*bloom, configured_);
    b.memory_bytes = bloom->MemoryBytes();
    b.fill_ratio = bloom->FillRatio();
    b.estimated_false_positive_rate = bloom->EstimatedFalsePositiveRate();
    b.live_generations = bloom->live_generations();
    r.bloom = b;
  }
  if (bands_) {
    r.lsh = LshFigures{bands_->slots(), bands_->bits(), configured_.near_lsh_threshold,
                       bands_->bands(), bands_->rows()};
  }
  return r;
}

bool ShardInspector::Banded(std::string_view sketch) const {
  return bands_ && !sketch.empty() &&
         static_cast<unsigned char>(sketch[0]) == identity_.fingerprint_version &&
         bands_->Fits(sketch);
}

bool ShardInspector::CountRows(std::string_view near_value, StoreFigures::IndexRows* rows) const {
  StatusOr<NearIndexFields> fields = DecodeNearIndexFields(near_value);
  if (!fields.ok()) return false;
  for (int t = 0; t < identity_.near_tables; ++t) rows->simhash += fields->rows.HasTable(t);
  rows->simhash_of += static_cast<uint64_t>(identity_.near_tables);
  // A slim row keeps the keys of its bands instead of the sketch.
  if (fields->slim ? (!bands_ || fields->band_keys.empty()) : !Banded(fields->sketch)) {
    return false;
  }
  for (int b = 0; b < bands_->bands(); ++b) rows->lsh += fields->rows.HasBand(b);
  rows->lsh_of += static_cast<uint64_t>(bands_->bands());
  return true;
}

StatusOr<StoreFigures> ShardInspector::Count(int cf, std::optional<Duration> ttl) {
  rocksdb::ReadOptions options;
  options.total_order_seek = true;
  options.fill_cache = false;  // one pass over everything: keep the cache for lookups
  std::unique_ptr<rocksdb::Iterator> it(
      db_->db()->NewIterator(options, db_->handle(static_cast<Cf>(cf))));
  StoreFigures f;
  uint64_t stored = 0, live = 0, banded = 0, whole = 0;
  StoreFigures::IndexRows rows;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const std::string_view value(it->value().data(), it->value().size());
    if (cf == kNearCf) {
      // A home's whole incarnations are copies of near entries, not entries.
      if (it->key().size() == kHomeEntryKeySize) {
        ++whole;
        continue;
      }
      StatusOr<NearIndexFields> fields = DecodeNearIndexFields(value);
      whole += fields.ok() && !fields->slim;
    }
    ++stored;
    int64_t last_seen = 0;
    if (ttl && PeekLastSeen(value, &last_seen) &&
        IsLive(EventTimeFromMillis(last_seen), watermark_, *ttl)) {
      ++live;
      if (cf == kNearCf && CountRows(value, &rows)) ++banded;
    }
  }
  PS_RETURN_IF_ERROR(FromRocks(it->status(), "shard " + dir() + ": scan"));
  f.stored = stored;
  if (ttl) f.live = live;
  if (cf == kNearCf && bands_) f.banded = banded;
  if (cf == kNearCf && ttl) f.index_rows = rows;
  if (cf == kNearCf) f.whole = whole;
  return f;
}

Status ShardInspector::CountEntries(ShardReport* report) {
  struct Job {
    StoreFigures* figures;
    Cf cf;
    std::optional<Duration> ttl;
  };
  const Job jobs[] = {{&report->url, kUrlCf, configured_.url_ttl},
                      {&report->exact, kExactCf, configured_.exact_ttl},
                      {&report->near, kNearCf, configured_.near_ttl}};
  for (const Job& job : jobs) {
    PS_ASSIGN_OR_RETURN(StoreFigures counted, Count(job.cf, job.ttl));
    job.figures->stored = counted.stored;
    job.figures->live = counted.live;
    job.figures->banded = counted.banded;
    job.figures->index_rows = counted.index_rows;
    job.figures->whole = counted.whole;
  }
  return Status::Ok();
}

}  // namespace pagesieve::store
