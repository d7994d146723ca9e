#pragma once

#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/status_or.h"
#include "common/types.h"
#include "files/input_format.h"
#include "files/input_reader.h"
#include "pipeline/source.h"

namespace pagesieve::files {

struct FileSourceOptions {
  InputFormatChoice format = InputFormatChoice::kAuto;  // --input-format
  int64_t max_record_bytes = int64_t{64} << 20;        // warc.max_record_bytes
};

// The Source of pagesieve dedup: fetched-page events from a list of files
// ("-" is stdin), into one lane (partition 0). Each file is JSONL (one JSON
// object per line; empty lines are skipped) or WARC (docs/warc.md), as its
// content says or --input-format forces.
//
// Each record's position, which origins store, is (file id, line index or
// WARC record's byte offset): the
// file id is a hash of the file's real path, so running the same file again
// into the same state lets its records recognise themselves
// (docs/engine.md). Its lane offset counts the records decided into the
// state, across runs: the lane starts where the state's last checkpoint is.
//
// Not thread-safe: the pipeline's thread only.
class FileSource final : public pipeline::Source {
 public:
  // The one lane of a file run.
  static constexpr PartitionId kLane{0};

  // Reads at most `records_per_poll` lines per Poll(), so the pipeline gets
  // to prepare and decide between reads.
  FileSource(std::vector<std::string> paths, size_t records_per_poll, const Clock& clock,
             FileSourceOptions options = {})
      : paths_(std::move(paths)),
        records_per_poll_(records_per_poll),
        clock_(clock),
        options_(options) {}
  ~FileSource() override;

  // Fails when a file cannot be opened or read.
  Status Poll(Duration wait, pipeline::Lanes& lanes) override;
  void Commit(const std::vector<std::pair<PartitionId, Offset>>&, bool) override {}
  void Pause(const std::vector<PartitionId>&) override { paused_ = true; }
  void Resume(const std::vector<PartitionId>&) override { paused_ = false; }
  std::optional<Offset> EndOf(PartitionId) const override { return end_; }
  void Finished(PartitionId) override { finished_ = true; }
  bool Exhausted() const override { return finished_; }

  // What the WARC inputs held besides the responses decided.
  const WarcCounts& warc_counts() const { return warc_counts_; }

 private:
  Status OpenNext();
  // Reads the next non-empty line into `record`; false at the end of input.
  StatusOr<bool> ReadRecord(pipeline::SourceRecord* record);

  const std::vector<std::string> paths_;
  const size_t records_per_poll_;
  const Clock& clock_;
  const FileSourceOptions options_;
  bool opened_ = false;  // the lane
  bool paused_ = false;
  bool finished_ = false;
  std::optional<Offset> end_;  // known at the end of the last file
  Offset next_lane_offset_{0};

  size_t next_path_ = 0;
  FILE* file_ = nullptr;
  bool owns_file_ = false;
  std::unique_ptr<InputReader> reader_;
  WarcCounts warc_counts_;
};

// Opens every input that is a file and refuses the run, before anything is
// written, if one cannot be opened or is neither WARC nor JSONL. Stdin and
// FIFOs are judged by their first byte when the run reads them.
Status CheckInputs(const std::vector<std::string>& paths, InputFormatChoice format);

// The id files are known by in origins: 31 bits of a hash of the real path,
// or a fresh random id for stdin (a stream cannot be recognised again).
PartitionId FileId(const std::string& path);

}  // namespace pagesieve::files
