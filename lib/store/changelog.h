#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "common/status_or.h"
#include "common/types.h"

namespace pagesieve::store {

// A shard as a changelog topic carries it (docs/changelog.md). Every
// checkpoint ships the entries it writes, tombstones for entries compaction
// removed as expired, and last a marker saying which input offset and
// watermark the records before it belong to. The topic is compacted, so the
// latest record of each key is what a restore needs.
//
// Record keys: [kind 1][column family 1][RocksDB key] for an entry, the
// single byte kind alone for the marker and for the snapshot record. Entry
// values are the stored values, byte for byte; a tombstone has no value.
//
// A checkpoint of a shard the changelog never received (it was kept with the
// changelog off, or the topic was recreated) ships the whole shard instead,
// and begins with the snapshot record: everything before it in the partition
// is void, whoever wrote it. Compaction keeps only the latest snapshot record,
// so "before the latest snapshot record" stays exactly the void part.

// One changelog record: a key and a value, or no value for a tombstone.
using ChangeFn =
    std::function<void(std::string_view key, std::optional<std::string_view> value)>;

// What the marker records. The identity fields let a restore refuse a
// changelog written under another fingerprint version or SimHash layout.
struct ChangelogMarker {
  Offset next_offset{};
  EventTime watermark{};
  int64_t format_version = 0;
  int64_t fingerprint_version = 0;
  int64_t near_max_distance = 0;
  int64_t near_blocks = 0;
};

std::string ChangelogEntryKey(int column_family, std::string_view key);
std::string ChangelogMarkerKey();
std::string EncodeChangelogMarker(const ChangelogMarker& marker);
std::string ChangelogSnapshotKey();
// The snapshot record's value: the input offset of the checkpoint it begins
// (for messages; the marker that ends the snapshot is what counts).
std::string EncodeChangelogSnapshot(Offset next_offset);

// A record read back from the changelog.
struct ChangelogKey {
  bool marker = false;
  bool snapshot = false;
  int column_family = 0;    // entries only
  std::string_view key;     // entries only: points into the decoded key

  bool entry() const { return !marker && !snapshot; }
};
StatusOr<ChangelogKey> DecodeChangelogKey(std::string_view key);
StatusOr<ChangelogMarker> DecodeChangelogMarker(std::string_view value);
StatusOr<Offset> DecodeChangelogSnapshot(std::string_view value);

}  // namespace pagesieve::store
