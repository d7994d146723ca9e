#pragma once

#include <cstdint>
#include <string>

#include "common/digest.h"
#include "common/status_or.h"
#include "engine/engine_options.h"
#include "state/state_settings.h"

namespace pagesieve::state {

// What `state lookup` looks for, resolved from its flags the way the engine
// resolves a record: the URL canonicalized and digested, the scope derived
// from it (or given), the SimHash distance of its site.
struct LookupKey {
  enum class Kind { kUrl, kSimHash, kContent };
  Kind kind = Kind::kUrl;
  std::string url;            // as given (kUrl, or the URL that gave the scope)
  std::string canonical_url;  // empty without --url
  Digest128 url_digest;
  Digest128 content;
  uint64_t simhash = 0;
  std::string scope;
  std::string scope_from;  // how the scope was found, for the reader
  int max_distance = 0;    // kSimHash
};

// InvalidArgument, naming the flag, for a missing or malformed key.
StatusOr<LookupKey> ResolveLookupKey(const LookupFlags& flags, const engine::EngineOptions& sieve);

// "0x" optional, 1 to 16 hex digits (verdicts print 16).
StatusOr<uint64_t> ParseSimHash(std::string_view text);
// Exactly 32 hex digits, as verdicts print content and URL digests.
StatusOr<Digest128> ParseDigest(std::string_view text);

}  // namespace pagesieve::state
