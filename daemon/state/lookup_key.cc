#include "state/lookup_key.h"

#include "common/hex.h"
#include "engine/scope.h"
#include "fingerprint/digests.h"
#include "url/canonicalizer.h"
#include "url/registered_domain.h"

namespace pagesieve::state {
namespace {

const char* ScopeKeyName(engine::ScopeKey key) {
  switch (key) {
    case engine::ScopeKey::kRegisteredDomain:
      return "registered_domain";
    case engine::ScopeKey::kHost:
      return "host";
    case engine::ScopeKey::kRecordKey:
      return "record_key";
    case engine::ScopeKey::kGlobal:
      return "global";
  }
  return "?";
}

// Canonicalizes --url and derives the scope and distance the engine would.
Status ResolveUrl(const std::string& url, const engine::EngineOptions& sieve, LookupKey* key) {
  const url::Canonicalizer canonicalizer(sieve.fingerprint.url);
  StatusOr<url::CanonicalUrl> canonical = canonicalizer.Canonicalize(url);
  if (!canonical.ok()) return canonical.status().WithContext("--url");
  key->url = url;
  key->canonical_url = canonical->spec;
  key->url_digest = fingerprint::Sha256Digest128(canonical->spec);
  const std::string_view host = canonical->host();
  key->scope = engine::ScopeOf(sieve.scope_key, host, std::nullopt);
  key->scope_from = std::string("scope.key = ") + ScopeKeyName(sieve.scope_key) + " of the URL";
  if (sieve.scope_key == engine::ScopeKey::kRecordKey) {
    key->scope_from += " (records without a key; pass --scope for a keyed record)";
  }
  const engine::NearPolicy policy(sieve.near, sieve.near_overrides);
  key->max_distance = policy.RuleFor(host, url::RegisteredDomain(host)).max_distance;
  return Status::Ok();
}

Status ResolveScope(const LookupFlags& flags, const engine::EngineOptions& sieve, LookupKey* key) {
  if (flags.scope) {
    if (flags.scope->empty()) return Status::InvalidArgument("--scope is empty");
    key->scope = *flags.scope;
    key->scope_from = "--scope";
  } else if (key->canonical_url.empty()) {
    if (sieve.scope_key != engine::ScopeKey::kGlobal) {
      return Status::InvalidArgument(
          "--simhash and --content need the scope: pass --scope, or --url of a page of the "
          "site (scope.key = " +
          std::string(ScopeKeyName(sieve.scope_key)) + ")");
    }
    key->scope = engine::ScopeOf(sieve.scope_key, "", std::nullopt);
    key->scope_from = "scope.key = global";
  }
  return Status::Ok();
}

Status ResolveKind(const LookupFlags& flags, LookupKey* key) {
  if (flags.simhash && flags.content) {
    return Status::InvalidArgument("give one of --simhash and --content, not both");
  }
  if (flags.simhash) {
    key->kind = LookupKey::Kind::kSimHash;
    PS_ASSIGN_OR_RETURN(key->simhash, ParseSimHash(*flags.simhash));
  } else if (flags.content) {
    key->kind = LookupKey::Kind::kContent;
    PS_ASSIGN_OR_RETURN(key->content, ParseDigest(*flags.content));
  } else if (flags.url) {
    key->kind = LookupKey::Kind::kUrl;
  } else {
    return Status::InvalidArgument("lookup needs --url URL, --simhash HEX or --content HEX");
  }
  return Status::Ok();
}

}  // namespace

StatusOr<uint64_t> ParseSimHash(std::string_view text) {
  std::string_view digits = text;
  if (digits.starts_with("0x") || digits.starts_with("0X")) digits.remove_prefix(2);
  if (digits.empty() || digits.size() > 16) {
    return Status::InvalidArgument("--simhash '" + std::string(text.substr(0, 40)) +
                                   "' is not 1 to 16 hex digits");
  }
  uint64_t v = 0;
  for (char c : digits) {
    const int h = HexDigitValue(c);
    if (h < 0) {
      return Status::InvalidArgument("--simhash '" + std::string(text.substr(0, 40)) +
                                     "' is not hexadecimal");
    }
    v = (v << 4) | static_cast<uint64_t>(h);
  }
  return v;
}

StatusOr<Digest128> ParseDigest(std::string_view text) {
  Digest128 d;
  bool ok = text.size() == 32;
  for (size_t i = 0; ok && i < 16; ++i) {
    const int hi = HexDigitValue(text[2 * i]);
    const int lo = HexDigitValue(text[2 * i + 1]);
    ok = hi >= 0 && lo >= 0;
    d.bytes[i] = static_cast<uint8_t>(ok ? hi * 16 + lo : 0);
  }
  if (!ok) {
    return Status::InvalidArgument("--content '" + std::string(text.substr(0, 40)) +
                                   "' is not a digest of 32 hex digits");
  }
  return d;
}

StatusOr<LookupKey> ResolveLookupKey(const LookupFlags& flags, const engine::EngineOptions& sieve) {
  LookupKey key;
  PS_RETURN_IF_ERROR(ResolveKind(flags, &key));
  key.max_distance = sieve.near.max_distance;
  if (flags.url) PS_RETURN_IF_ERROR(ResolveUrl(*flags.url, sieve, &key));
  PS_RETURN_IF_ERROR(ResolveScope(flags, sieve, &key));
  if (flags.max_distance) {
    if (*flags.max_distance < 0 || *flags.max_distance > 64) {
      return Status::InvalidArgument("--max-distance must be within 0..64");
    }
    key.max_distance = *flags.max_distance;
  }
  if (flags.limit < 1) return Status::InvalidArgument("--limit must be at least 1");
  return key;
}

}  // namespace pagesieve::state
