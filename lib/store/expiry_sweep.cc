#include "store/expiry_sweep.h"

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

Status ExpirySweep::Step(ShardDb* db, EventTime watermark, uint64_t budget,
                         const std::function<void(Cf cf, std::string_view key)>& dead) {
  if (families_.empty()) return Status::Ok();
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
                              last ? &start_key : nullptr, watermark, &budget, dead));
    if (!finished) return Status::Ok();
    if (!last) {
      // The family is done to its end: the next step starts with the next one.
      family_ = (index + 1) % families_.size();
      resume_.clear();
    }
  }
  // A whole round within the budget: the next step starts where this one did.
  family_ = start;
  resume_ = start_key;
  return Status::Ok();
}

StatusOr<bool> ExpirySweep::Visit(ShardDb* db, size_t index, std::string_view from,
                                  const std::string* to, EventTime watermark, uint64_t* budget,
                                  const std::function<void(Cf cf, std::string_view key)>& dead) {
  const Family& family = families_[index];
  const int64_t cutoff = Cutoff(family, watermark);
  rocksdb::ReadOptions options;
  options.total_order_seek = true;  // across prefixes, ignoring the prefix extractor
  options.fill_cache = false;       // a pass would evict the blocks lookups need
  rocksdb::Slice upper;
  if (to != nullptr) {
    upper = rocksdb::Slice(*to);
    options.iterate_upper_bound = &upper;
  }
  std::unique_ptr<rocksdb::Iterator> it(db->db()->NewIterator(options, db->handle(family.cf)));
  if (from.empty()) {
    it->SeekToFirst();
  } else {
    it->Seek(rocksdb::Slice(from.data(), from.size()));
  }
  for (; it->Valid(); it->Next()) {
    const std::string_view key(it->key().data(), it->key().size());
    if (*budget == 0) {
      family_ = index;
      resume_.assign(key);
      return false;
    }
    --*budget;
    const std::string_view value(it->value().data(), it->value().size());
    if (LastSeenBefore(value, cutoff) && !db->IsPending(family.cf, key)) {
      dead(family.cf, key);
    }
  }
  PS_RETURN_IF_ERROR(FromRocks(it->status(), "shard " + db->dir() + ": expiry sweep"));
  return true;
}

}  // namespace pagesieve::store
