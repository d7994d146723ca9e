#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "common/status_or.h"
#include "common/types.h"
#include "store/codec.h"
#include "store/lsh_bands.h"
#include "store/lsh_index.h"
#include "store/shard.h"
#include "store/shard_db.h"
#include "store/simhash_index.h"
#include "store/simhash_tables.h"

namespace pagesieve::store {

// How far the time an entry was last indexed at (its indexed_at) may
// trail its last_seen. Touching an entry re-indexes it only when the gap
// would exceed this, and it is the width of the indexes' generations
// (generation_ring.h): a generation is dropped `grace` after the newest
// entry it can hold died.
inline Duration NearIndexGrace(Duration ttl) { return std::max(ttl / 8, Duration(1)); }

// The near store of one shard: entries (scope, simhash) -> origin,
// last_seen and the page's MinHash sketch in the near column family, found
// through two indexes held in memory and rebuilt from the entries when the
// shard opens: a SimHashIndex of NearLayout::tables() permuted tables, and
// an LshIndex of the LshBands of the sketches. Not thread-safe (part of one
// shard).
class NearStore {
 public:
  // `bands` null: sketches are stored but not indexed (near.minhash_slots
  // = 0). A sketch is indexed and compared only when it fits the bands and
  // is of `fingerprint_version`.
  NearStore(ShardDb* db, const NearLayout* layout, const LshBands* bands, int fingerprint_version,
            Duration ttl, const EventTime* watermark);

  // Indexes every entry of the near column family that may be live at
  // `expire_at` (at open: the indexes are not stored): the watermark, or an
  // earlier time a routed owner's hold keeps (Shard::HoldExpiry). `stop`
  // ends it early with Aborted (StateEnv::OpenShard).
  Status BuildIndex(EventTime expire_at, const std::stop_token& stop = {});

  // TierStores::FindNear for one scope (near_find.cc).
  StatusOr<std::vector<NearCandidate>> Find(uint64_t scope_id, const NearQuery& query,
                                            const OriginFilter& filter);
  // `rows`: the index rows this shard holds of the entry (all but for a
  // routed near owner), stored with it. `home`: this shard is the entry's
  // home (a routed near owner, docs/global-routing.md): it also keeps the
  // new incarnation whole under HomeEntryKey, for the fetches of the
  // content owners whose answers came from the entry's other owners.
  Status Insert(uint64_t scope_id, uint64_t simhash, std::string_view sketch, const Origin& origin,
                const NearRows& rows = NearRows::All(), bool home = false);
  // `home`: slides the home entry of the live incarnation too, so that it
  // expires with it.
  Status Touch(uint64_t scope_id, uint64_t simhash, EventTime t, bool home = false);
  // The incarnation of (scope, simhash) whose origin stands at `at`, whole,
  // live or not, while this shard holds it: its home entry, or (a shard of
  // storage format 5, whose entries are all whole) the entry itself when it
  // is that incarnation.
  StatusOr<std::optional<NearEntry>> HomeEntry(uint64_t scope_id, uint64_t simhash,
                                               const OriginPosition& at);
  // Frees the index generations nothing live at `at` is in (the watermark,
  // or an earlier time an owner holds expiry at: Shard::HoldExpiry).
  void DropExpired(EventTime at);

  size_t index_size() const { return index_.size(); }
  size_t index_rows() const { return index_.rows(); }
  size_t lsh_index_rows() const { return lsh_ ? lsh_->rows() : 0; }
  size_t index_memory_bytes() const { return index_.MemoryBytes(); }
  size_t lsh_index_size() const { return lsh_ ? lsh_->size() : 0; }
  size_t lsh_index_memory_bytes() const { return lsh_ ? lsh_->MemoryBytes() : 0; }

 private:
  // The live entry of (scope, simhash) accepted by `filter`, if any.
  StatusOr<std::optional<NearEntry>> LiveEntry(uint64_t scope_id, uint64_t simhash,
                                               const OriginFilter& filter);
  void PutEntry(uint64_t scope_id, uint64_t simhash, const NearEntry& entry);
  // Slides the home entry of `origin`'s incarnation to `t`, if this shard
  // holds it.
  Status SlideHomeEntry(uint64_t scope_id, uint64_t simhash, const Origin& origin, EventTime t);
  // Puts the `rows` of `simhash` in both indexes at `t`, the LSH index's
  // only when `banded`: keys_ hold its band keys (`staged`: for the rebuild
  // at open, see LshIndex::Stage). ResourceExhausted when the LSH index is
  // full.
  Status IndexEntry(uint64_t simhash, bool banded, const NearRows& rows, EventTime t,
                    bool staged = false);
  // A slim row's band keys (NearEntry::band_keys) into keys_, each at its
  // band; false when it has none or they do not fit the bands.
  bool SlimKeys(const NearRows& rows, std::string_view packed);
  // The keys_ of the bands of `rows`, packed as a slim row keeps them.
  std::string PackBandKeys(const NearRows& rows) const;
  // The band keys of a comparable sketch into keys_; false for an empty
  // sketch, one of other parameters or version, or without bands. A new
  // page's sketch is looked up and then inserted: the keys of the last
  // sketch are kept for the second call.
  bool BandKeys(std::string_view sketch);
  bool Comparable(std::string_view sketch) const;
  // Every SimHash either index offers for `query`, each once, into found_.
  void CollectCandidates(const NearQuery& query);
  // A slim row's bands (`rows`, their keys `packed`) share a key with the
  // query's (query_keys_).
  bool SharesOwnBand(const NearRows& rows, std::string_view packed) const;
  // The candidate for `simhash` if its live entry is of the scope, accepted
  // by `filter`, and within the distance or sharing a band.
  StatusOr<std::optional<NearCandidate>> Verify(uint64_t scope_id, uint64_t simhash,
                                                const NearQuery& query, bool query_comparable,
                                                const OriginFilter& filter);

  ShardDb* db_;
  const NearLayout* layout_;
  const LshBands* bands_;
  const int fingerprint_version_;
  const Duration ttl_;
  const Duration grace_;
  const EventTime* watermark_;
  SimHashIndex index_;
  std::optional<LshIndex> lsh_;  // with bands only
  // Reused across calls.
  std::vector<SimHashIndex::Candidate> candidates_;
  std::vector<uint64_t> keys_;
  std::string keys_of_;  // the sketch keys_ belong to (empty: none)
  std::vector<uint64_t> query_keys_;  // Find's query's band keys, for Verify
  std::vector<uint64_t> found_;
};

}  // namespace pagesieve::store
