#pragma once

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/status_or.h"
#include "common/types.h"
#include "engine/prepare_pool.h"

namespace pagesieve::dedup {

// Reads fetched-page events, one JSON object per line, from a list of files
// ("-" is stdin) and hands them out in batches. Each record's position is
// (file id, line index): the file id is a hash of the file's real path, so
// running the same file again into the same state lets its records
// recognise themselves (docs/engine.md). Empty lines are skipped.
// Not thread-safe.
class JsonlSource {
 public:
  explicit JsonlSource(std::vector<std::string> paths) : paths_(std::move(paths)) {}
  ~JsonlSource();

  // Up to `max_records` records; an empty batch means the input is
  // exhausted. Fails when a file cannot be opened or read.
  StatusOr<std::unique_ptr<engine::PrepareBatch>> Next(size_t max_records);

  // The name a record's file was given by (its line is offset + 1).
  const std::string& file_name(PartitionId file_id) const;

 private:
  Status OpenNext();

  std::vector<std::string> paths_;
  size_t next_path_ = 0;
  FILE* file_ = nullptr;
  bool owns_file_ = false;
  std::string name_;
  PartitionId file_id_{};
  int64_t line_ = 0;
  std::map<PartitionId, std::string> names_;
  char* line_buf_ = nullptr;
  size_t line_cap_ = 0;
};

// The id files are known by in origins: 31 bits of a hash of the real path,
// or a fresh random id for stdin (a stream cannot be recognised again).
PartitionId FileId(const std::string& path);

}  // namespace pagesieve::dedup
