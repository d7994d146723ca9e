#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "files/line_writer.h"
#include "pipeline/output_format.h"
#include "pipeline/sink.h"

namespace pagesieve::files {

// The Sink of pagesieve dedup: verdicts to one JSONL file, dead letters to
// another (or, without one, a line each on stderr). A message is
// acknowledged once it is written out to the operating system, which
// Poll() does; a write error (a full disk) fails the acknowledgements, so
// the run stops with it rather than checkpoint past lost output.
//
// Not thread-safe: the pipeline's thread only.
class FileSink final : public pipeline::Sink {
 public:
  // The "topics" of a file run, which the format puts on its messages.
  static constexpr char kVerdicts[] = "verdicts";
  static constexpr char kDeadLetters[] = "dead-letters";

  // `verdicts` and `dead_letters` are paths ("-": stdout).
  Status Open(const std::string& verdicts, const std::optional<std::string>& dead_letters);
  // Writes out what is buffered and closes the files.
  Status Close();

  Status Send(const pipeline::OutputMessage& message,
              const std::shared_ptr<pipeline::DeliveryCounter>& counter) override;
  void Poll(Duration wait) override;
  int64_t unacknowledged() const override { return static_cast<int64_t>(waiting_.size()); }

 private:
  LineWriter verdicts_;
  std::optional<LineWriter> dead_letters_;
  std::vector<std::shared_ptr<pipeline::DeliveryCounter>> waiting_;  // one per message
};

// How pagesieve dedup writes its answers: the verdict JSON as a line, and a
// dead letter as {"file", "line", "error", "record"} (or "record_base64" when
// the line is not UTF-8); for a WARC record {"file", "offset", "error",
// "record_base64"}, the offset being the record's (or its gzip member's) in
// the file.
class FileFormat final : public pipeline::OutputFormat {
 public:
  pipeline::OutputMessage Verdict(const engine::Verdict& verdict,
                                  const pipeline::SourceRecord& input) const override;
  pipeline::OutputMessage DeadLetter(const pipeline::SourceRecord& input,
                                     const Status& error) const override;

 private:
  pipeline::OutputMessage WarcDeadLetter(const pipeline::SourceRecord& input,
                                         const Status& error) const;
};

}  // namespace pagesieve::files
