#pragma once

#include "common/clock.h"
#include "common/status_or.h"
#include "engine/engine_options.h"
#include "engine/input_record.h"
#include "engine/prepared_record.h"
#include "engine/near_rule.h"
#include "engine/scope.h"
#include "fingerprint/fingerprinter.h"
#include "url/canonicalizer.h"

namespace pagesieve::engine {

// The stateless half of the engine: event JSON → fingerprints and scope. It
// is where nearly all CPU goes, so sources run one RecordPreparer per worker
// thread (it holds the fingerprinter's buffers; not thread-safe).
//
// An error means the record is bad (not JSON, no usable URL, no event time,
// a time in the future) and belongs in the dead-letter output with the
// error's message as the reason.
class RecordPreparer {
 public:
  // `clock` bounds how far in the future the event time of a record without
  // a timestamp of its own may be (event.max_future; a record with one is
  // judged against it); it must outlive the preparer.
  RecordPreparer(const EngineOptions& options, const Clock& clock);

  StatusOr<PreparedRecord> Prepare(const InputRecord& record);

 private:
  StatusOr<FetchedEvent> ReadEvent(const InputRecord& record) const;
  StatusOr<EventTime> EventTimeOf(const std::optional<EventTime>& fetched_at,
                                  const InputRecord& record) const;
  bool Accepted(int status) const;

  const EngineOptions& options_;
  const Clock& clock_;
  url::Canonicalizer canonicalizer_;  // for skipped records, which are not fingerprinted
  fingerprint::Fingerprinter fingerprinter_;
  NearPolicy near_policy_;
};

}  // namespace pagesieve::engine
