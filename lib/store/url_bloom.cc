#include "store/url_bloom.h"

#include <string>

#include "store/bloom/time_decayed_bloom.h"
#include "store/codec.h"
#include "store/cuckoo/cuckoo_format.h"
#include "store/cuckoo/time_decayed_cuckoo.h"
#include "store/expiry.h"
#include "store/fuse/fuse_format.h"
#include "store/fuse/fuse_geometry.h"
#include "store/fuse/time_decayed_fuse.h"
#include "store/keys.h"
#include "store/shard_meta.h"

namespace pagesieve::store {
namespace {

// Entries a rebuild reads between looks at its stop token: a few
// milliseconds of work, so a stopped open ends at once.
constexpr uint64_t kStopCheckInterval = 4096;

// A filter's pages read back from the bloom column family on demand (the
// fuse filter's key logs). Reads committed state: a filter only asks for
// pages an earlier checkpoint wrote.
class ShardPageStore final : public FilterPageStore {
 public:
  explicit ShardPageStore(ShardDb* db) : db_(db) {}
  StatusOr<std::string> Read(uint32_t page_id) const override {
    std::string value;
    const rocksdb::Status s = db_->db()->Get(rocksdb::ReadOptions(), db_->handle(kBloomCf),
                                             UrlBloomPageKey(page_id), &value);
    if (s.IsNotFound()) {
      return Status::Corruption("shard " + db_->dir() + ": filter page " + std::to_string(page_id) +
                                " missing");
    }
    PS_RETURN_IF_ERROR(FromRocks(s, "shard " + db_->dir() + ": filter page"));
    return value;
  }

 private:
  ShardDb* db_;
};

Status LoadPages(ShardDb* db, TimeDecayedFilter* bloom) {
  rocksdb::ReadOptions read;
  // Pages from LoadedPageEnd() on are read on demand (the fuse filter's key
  // logs, as large as the keys themselves): not at open.
  const std::string end = UrlBloomPageKey(bloom->LoadedPageEnd());
  const rocksdb::Slice end_slice(end);
  if (bloom->LoadedPageEnd() != UINT32_MAX) read.iterate_upper_bound = &end_slice;
  std::unique_ptr<rocksdb::Iterator> it(db->db()->NewIterator(read, db->handle(kBloomCf)));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const rocksdb::Slice k = it->key();
    if (k.size() != 4) return Status::Corruption("shard " + db->dir() + ": bad Bloom page key");
    const uint32_t id = (uint32_t{static_cast<uint8_t>(k[0])} << 24) |
                        (uint32_t{static_cast<uint8_t>(k[1])} << 16) |
                        (uint32_t{static_cast<uint8_t>(k[2])} << 8) | static_cast<uint8_t>(k[3]);
    PS_RETURN_IF_ERROR(bloom->LoadPage(id, std::string_view(it->value().data(), it->value().size()))
                           .WithContext("shard " + db->dir() + ": Bloom page"));
  }
  return FromRocks(it->status(), "shard " + db->dir() + ": Bloom pages");
}

// Inserts every URL entry into `bloom`; the filter skips the expired ones.
Status InsertUrlEntries(ShardDb* db, TimeDecayedFilter* bloom, const std::stop_token& stop) {
  rocksdb::ReadOptions options;
  options.total_order_seek = true;  // a full scan, across prefixes
  std::unique_ptr<rocksdb::Iterator> it(db->db()->NewIterator(options, db->handle(kUrlCf)));
  uint64_t read = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    if (++read % kStopCheckInterval == 0 && stop.stop_requested()) {
      return Status::Aborted("shard " + db->dir() +
                             ": open stopped while rebuilding the URL filter");
    }
    const rocksdb::Slice k = it->key();
    int64_t last_seen = 0;
    if (k.size() != kDigestKeySize ||
        !PeekLastSeen(std::string_view(it->value().data(), it->value().size()), &last_seen)) {
      return Status::Corruption("shard " + db->dir() + ": malformed URL entry");
    }
    const uint64_t scope_id = DecodeFixed64(k.data());
    const Digest128 url = Digest128::FromView(std::string_view(k.data() + 8, 16));
    bloom->Insert(UrlBloomKey(scope_id, url), EventTimeFromMillis(last_seen));
  }
  return FromRocks(it->status(), "shard " + db->dir() + ": URL entries");
}

// In url.mode = exact a "maybe" is checked against the URL entries, so
// when a rebuild takes effect changes no verdict: it may run beside the
// shard's thread (ShardPageStore reads committed pages, safe there). In
// bloom mode the filter's answers are the verdicts, and a replay must see
// each rebuild take effect at the same record.
void AllowBackgroundRebuildsIn(const ShardOptions& options, TimeDecayedFilter* filter) {
  if (options.url_mode == UrlMode::kExact) filter->AllowBackgroundRebuilds();
}

}  // namespace

std::string UrlBloomPageKey(uint32_t page_id) {
  const char k[4] = {static_cast<char>(page_id >> 24), static_cast<char>(page_id >> 16),
                     static_cast<char>(page_id >> 8), static_cast<char>(page_id)};
  return std::string(k, 4);
}

bool SameBloomOptions(const BloomOptions& a, const BloomOptions& b) {
  return a.expected_items == b.expected_items && a.false_positive_rate == b.false_positive_rate &&
         a.generations == b.generations && a.ttl == b.ttl && a.page_bytes == b.page_bytes;
}

BloomOptions UrlBloomOptions(const ShardOptions& o) {
  BloomOptions b;
  b.expected_items = o.url_expected_items;
  b.false_positive_rate = o.url_false_positive_rate;
  b.generations = o.url_filter == FilterKind::kCuckoo ? cuckoo::kMaxCuckooGenerations
                  : o.url_filter == FilterKind::kFuse ? fuse::kFuseGenerations
                                                      : o.url_bloom_generations;
  b.ttl = o.url_ttl;
  // Every checkpoint writes each page an insert dirtied: with 512-byte pages
  // a batch of new URLs wrote about as many Bloom bytes as entry bytes.
  // One 64-byte block per page writes 8x less (docs/state-store.md).
  b.page_bytes = 64;
  return b;
}

StatusOr<std::unique_ptr<TimeDecayedFilter>> CreateUrlFilter(const ShardOptions& options) {
  const BloomOptions wanted = UrlBloomOptions(options);
  if (options.url_filter == FilterKind::kCuckoo) {
    PS_ASSIGN_OR_RETURN(std::unique_ptr<TimeDecayedCuckoo> f, TimeDecayedCuckoo::Create(wanted));
    return std::unique_ptr<TimeDecayedFilter>(std::move(f));
  }
  if (options.url_filter == FilterKind::kFuse) {
    PS_ASSIGN_OR_RETURN(std::unique_ptr<TimeDecayedFuse> f, TimeDecayedFuse::Create(wanted));
    return std::unique_ptr<TimeDecayedFilter>(std::move(f));
  }
  PS_ASSIGN_OR_RETURN(std::unique_ptr<TimeDecayedBloom> f, TimeDecayedBloom::Create(wanted));
  return std::unique_ptr<TimeDecayedFilter>(std::move(f));
}

StatusOr<std::unique_ptr<TimeDecayedFilter>> RestoreUrlFilter(std::string_view header) {
  if (cuckoo::IsCuckooHeader(header)) {
    PS_ASSIGN_OR_RETURN(std::unique_ptr<TimeDecayedCuckoo> f, TimeDecayedCuckoo::Restore(header));
    return std::unique_ptr<TimeDecayedFilter>(std::move(f));
  }
  if (fuse::IsFuseHeader(header)) {
    PS_ASSIGN_OR_RETURN(std::unique_ptr<TimeDecayedFuse> f, TimeDecayedFuse::Restore(header));
    return std::unique_ptr<TimeDecayedFilter>(std::move(f));
  }
  PS_ASSIGN_OR_RETURN(std::unique_ptr<TimeDecayedBloom> f, TimeDecayedBloom::Restore(header));
  return std::unique_ptr<TimeDecayedFilter>(std::move(f));
}

bool IsConfiguredFilter(const TimeDecayedFilter& filter, const ShardOptions& options) {
  return filter.kind() == options.url_filter &&
         SameBloomOptions(filter.options(), UrlBloomOptions(options));
}

StatusOr<std::unique_ptr<TimeDecayedFilter>> LoadUrlBloom(ShardDb* db, const ShardOptions& options,
                                                          EventTime watermark, bool* rebuilt,
                                                          std::stop_token stop) {
  *rebuilt = false;
  PS_ASSIGN_OR_RETURN(std::optional<std::string> header, GetMeta(db, kBloomHeaderKey));
  if (header) {
    PS_ASSIGN_OR_RETURN(std::unique_ptr<TimeDecayedFilter> stored, RestoreUrlFilter(*header));
    if (IsConfiguredFilter(*stored, options) || options.url_mode == UrlMode::kBloom) {
      stored->AttachPageStore(std::make_unique<ShardPageStore>(db));
      PS_RETURN_IF_ERROR(LoadPages(db, stored.get()));
      stored->AdvanceWatermark(watermark);
      PS_RETURN_IF_ERROR(stored->status().WithContext("shard " + db->dir() + ": URL filter"));
      AllowBackgroundRebuildsIn(options, stored.get());
      return stored;
    }
  }
  PS_ASSIGN_OR_RETURN(std::unique_ptr<TimeDecayedFilter> bloom, CreateUrlFilter(options));
  bloom->AttachPageStore(std::make_unique<ShardPageStore>(db));
  bloom->AdvanceWatermark(watermark);
  bloom->BeginBulkLoad();
  PS_RETURN_IF_ERROR(InsertUrlEntries(db, bloom.get(), stop));
  PS_RETURN_IF_ERROR(bloom->FinishBulkLoad().WithContext("shard " + db->dir() + ": URL filter"));
  AllowBackgroundRebuildsIn(options, bloom.get());
  *rebuilt = true;
  return bloom;
}

StatusOr<std::unique_ptr<TimeDecayedFilter>> LoadStoredUrlBloom(ShardDb* db, EventTime watermark) {
  PS_ASSIGN_OR_RETURN(std::optional<std::string> header, GetMeta(db, kBloomHeaderKey));
  if (!header) return std::unique_ptr<TimeDecayedFilter>();
  PS_ASSIGN_OR_RETURN(std::unique_ptr<TimeDecayedFilter> stored, RestoreUrlFilter(*header));
  stored->AttachPageStore(std::make_unique<ShardPageStore>(db));
  PS_RETURN_IF_ERROR(LoadPages(db, stored.get()));
  stored->AdvanceWatermark(watermark);
  PS_RETURN_IF_ERROR(stored->status().WithContext("shard " + db->dir() + ": URL filter"));
  return stored;
}

void StageUrlBloom(ShardDb* db, const TimeDecayedFilter& bloom) {
  StageMeta(db, kBloomHeaderKey, bloom.EncodeHeader());
  bloom.ForEachDirtyPage([db](uint32_t page_id, std::string_view bytes) {
    db->Put(kBloomCf, UrlBloomPageKey(page_id), std::string(bytes));
  });
}

}  // namespace pagesieve::store
