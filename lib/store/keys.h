#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/digest.h"
#include "store/origin.h"

namespace pagesieve::store {

// Every key begins with the 8-byte id of its dedup scope: the first 64 bits
// of SHA-256 over a domain tag and the scope. A fixed width keeps prefixes
// cheap; docs/state-store.md argues why collisions need no verification
// (about 2.7e-6 for ten million scopes in one shard, and a targeted
// collision costs a 2^64 second preimage on SHA-256).
uint64_t ScopeId(std::string_view scope);

// Remembers the id of the last scope asked for: a record's calls to the
// three stores use the same scope, so each record hashes it once.
// Not thread-safe (one per shard).
class ScopeIdCache {
 public:
  uint64_t Get(std::string_view scope);

 private:
  bool valid_ = false;
  std::string scope_;
  uint64_t id_ = 0;
};

// Key sizes: [scope id 8][digest 16] and [scope id 8][simhash 8].
inline constexpr size_t kDigestKeySize = 24;
inline constexpr size_t kSimHashKeySize = 16;
// A routed home owner's whole near entry: the SimHash key, then its
// origin's event time, partition and offset (HomeEntryKey).
inline constexpr size_t kHomeEntryKeySize = kSimHashKeySize + 24;

// A key of the url, exact or near store, built without allocating.
class EntryKey {
 public:
  // [scope id 8][digest 16]
  EntryKey(uint64_t scope_id, const Digest128& digest);
  // [scope id 8][simhash 8]
  EntryKey(uint64_t scope_id, uint64_t simhash);

  std::string_view view() const { return std::string_view(bytes_.data(), size_); }

 private:
  std::array<char, kDigestKeySize> bytes_{};
  size_t size_ = 0;
};

// [scope id 8][simhash 8][event time 8][partition 8][offset 8], big-endian:
// one incarnation of a near entry, kept whole by its home owner. It sorts
// right after the entry's own key.
std::string HomeEntryKey(uint64_t scope_id, uint64_t simhash, const OriginPosition& at);

}  // namespace pagesieve::store
