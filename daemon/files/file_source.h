#pragma once

#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/status_or.h"
#include "common/types.h"
#include "pipeline/source.h"

namespace pagesieve::files {

// The Source of pagesieve dedup: fetched-page events, one JSON object per
// line, from a list of files ("-" is stdin), into one lane (partition 0).
// Empty lines are skipped.
//
// Each record's position, which origins store, is (file id, line index): the
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
  FileSource(std::vector<std::string> paths, size_t records_per_poll, const Clock& clock)
      : paths_(std::move(paths)), records_per_poll_(records_per_poll), clock_(clock) {}
  ~FileSource() override;

  // Fails when a file cannot be opened or read.
  Status Poll(Duration wait, pipeline::Lanes& lanes) override;
  void Commit(const std::vector<std::pair<PartitionId, Offset>>&, bool) override {}
  void Pause(const std::vector<PartitionId>&) override { paused_ = true; }
  void Resume(const std::vector<PartitionId>&) override { paused_ = false; }
  std::optional<Offset> EndOf(PartitionId) const override { return end_; }
  void Finished(PartitionId) override { finished_ = true; }
  bool Exhausted() const override { return finished_; }

 private:
  Status OpenNext();
  // Reads the next non-empty line into `record`; false at the end of input.
  StatusOr<bool> ReadRecord(pipeline::SourceRecord* record);

  const std::vector<std::string> paths_;
  const size_t records_per_poll_;
  const Clock& clock_;
  bool opened_ = false;  // the lane
  bool paused_ = false;
  bool finished_ = false;
  std::optional<Offset> end_;  // known at the end of the last file
  Offset next_lane_offset_{0};

  size_t next_path_ = 0;
  FILE* file_ = nullptr;
  bool owns_file_ = false;
  std::string name_;
  PartitionId file_id_{};
  int64_t line_ = 0;
  char* line_buf_ = nullptr;
  size_t line_cap_ = 0;
};

// The id files are known by in origins: 31 bits of a hash of the real path,
// or a fresh random id for stdin (a stream cannot be recognised again).
PartitionId FileId(const std::string& path);

}  // namespace pagesieve::files
