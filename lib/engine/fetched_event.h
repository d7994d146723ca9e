#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/status_or.h"
#include "common/types.h"
#include "config/config.h"

namespace pagesieve::engine {

// The JSON field names of a fetched-page event. Buses name things
// differently; [event.fields] in the configuration maps ours to theirs.
struct EventFieldNames {
  std::string url = "url";
  std::string fetched_at = "fetched_at";
  std::string status = "status";
  std::string content_type = "content_type";
  std::string body = "body";
  std::string body_base64 = "body_base64";
  std::string text = "text";
  std::string event_id = "event_id";
  // Files have no record keys; with scope.key = record_key, `pagesieve dedup`
  // reads the key from this field instead.
  std::string key = "key";
};

StatusOr<EventFieldNames> EventFieldNamesFromConfig(const Config& config);

// One page as the crawler fetched it.
struct FetchedEvent {
  std::string url;
  std::optional<EventTime> fetched_at;  // absent: use the record's timestamp
  int status = 200;
  std::string content_type;
  std::string body;  // raw bytes; body_base64 already decoded
  std::optional<std::string> text;      // pre-extracted main text, if the crawler sent one
  std::string event_id;                 // empty: the caller supplies its default
  std::optional<std::string> key;       // only read for files (see EventFieldNames::key)
  // From a WARC record: "sha1:<base32>" over the payload as stored, which
  // `body` (decoded) is not. Absent: the digest is computed over `body`.
  std::optional<std::string> payload_digest;
};

// Parses one event (one JSON object). Unknown fields are ignored. Errors
// (InvalidArgument) say what is wrong in a few words: not JSON, no url, a
// field of the wrong type, invalid base64, an unreadable fetched_at.
// `fetched_at` is an RFC 3339 string or an integer of epoch milliseconds.
// When both `body` and `body_base64` are present, `body_base64` wins: it
// carries the exact bytes.
StatusOr<FetchedEvent> ParseFetchedEvent(std::string_view json, const EventFieldNames& names);

}  // namespace pagesieve::engine
