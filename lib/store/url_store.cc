#include "store/url_store.h"

#include "store/codec.h"
#include "store/expiry.h"
#include "store/keys.h"
#include "store/url_bloom.h"

namespace pagesieve::store {

StatusOr<UrlLookup> UrlStore::Lookup(uint64_t scope_id, const Digest128& url,
                                     const OriginFilter& filter) {
  // The filter has no false negatives for live URLs: "no" is final.
  const bool maybe = bloom_->MayContain(UrlBloomKey(scope_id, url));
  if (mode_ == UrlMode::kBloom || !maybe) {
    UrlLookup result;
    result.seen = maybe;
    return result;
  }
  return LookupExact(scope_id, url, filter);
}

StatusOr<UrlLookup> UrlStore::LookupExact(uint64_t scope_id, const Digest128& url,
                                          const OriginFilter& filter) {
  std::string_view value;
  bool found = false;
  PS_RETURN_IF_ERROR(db_->Get(kUrlCf, EntryKey(scope_id, url).view(), &value, &found));
  UrlLookup result;
  if (!found) return result;
  PS_ASSIGN_OR_RETURN(UrlEntry entry, DecodeUrlValue(value));
  if (!IsLive(entry.last_seen, *watermark_, ttl_) || !filter.Accepts(entry.origin)) return result;
  result.seen = true;
  result.entry = std::move(entry);
  return result;
}

Status UrlStore::Record(uint64_t scope_id, const Digest128& url, const Origin& origin, EventTime t,
                        const Digest128& content) {
  PS_RETURN_IF_ERROR(CheckOrigin(origin));
  const uint64_t key = UrlBloomKey(scope_id, url);
  if (mode_ == UrlMode::kExact) {
    // A URL the filter has never seen has no live entry to keep: skip the read.
    UrlLookup live;
    if (bloom_->MayContain(key)) {
      PS_ASSIGN_OR_RETURN(live, LookupExact(scope_id, url, {}));
    }
    UrlEntry entry = live.entry ? std::move(*live.entry) : UrlEntry{origin, t, content, {}};
    if (t > entry.last_seen) entry.last_seen = t;
    // A replayed record keeps the digest it replaced the first time: that is
    // what its replays are compared with (tier_stores.h).
    const bool again =
        entry.last_write && entry.last_write->IsRecord(origin.partition, origin.offset);
    if (!again) entry.last_write = UrlWrite{origin.partition, origin.offset, entry.content};
    entry.content = content;
    db_->Put(kUrlCf, EntryKey(scope_id, url).view(), EncodeUrlValue(entry));
  }
  bloom_->Insert(key, t);
  return Status::Ok();
}

}  // namespace pagesieve::store
