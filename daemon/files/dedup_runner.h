#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/status_or.h"
#include "engine/engine_options.h"
#include "engine/verdict_counts.h"
#include "files/file_source.h"
#include "store/shard_options.h"

namespace pagesieve::files {

struct DedupRunOptions {
  std::vector<std::string> inputs = {"-"};  // JSONL or WARC files; "-" is stdin
  FileSourceOptions input;                  // --input-format, warc.max_record_bytes
  std::string output = "-";                 // verdicts; "-" is stdout
  std::optional<std::string> dead_letters;  // JSONL; none: one line per bad record on stderr
  // State directory; none: a temporary one, removed at the end.
  std::optional<std::string> state_dir;
  int threads = 1;                    // fingerprinting workers
  size_t batch_records = 128;         // records per batch handed to the workers
  int64_t checkpoint_every = 10'000;  // records between checkpoints
  bool progress = true;               // progress lines on stderr every few seconds
};

// `pagesieve dedup`: the record pipeline (daemon/pipeline) over files: a
// FileSource, the deciding stage, a FileSink, and one shard
// (<state_dir>/dedup). Verdicts come out in input order.
class DedupRunner {
 public:
  DedupRunner(engine::EngineOptions engine, store::StateEnvOptions state, DedupRunOptions run,
              const Clock& clock)
      : engine_(std::move(engine)), state_(std::move(state)), run_(std::move(run)), clock_(clock) {}

  // Counts of what was decided. An error means the run could not go on (an
  // unreadable input, a full disk, a shard that would not open): the message
  // says which, and the verdicts written so far stand.
  StatusOr<engine::VerdictCounts> Run();

  // What the WARC inputs held besides the responses decided (after Run()).
  const WarcCounts& warc_counts() const { return warc_counts_; }

 private:
  engine::EngineOptions engine_;
  store::StateEnvOptions state_;
  DedupRunOptions run_;
  const Clock& clock_;
  WarcCounts warc_counts_;
};

}  // namespace pagesieve::files
