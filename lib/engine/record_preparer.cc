#include "engine/record_preparer.h"

#include <algorithm>

#include "common/duration.h"
#include "common/time_format.h"
#include "engine/warc_event.h"
#include "url/registered_domain.h"

namespace pagesieve::engine {

RecordPreparer::RecordPreparer(const EngineOptions& options, const Clock& clock)
    : options_(options),
      clock_(clock),
      canonicalizer_(options.fingerprint.url),
      fingerprinter_(options.fingerprint),
      near_policy_(options.near, options.near_overrides) {}

bool RecordPreparer::Accepted(int status) const {
  return std::find(options_.accept_status.begin(), options_.accept_status.end(), status) !=
         options_.accept_status.end();
}

StatusOr<EventTime> RecordPreparer::EventTimeOf(const std::optional<EventTime>& fetched_at,
                                                const InputRecord& record) const {
  std::optional<EventTime> t = fetched_at ? fetched_at : record.timestamp;
  if (!t) {
    return Status::InvalidArgument("no '" + options_.fields.fetched_at +
                                   "' field and no record timestamp to default to");
  }
  // A clock far ahead would push the watermark past every entry's TTL.
  // The bound is judged against the record's own timestamp when it has one
  // (Kafka stores it with the record), so a replay refuses exactly what the
  // live run refused; only records without one (files) use the clock.
  if (options_.max_future.count() > 0) {
    const bool by_record = record.timestamp.has_value();
    const EventTime reference =
        by_record ? *record.timestamp : EventTime::FromWallClock(clock_.Now());
    if (*t > reference + options_.max_future) {
      return Status::InvalidArgument(
          "event time " + FormatRfc3339(*t) + " is more than " +
          FormatDuration(options_.max_future) +
          (by_record ? " ahead of the record's timestamp" : " ahead of the clock") +
          " (event.max_future)");
    }
  }
  return *t;
}

StatusOr<FetchedEvent> RecordPreparer::ReadEvent(const InputRecord& record) const {
  if (!record.refused.empty()) return Status::InvalidArgument(record.refused);
  if (record.format == InputFormat::kWarcResponse) {
    // One byte over max_body_bytes is enough for the fingerprinter to say
    // truncated; decoding more would only cost.
    return FetchedEventFromWarc(record.value, options_.fingerprint.max_body_bytes + 1);
  }
  return ParseFetchedEvent(record.value, options_.fields);
}

StatusOr<PreparedRecord> RecordPreparer::Prepare(const InputRecord& record) {
  PS_ASSIGN_OR_RETURN(FetchedEvent event, ReadEvent(record));
  PS_ASSIGN_OR_RETURN(EventTime event_time, EventTimeOf(event.fetched_at, record));

  PreparedRecord out;
  out.partition = record.partition;
  out.offset = record.offset;
  out.event_id = event.event_id.empty() ? std::string(record.default_event_id) : event.event_id;
  out.url = event.url;
  out.event_time = event_time;
  out.status = event.status;
  out.source = record.source;

  std::optional<std::string_view> key = record.key;
  if (!key && event.key) key = *event.key;

  if (!Accepted(event.status)) {
    StatusOr<url::CanonicalUrl> canonical = canonicalizer_.Canonicalize(event.url);
    if (!canonical.ok()) return canonical.status().WithContext("url");
    out.canonical_url = canonical->spec;
    out.scope = ScopeOf(options_.scope_key, canonical->host(), key);
    return out;  // skipped: no fingerprints
  }

  fingerprint::PageInput page{event.url, event.content_type, event.body, std::nullopt};
  if (event.text) page.text = *event.text;
  if (event.payload_digest) page.payload_digest = *event.payload_digest;
  StatusOr<fingerprint::PageFingerprint> fp = fingerprinter_.Fingerprint(page);
  if (!fp.ok()) return fp.status().WithContext("url");

  const std::string_view host = fp->canonical_url.host();
  out.canonical_url = fp->canonical_url.spec;
  out.scope = ScopeOf(options_.scope_key, host, key);
  out.truncated = fp->truncated;
  out.fingerprints = Fingerprints{fp->url, fp->content, std::move(fp->payload), fp->simhash,
                                  fp->minhash ? fp->minhash->Encode() : std::string()};
  out.near = near_policy_.RuleFor(host, url::RegisteredDomain(host));
  return out;
}

}  // namespace pagesieve::engine
