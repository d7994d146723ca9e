#include "store/keys.h"

#include <openssl/sha.h>

#include <cstring>

namespace pagesieve::store {
namespace {

void PutId(uint64_t id, char* out) {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>(id >> (56 - 8 * i));
}

}  // namespace

uint64_t ScopeId(std::string_view scope) {
  // The tag keeps scope ids apart from any other SHA-256 use of the same text.
  static constexpr std::string_view kTag("pagesieve.scope\n");
  std::string text;
  text.reserve(kTag.size() + scope.size());
  text.append(kTag).append(scope);
  unsigned char md[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), md);
  uint64_t id = 0;
  for (int i = 0; i < 8; ++i) id = (id << 8) | md[i];
  return id;
}

uint64_t ScopeIdCache::Get(std::string_view scope) {
  if (!valid_ || scope != scope_) {
    scope_.assign(scope);
    id_ = ScopeId(scope);
    valid_ = true;
  }
  return id_;
}

EntryKey::EntryKey(uint64_t scope_id, const Digest128& digest) : size_(kDigestKeySize) {
  PutId(scope_id, bytes_.data());
  std::memcpy(bytes_.data() + 8, digest.bytes.data(), 16);
}

EntryKey::EntryKey(uint64_t scope_id, uint64_t simhash) : size_(kSimHashKeySize) {
  PutId(scope_id, bytes_.data());
  PutId(simhash, bytes_.data() + 8);
}

std::string HomeEntryKey(uint64_t scope_id, uint64_t simhash, const OriginPosition& at) {
  std::string key(kHomeEntryKeySize, '\0');
  PutId(scope_id, key.data());
  PutId(simhash, key.data() + 8);
  PutId(static_cast<uint64_t>(at.event_time.millis()), key.data() + 16);
  PutId(static_cast<uint64_t>(static_cast<int64_t>(at.partition.value())), key.data() + 24);
  PutId(static_cast<uint64_t>(at.offset.value()), key.data() + 32);
  return key;
}

}  // namespace pagesieve::store
