#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/digest.h"
#include "common/types.h"
#include "engine/input_record.h"
#include "engine/near_rule.h"
#include "store/origin.h"

namespace pagesieve::engine {

// What the rules compare a page by (docs/architecture.md, "Fingerprints").
struct Fingerprints {
  Digest128 url;
  Digest128 content;
  std::string payload;              // "sha1:<base32>"
  std::optional<uint64_t> simhash;  // absent below near.min_tokens
  // The encoded MinHash sketch (fingerprint::MinHashSketch::Encode); empty
  // when the page has none (too few distinct shingles, or no SimHash).
  std::string minhash;

  friend bool operator==(const Fingerprints&, const Fingerprints&) = default;
};

// What a record that travelled through the repartition topic (docs/rekey.md)
// brings from its original input record, for its verdict message: the Kafka
// key it is published under, and the body field's raw JSON (name and value)
// when output.include_body needs it.
struct ForwardedFields {
  std::optional<std::string> key;
  std::optional<std::string> body_field;
  std::string body_json;
  // Set when the body was left out because the message would have exceeded
  // the output topics' size limit: the body's size in bytes.
  std::optional<int64_t> body_omitted_bytes;

  friend bool operator==(const ForwardedFields&, const ForwardedFields&) = default;
};

// A record after the CPU-heavy, stateless half of the engine (RecordPreparer
// or, for a re-keyed record, DecodeRepartitionRecord): parsed, fingerprinted
// and scoped. Nothing is decided yet; the Decider does that.
struct PreparedRecord {
  std::string event_id;
  std::string url;  // as the event gave it
  std::string canonical_url;
  std::string scope;
  EventTime event_time{};
  int status = 200;
  bool truncated = false;  // the body was longer than max_body_bytes
  // Absent for a record whose status is not accepted: it is skipped, not
  // fingerprinted, and touches no state.
  std::optional<Fingerprints> fingerprints;
  NearRule near;  // the near tier's settings for its site, after overrides
  // The record's position in its input; origins store it. For a re-keyed
  // record it is the original input record's, not the repartition topic's,
  // so a record republished twice (the re-keying stage is at-least-once)
  // still recognises itself.
  PartitionId partition{};
  Offset offset{};
  std::optional<SourcePosition> source;      // Kafka only; the verdict repeats it
  std::optional<ForwardedFields> forwarded;  // re-keyed records only

  bool skipped() const { return !fingerprints.has_value(); }
  // This record as the origin of the entries it creates.
  store::Origin origin() const {
    return store::Origin{event_id, canonical_url, event_time, partition, offset};
  }

  friend bool operator==(const PreparedRecord&, const PreparedRecord&) = default;
};

}  // namespace pagesieve::engine
