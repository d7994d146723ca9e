#include "engine/warc_event.h"

#include "common/time_format.h"
#include "warc/response_page.h"

namespace pagesieve::engine {

StatusOr<FetchedEvent> FetchedEventFromWarc(std::string_view record, size_t max_decoded_bytes) {
  PS_ASSIGN_OR_RETURN(warc::ResponsePage page, warc::ReadResponsePage(record, max_decoded_bytes));
  FetchedEvent event;
  StatusOr<EventTime> date = ParseRfc3339(page.date);
  if (!date.ok()) return date.status().WithContext("WARC-Date");
  event.fetched_at = *date;
  event.url = std::move(page.target_uri);
  event.event_id = std::move(page.record_id);
  event.status = page.status;
  event.content_type = std::move(page.content_type);
  event.body = std::move(page.body);
  event.payload_digest = std::move(page.payload_digest);
  return event;
}

}  // namespace pagesieve::engine
