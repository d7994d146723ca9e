#include "store/exact_store.h"

#include "store/codec.h"
#include "store/expiry.h"
#include "store/keys.h"

namespace pagesieve::store {

StatusOr<std::optional<ContentEntry>> ExactStore::Lookup(uint64_t scope_id,
                                                         const Digest128& content,
                                                         const OriginFilter& filter) {
  std::string_view value;
  bool found = false;
  PS_RETURN_IF_ERROR(db_->Get(kExactCf, EntryKey(scope_id, content).view(), &value, &found));
  if (!found) return std::optional<ContentEntry>();
  PS_ASSIGN_OR_RETURN(ContentEntry entry, DecodeContentValue(value));
  if (!IsLive(entry.last_seen, *watermark_, ttl_) || !filter.Accepts(entry.origin)) {
    return std::optional<ContentEntry>();
  }
  return std::optional<ContentEntry>(std::move(entry));
}

Status ExactStore::Insert(uint64_t scope_id, const Digest128& content, const Origin& origin) {
  PS_RETURN_IF_ERROR(CheckOrigin(origin));
  PS_ASSIGN_OR_RETURN(std::optional<ContentEntry> live, Lookup(scope_id, content, {}));
  if (live) return Touch(scope_id, content, origin.event_time);
  db_->Put(kExactCf, EntryKey(scope_id, content).view(),
           EncodeContentValue(ContentEntry{origin, origin.event_time}));
  return Status::Ok();
}

Status ExactStore::Touch(uint64_t scope_id, const Digest128& content, EventTime t) {
  PS_ASSIGN_OR_RETURN(std::optional<ContentEntry> entry, Lookup(scope_id, content, {}));
  if (!entry) return Status::NotFound("TouchContent: no live entry for this digest in this scope");
  if (t <= entry->last_seen) return Status::Ok();
  entry->last_seen = t;
  db_->Put(kExactCf, EntryKey(scope_id, content).view(), EncodeContentValue(*entry));
  return Status::Ok();
}

}  // namespace pagesieve::store
