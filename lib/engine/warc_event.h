#pragma once

#include <cstddef>
#include <string_view>

#include "common/status_or.h"
#include "engine/fetched_event.h"

namespace pagesieve::engine {

// A WARC response record (header and block as stored) as a fetched-page
// event: url = WARC-Target-URI, event_id = WARC-Record-ID, fetched_at =
// WARC-Date, status and content_type from the HTTP header, body = the
// decoded payload (at most `max_decoded_bytes` of a compressed one),
// payload_digest over the payload as stored. An error is the reason for
// the record's dead letter (docs/warc.md).
StatusOr<FetchedEvent> FetchedEventFromWarc(std::string_view record, size_t max_decoded_bytes);

}  // namespace pagesieve::engine
