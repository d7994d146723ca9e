#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/status_or.h"
#include "common/types.h"
#include "store/shard_db.h"

namespace pagesieve::store {

// The storage format of this code. Bump it when any key or value layout
// changes; a shard of a format this build cannot read refuses to open. 2:
// the SimHash tables left RocksDB for memory (the near_tables column family
// is gone). 3: near entries end with the page's MinHash sketch. 4: URL
// entries end with their last write (tier_stores.h, UrlWrite). 5: a near
// entry may name the index rows its shard holds (codec.h, NearRows). 6:
// a routed near owner keeps whole the incarnations of the entries it is
// the home of, under longer keys (keys.h, HomeEntryKey).
inline constexpr int64_t kFormatVersion = 6;
// The oldest format this build reads: format 3's values are format 4's
// without the URL entries' last write, which decode without it, formats 3
// and 4 are format 5 without near rows, which hold every row, and format 5
// is format 6 without home entries, whose entries are whole. A shard of
// an older readable format is marked with kFormatVersion when it opens for
// writing, so that a build of its old format, which would take the longer
// URL values for corruption, refuses it instead.
inline constexpr int64_t kOldestReadableFormat = 3;
inline bool IsReadableFormat(int64_t format) {
  return format >= kOldestReadableFormat && format <= kFormatVersion;
}
// "this build reads formats 3 to 4", for messages refusing another format.
std::string ReadableFormatsText();

// What a shard is, fixed when it is created and checked at every open.
struct ShardIdentity {
  int64_t format_version = kFormatVersion;
  int64_t fingerprint_version = 0;
  int64_t near_max_distance = 0;
  int64_t near_blocks = 0;
};

// Where a shard stands: written by every checkpoint.
struct ShardProgress {
  EventTime watermark{};
  std::optional<Offset> next_offset;  // empty before the first checkpoint
  // The first changelog offset not reflected in the shard (docs/changelog.md);
  // empty when no changelog was ever written or read for it.
  std::optional<Offset> changelog_next;
  // The expiry hold of the last checkpoint, when one held expiry back
  // (Shard::HoldExpiry): what is live then was kept, and stays until the
  // owner, restored, holds again.
  std::optional<EventTime> expiry_hold;
};

// Checks a shard's stored identity against `wanted`, or stores `wanted` in a
// new (empty) shard with a synced write; a shard of an older readable format
// gets `wanted`'s format the same way. FailedPrecondition, with how to reset
// the shard, when they differ; Corruption when data exists without identity.
Status CheckOrCreateIdentity(ShardDb* db, const ShardIdentity& wanted);

// The stored identity, without comparing it to anything (for inspection);
// empty for a shard that has none yet. Of a storage format this build cannot
// read only format_version is filled in.
StatusOr<std::optional<ShardIdentity>> ReadIdentity(ShardDb* db);

StatusOr<ShardProgress> LoadProgress(ShardDb* db);
// Adds the progress to the overlay, to be committed with the batch.
void StageProgress(ShardDb* db, EventTime watermark, Offset next_offset);
void StageChangelogNext(ShardDb* db, Offset changelog_next);
// Forgets the changelog position in the next commit: the shard then has state
// the changelog has not received (Shard::ships_snapshot).
void ClearChangelogNext(ShardDb* db);
// The metadata keys of the progress above (watermark, next offset,
// changelog position): what a shard emptied for a restore must forget.
inline constexpr std::string_view kProgressKeys[] = {"watermark", "next_offset", "changelog_next",
                                                     "expiry_hold"};
// Its key: the changelog carries it, as a restored routed owner's shard
// must keep what the hold kept.
inline constexpr std::string_view kExpiryHoldKey = kProgressKeys[3];
std::string EncodeExpiryHold(EventTime hold);

// The metadata key of the URL Bloom filter's header (url_bloom.h), which the
// changelog carries too in url.mode = bloom.
inline constexpr std::string_view kBloomHeaderKey = "bloom_header";

// A routed owner's held messages (Shard::PutHeld) live in the metadata
// column family under this prefix: like the progress keys they say where
// the owner is, they never expire, and the changelog carries them.
inline constexpr std::string_view kHeldPrefix = "held/";
// The first key after every held key ('0' follows '/').
inline constexpr std::string_view kHeldEnd = "held0";
std::string HeldMetaKey(std::string_view key);
bool IsHeldMetaKey(std::string_view meta_key);

// Small values of the metadata column family.
StatusOr<std::optional<std::string>> GetMeta(ShardDb* db, std::string_view key);
void StageMeta(ShardDb* db, std::string_view key, std::string value);

}  // namespace pagesieve::store
