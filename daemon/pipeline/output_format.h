#pragma once

#include "common/status.h"
#include "engine/verdict.h"
#include "pipeline/output_message.h"
#include "pipeline/source_record.h"

namespace pagesieve::pipeline {

// How a mode writes its answers: Kafka messages by verdict kind with
// headers, or JSON lines in a verdict file and a dead-letter file. The
// pipeline decides what to say; the format decides how it looks.
class OutputFormat {
 public:
  virtual ~OutputFormat() = default;

  // The verdict for `input`.
  virtual OutputMessage Verdict(const engine::Verdict& verdict,
                                const SourceRecord& input) const = 0;
  // `input` could not be read as an event (or was refused): it goes to the
  // dead letters with `error` as the reason, and nothing of it is lost.
  virtual OutputMessage DeadLetter(const SourceRecord& input, const Status& error) const = 0;
};

}  // namespace pagesieve::pipeline
