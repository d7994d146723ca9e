#include "store/expiry_sweep.h"

#include <algorithm>
#include <memory>

#include "store/codec.h"
#include "store/expiry.h"

namespace pagesieve::store {

namespace {

int64_t Cutoff(const ExpirySweep::Family& family, EventTime watermark) {
  return LiveCutoff(ToMillis(watermark), family.ttl);
}

bool LastSeenBefore(std::string_view value, int64_t cutoff) {
  int64_t last_seen = 0;
  return PeekLastSeen(value, &last_seen) && last_seen < cutoff;
}

}  // namespace

bool ExpirySweep::IsDead(Cf cf, std::string_view value, EventTime watermark) const {
  for (const Family& family : families_) {
    if (family.cf == cf) return LastSeenBefore(value, Cutoff(family, watermark));
  }
  return false;
}

ExpirySweep::~ExpirySweep() = default;

rocksdb::Iterator* ExpirySweep::ViewOf(ShardDb* db, size_t index) {
  View& view = views_[index];
  const Cf cf = families_[index].cf;
  rocksdb::DB& rocks = *db->db();
  auto property = [&](const std::string& name) {
    uint64_t value = 0;
    return rocks.GetIntProperty(db->handle(cf), name, &value) ? value : 0;
  };
  // Read before the iterator is made: a seal in between renews it once
  // more, rather than never.
  const uint64_t sealed = db->memtables_sealed(cf);
  const uint64_t entries = property(rocksdb::DB::Properties::kNumEntriesActiveMemTable);
  bool renew = !view.iterator;
  if (!renew && sealed != view.sealed) {
    // Not while the sealed memtable is still being flushed: it is alive
    // anyway, and a new view would copy it whole.
    renew = property(rocksdb::DB::Properties::kNumImmutableMemTable) == 0;
  } else if (!renew) {
    renew = entries > view.entries &&
            (entries <= kCheapEntries || (entries - view.entries) * kStaleRatio >= entries);
  }
  if (renew) {
    rocksdb::ReadOptions options;
    options.total_order_seek = true;  // across prefixes, ignoring the prefix extractor
    options.fill_cache = false;       // a pass would evict the blocks lookups need
    view.iterator.reset();            // what it holds goes before the next view is made
    view.iterator.reset(rocks.NewIterator(options, db->handle(cf)));
    view.sealed = sealed;
    view.entries = entries;
  }
  return view.iterator.get();
}

Status ExpirySweep::Step(ShardDb* db, EventTime watermark, uint64_t budget,
                         const std::function<void(Cf cf, std::string_view key)>& dead) {
  const uint64_t walked = std::min(ahead_, budget);
  ahead_ -= walked;
  last_budget_ = budget;
  PS_RETURN_IF_ERROR(Walk(db, watermark, budget - walked).status());
  // Found by a view older than the stored entry, or before this step's
  // writes: written again since, it may be live.
  std::vector<std::pair<Cf, std::string>> found = std::move(found_);
  found_.clear();
  for (const auto& [cf, key] : found) {
    if (db->IsPending(cf, key)) continue;
    std::string_view stored;
    bool exists = false;
    PS_RETURN_IF_ERROR(db->Get(cf, key, &stored, &exists));
    if (exists && IsDead(cf, stored, watermark)) dead(cf, key);
  }
  return Status::Ok();
}

Status ExpirySweep::WalkAhead(ShardDb* db, EventTime watermark, uint64_t max_keys) {
  if (ahead_ >= last_budget_) return Status::Ok();
  PS_ASSIGN_OR_RETURN(const uint64_t visited,
                      Walk(db, watermark, std::min(max_keys, last_budget_ - ahead_)));
  ahead_ += visited;
  return Status::Ok();
}

StatusOr<uint64_t> ExpirySweep::Walk(ShardDb* db, EventTime watermark, uint64_t budget) {
  if (families_.empty() || budget == 0) return uint64_t{0};
  const uint64_t given = budget;
  // One round: the rest of the starting family, every other family, then
  // the starting family's keys before the resume point.
  const size_t start = family_;
  const std::string start_key = resume_;
  for (size_t i = 0; i <= families_.size(); ++i) {
    const bool last = i == families_.size();
    if (last && start_key.empty()) break;  // the first range was the whole family
    const size_t index = (start + i) % families_.size();
    PS_ASSIGN_OR_RETURN(bool finished,
                        Visit(db, index, i == 0 ? std::string_view(start_key) : std::string_view(),
                              last ? &start_key : nullptr, watermark, &budget));
    if (!finished) return given - budget;
    if (!last) {
      // The family is done to its end: the next step starts with the next one.
      family_ = (index + 1) % families_.size();
      resume_.clear();
    }
  }
  // A whole round within the budget: the next step starts where this one did.
  family_ = start;
  resume_ = start_key;
  return given - budget;
}

StatusOr<bool> ExpirySweep::Visit(ShardDb* db, size_t index, std::string_view from,
                                  const std::string* to, EventTime watermark, uint64_t* budget) {
  const Family& family = families_[index];
  const int64_t cutoff = Cutoff(family, watermark);
  rocksdb::Iterator* it = ViewOf(db, index);
  if (from.empty()) {
    it->SeekToFirst();
  } else {
    it->Seek(rocksdb::Slice(from.data(), from.size()));
  }
  for (; it->Valid(); it->Next()) {
    const std::string_view key(it->key().data(), it->key().size());
    if (to != nullptr && key >= std::string_view(*to)) break;
    if (*budget == 0) {
      family_ = index;
      resume_.assign(key);
      return false;
    }
    --*budget;
    const std::string_view value(it->value().data(), it->value().size());
    if (LastSeenBefore(value, cutoff) && !db->IsPending(family.cf, key)) {
      found_.emplace_back(family.cf, std::string(key));
    }
  }
  PS_RETURN_IF_ERROR(FromRocks(it->status(), "shard " + db->dir() + ": expiry sweep"));
  return true;
}

}  // namespace pagesieve::store
