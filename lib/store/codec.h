#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/status_or.h"
#include "common/types.h"
#include "store/near_rows.h"
#include "store/origin.h"
#include "store/shard.h"

namespace pagesieve::store {

// The byte layouts of stored values (docs/state-store.md). Every entry value
// begins with its last_seen time as 8 big-endian bytes, so the compaction
// filter can judge expiry without decoding the rest. Decoders never trust
// their input: a short or malformed value is a Corruption status.

// Origins larger than this are refused on insert (a URL or event id this long
// is hostile input, not a page).
inline constexpr size_t kMaxOriginField = 64 * 1024;

void PutFixed64(std::string* out, uint64_t v);  // big-endian
uint64_t DecodeFixed64(const char* p);          // big-endian
void PutVarint64(std::string* out, uint64_t v);
bool GetVarint64(std::string_view* in, uint64_t* v);

// The leading last_seen of an entry value; false when the value is too short.
bool PeekLastSeen(std::string_view value, int64_t* last_seen_ms);

Status CheckOrigin(const Origin& origin);
void EncodeOrigin(const Origin& origin, std::string* out);
bool DecodeOrigin(std::string_view* in, Origin* origin);

// url: [last_seen 8][content digest 16][origin][last write: varint(zigzag
// partition) varint(zigzag offset) previous content digest 16]. The last
// write came with storage format 4: a value without it (format 3) decodes
// with an empty last_write.
std::string EncodeUrlValue(const UrlEntry& entry);
StatusOr<UrlEntry> DecodeUrlValue(std::string_view value);

// exact: [last_seen 8][origin]
std::string EncodeContentValue(const ContentEntry& entry);
StatusOr<ContentEntry> DecodeContentValue(std::string_view value);

// near: [last_seen 8][indexed_at 8][origin][rows][sketch: the rest, empty
// for none]. indexed_at is the time the entry was last put in the in-memory
// indexes, at most NearIndexGrace before last_seen (see near_store.h). rows
// (storage format 5) is present only when the shard holds some of the
// entry's index rows (NearRows, a routed near owner): the bytes 0xff 0x00,
// which no sketch starts with (its second byte is 8, 16 or 32 bits), then
// NearRows::EncodeTo; a value without it holds every row, as every value of
// formats 3 and 4 does. The sketch is the encoded MinHash sketch, stored as
// given; a decoder checks that it is well formed (ParseSketchHeader), as a
// truncated one would otherwise pass for a sketch. A slim row (storage
// format 6: a routed near owner that is not the entry's home) has the rows
// field, an origin of which only the position counts, and in place of the
// sketch the bytes 0xff 0x01 (no sketch starts with 0xff) then the keys of
// the rows' bands, 8 bytes each, in band order: what its indexes and
// lookups need, where the sketch is several times that.
struct NearEntry {
  Origin origin;
  EventTime last_seen{};
  EventTime indexed_at{};
  std::string sketch;
  NearRows rows;
  bool slim = false;
  std::string band_keys;  // a slim row's, packed as stored

  friend bool operator==(const NearEntry&, const NearEntry&) = default;
};
std::string EncodeNearValue(const NearEntry& entry);
StatusOr<NearEntry> DecodeNearValue(std::string_view value);
// What the rebuild of the indexes at open needs of a near value (it reads
// every entry): its rows and its sketch, pointing into the value, found
// without copying the origin.
struct NearIndexFields {
  NearRows rows;
  std::string_view sketch;
  bool slim = false;
  std::string_view band_keys;
};
StatusOr<NearIndexFields> DecodeNearIndexFields(std::string_view value);

}  // namespace pagesieve::store
