#include "store/shard_meta.h"

#include "store/codec.h"

namespace pagesieve::store {
namespace {

constexpr std::string_view kIdentityKey = "identity";
constexpr std::string_view kWatermarkKey = kProgressKeys[0];
constexpr std::string_view kOffsetKey = kProgressKeys[1];
constexpr std::string_view kChangelogNextKey = kProgressKeys[2];

std::string EncodeIdentity(const ShardIdentity& id) {
  std::string out;
  for (int64_t v :
       {id.format_version, id.fingerprint_version, id.near_max_distance, id.near_blocks}) {
    PutFixed64(&out, static_cast<uint64_t>(v));
  }
  return out;
}

StatusOr<ShardIdentity> DecodeIdentity(std::string_view v) {
  if (v.size() < 8) return Status::Corruption("malformed shard identity");
  ShardIdentity id;
  id.format_version = static_cast<int64_t>(DecodeFixed64(v.data()));
  // Fields after the format version may change with it; only read them once
  // the format is known to be ours.
  if (!IsReadableFormat(id.format_version)) return id;
  if (v.size() != 32) return Status::Corruption("malformed shard identity");
  id.fingerprint_version = static_cast<int64_t>(DecodeFixed64(v.data() + 8));
  id.near_max_distance = static_cast<int64_t>(DecodeFixed64(v.data() + 16));
  id.near_blocks = static_cast<int64_t>(DecodeFixed64(v.data() + 24));
  return id;
}

StatusOr<bool> IsEmpty(ShardDb* db) {
  rocksdb::ReadOptions options;
  options.total_order_seek = true;
  for (int cf = 0; cf < kNumCfs; ++cf) {
    std::unique_ptr<rocksdb::Iterator> it(
        db->db()->NewIterator(options, db->handle(static_cast<Cf>(cf))));
    it->SeekToFirst();
    PS_RETURN_IF_ERROR(FromRocks(it->status(), "shard " + db->dir()));
    if (it->Valid()) return false;
  }
  return true;
}

// How to get going again: reset the shard, or run what wrote it (`other`:
// "the pagesieve build", "with the settings").
std::string ResetAdvice(const std::string& dir, const std::string& other) {
  return " Reset it by deleting the directory " + dir +
         " (the shard is rebuilt from the input), or run " + other + " that wrote it.";
}

Status Compare(const std::string& dir, const ShardIdentity& have, const ShardIdentity& want) {
  if (!IsReadableFormat(have.format_version)) {
    return Status::FailedPrecondition("shard " + dir + " uses storage format " +
                                      std::to_string(have.format_version) + ", " +
                                      ReadableFormatsText() + " only (docs/state-store.md)." +
                                      ResetAdvice(dir, "the pagesieve build"));
  }
  if (have.fingerprint_version != want.fingerprint_version) {
    return Status::FailedPrecondition(
        "shard " + dir + " was written with fingerprint version " +
        std::to_string(have.fingerprint_version) + ", this build computes version " +
        std::to_string(want.fingerprint_version) +
        "; its digests, SimHashes and sketches cannot be compared with new ones." +
        ResetAdvice(dir, "the pagesieve build"));
  }
  if (have.near_max_distance != want.near_max_distance || have.near_blocks != want.near_blocks) {
    return Status::FailedPrecondition(
        "shard " + dir + " holds SimHash tables for near.max_distance " +
        std::to_string(have.near_max_distance) + " (" + std::to_string(have.near_blocks) +
        " blocks), the configuration asks for near.max_distance " +
        std::to_string(want.near_max_distance) + " (" + std::to_string(want.near_blocks) +
        " blocks); set near.max_distance and near.tables back." +
        ResetAdvice(dir, "with the settings"));
  }
  return Status::Ok();
}

}  // namespace

std::string ReadableFormatsText() {
  if (kOldestReadableFormat == kFormatVersion) {
    return "this build reads format " + std::to_string(kFormatVersion);
  }
  return "this build reads formats " + std::to_string(kOldestReadableFormat) + " to " +
         std::to_string(kFormatVersion);
}

std::string HeldMetaKey(std::string_view key) {
  std::string out(kHeldPrefix);
  out.append(key);
  return out;
}

bool IsHeldMetaKey(std::string_view meta_key) { return meta_key.starts_with(kHeldPrefix); }

StatusOr<std::optional<std::string>> GetMeta(ShardDb* db, std::string_view key) {
  std::string_view value;
  bool found = false;
  PS_RETURN_IF_ERROR(db->Get(kMetaCf, key, &value, &found));
  if (!found) return std::optional<std::string>();
  return std::optional<std::string>(std::string(value));
}

void StageMeta(ShardDb* db, std::string_view key, std::string value) {
  db->Put(kMetaCf, key, std::move(value));
}

Status CheckOrCreateIdentity(ShardDb* db, const ShardIdentity& wanted) {
  PS_ASSIGN_OR_RETURN(std::optional<std::string> stored, GetMeta(db, kIdentityKey));
  if (stored) {
    PS_ASSIGN_OR_RETURN(ShardIdentity have, DecodeIdentity(*stored));
    PS_RETURN_IF_ERROR(Compare(db->dir(), have, wanted));
    if (have.format_version == wanted.format_version) return Status::Ok();
    // An older readable format: from now on it holds values of this one.
    StageMeta(db, kIdentityKey, EncodeIdentity(wanted));
    return db->Commit();
  }
  PS_ASSIGN_OR_RETURN(bool empty, IsEmpty(db));
  if (!empty) {
    return Status::Corruption("shard " + db->dir() + " holds data but no identity." +
                              ResetAdvice(db->dir(), "the pagesieve build"));
  }
  StageMeta(db, kIdentityKey, EncodeIdentity(wanted));
  return db->Commit();
}

StatusOr<std::optional<ShardIdentity>> ReadIdentity(ShardDb* db) {
  PS_ASSIGN_OR_RETURN(std::optional<std::string> stored, GetMeta(db, kIdentityKey));
  if (!stored) return std::optional<ShardIdentity>();
  PS_ASSIGN_OR_RETURN(ShardIdentity identity, DecodeIdentity(*stored));
  return std::optional<ShardIdentity>(identity);
}

StatusOr<ShardProgress> LoadProgress(ShardDb* db) {
  ShardProgress progress;
  PS_ASSIGN_OR_RETURN(std::optional<std::string> wm, GetMeta(db, kWatermarkKey));
  PS_ASSIGN_OR_RETURN(std::optional<std::string> offset, GetMeta(db, kOffsetKey));
  if (wm.has_value() != offset.has_value() || (wm && (wm->size() != 8 || offset->size() != 8))) {
    return Status::Corruption("shard " + db->dir() + ": malformed checkpoint record");
  }
  if (wm) {
    progress.watermark = EventTimeFromMillis(static_cast<int64_t>(DecodeFixed64(wm->data())));
    progress.next_offset = Offset(static_cast<int64_t>(DecodeFixed64(offset->data())));
  }
  PS_ASSIGN_OR_RETURN(std::optional<std::string> changelog, GetMeta(db, kChangelogNextKey));
  if (changelog) {
    if (changelog->size() != 8) {
      return Status::Corruption("shard " + db->dir() + ": malformed changelog position");
    }
    progress.changelog_next = Offset(static_cast<int64_t>(DecodeFixed64(changelog->data())));
  }
  PS_ASSIGN_OR_RETURN(std::optional<std::string> hold, GetMeta(db, kExpiryHoldKey));
  if (hold) {
    if (hold->size() != 8) {
      return Status::Corruption("shard " + db->dir() + ": malformed expiry hold");
    }
    progress.expiry_hold = EventTimeFromMillis(static_cast<int64_t>(DecodeFixed64(hold->data())));
  }
  return progress;
}

std::string EncodeExpiryHold(EventTime hold) {
  std::string v;
  PutFixed64(&v, static_cast<uint64_t>(ToMillis(hold)));
  return v;
}

void StageProgress(ShardDb* db, EventTime watermark, Offset next_offset) {
  std::string wm, offset;
  PutFixed64(&wm, static_cast<uint64_t>(ToMillis(watermark)));
  PutFixed64(&offset, static_cast<uint64_t>(next_offset.value()));
  StageMeta(db, kWatermarkKey, std::move(wm));
  StageMeta(db, kOffsetKey, std::move(offset));
}

}  // namespace pagesieve::store

namespace pagesieve::store {

void StageChangelogNext(ShardDb* db, Offset changelog_next) {
  std::string v;
  PutFixed64(&v, static_cast<uint64_t>(changelog_next.value()));
  StageMeta(db, kChangelogNextKey, std::move(v));
}

void ClearChangelogNext(ShardDb* db) { db->Delete(kMetaCf, kChangelogNextKey); }

}  // namespace pagesieve::store
