#include "store/changelog.h"

#include "store/codec.h"
#include "store/shard_db.h"
#include "store/shard_meta.h"

namespace pagesieve::store {
namespace {

constexpr char kEntryKind = 'e';
constexpr char kMarkerKind = 'm';
constexpr char kSnapshotKind = 's';
constexpr size_t kMarkerSize = 6 * 8;

}  // namespace

std::string ChangelogEntryKey(int column_family, std::string_view key) {
  std::string out;
  out.reserve(2 + key.size());
  out.push_back(kEntryKind);
  out.push_back(static_cast<char>(column_family));
  out.append(key);
  return out;
}

std::string ChangelogMarkerKey() { return std::string(1, kMarkerKind); }

std::string ChangelogSnapshotKey() { return std::string(1, kSnapshotKind); }

std::string EncodeChangelogSnapshot(Offset next_offset) {
  std::string out;
  PutFixed64(&out, static_cast<uint64_t>(next_offset.value()));
  return out;
}

std::string EncodeChangelogMarker(const ChangelogMarker& m) {
  std::string out;
  out.reserve(kMarkerSize);
  for (int64_t v : {m.next_offset.value(), ToMillis(m.watermark), m.format_version,
                    m.fingerprint_version, m.near_max_distance, m.near_blocks}) {
    PutFixed64(&out, static_cast<uint64_t>(v));
  }
  return out;
}

StatusOr<ChangelogKey> DecodeChangelogKey(std::string_view key) {
  ChangelogKey out;
  if (key.size() == 1 && key[0] == kMarkerKind) {
    out.marker = true;
    return out;
  }
  if (key.size() == 1 && key[0] == kSnapshotKind) {
    out.snapshot = true;
    return out;
  }
  if (key.size() < 3 || key[0] != kEntryKind) {
    return Status::Corruption("changelog record with a key pagesieve did not write");
  }
  out.column_family = static_cast<uint8_t>(key[1]);
  // Metadata travels only as the marker, the Bloom header (in bloom mode,
  // under its own key), and a routed owner's held messages and expiry
  // hold: an entry may not overwrite the identity.
  if (out.column_family <= kMetaCf || out.column_family >= kNumCfs) {
    const std::string_view meta_key = key.substr(2);
    if (!(out.column_family == kMetaCf &&
          (meta_key == kBloomHeaderKey || meta_key == kExpiryHoldKey ||
           IsHeldMetaKey(meta_key)))) {
      return Status::Corruption("changelog record for unknown column family " +
                                std::to_string(out.column_family));
    }
  }
  out.key = key.substr(2);
  return out;
}

StatusOr<ChangelogMarker> DecodeChangelogMarker(std::string_view v) {
  if (v.size() != kMarkerSize) return Status::Corruption("malformed changelog marker");
  ChangelogMarker m;
  const char* p = v.data();
  m.next_offset = Offset(static_cast<int64_t>(DecodeFixed64(p)));
  m.watermark = EventTimeFromMillis(static_cast<int64_t>(DecodeFixed64(p + 8)));
  m.format_version = static_cast<int64_t>(DecodeFixed64(p + 16));
  m.fingerprint_version = static_cast<int64_t>(DecodeFixed64(p + 24));
  m.near_max_distance = static_cast<int64_t>(DecodeFixed64(p + 32));
  m.near_blocks = static_cast<int64_t>(DecodeFixed64(p + 40));
  return m;
}

StatusOr<Offset> DecodeChangelogSnapshot(std::string_view v) {
  if (v.size() != 8) return Status::Corruption("malformed changelog snapshot record");
  return Offset(static_cast<int64_t>(DecodeFixed64(v.data())));
}

}  // namespace pagesieve::store
