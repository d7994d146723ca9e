#include "files/file_source.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <random>

namespace pagesieve::files {

PartitionId FileId(const std::string& path) {
  if (path == "-") return PartitionId(static_cast<int32_t>(std::random_device()() & 0x7fffffff));
  char resolved[PATH_MAX];
  const std::string name = realpath(path.c_str(), resolved) ? resolved : path;
  // FNV-1a: stable across releases and platforms, unlike std::hash.
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ull;
  return PartitionId(static_cast<int32_t>((h ^ (h >> 32)) & 0x7fffffff));
}

FileSource::~FileSource() {
  if (owns_file_ && file_ != nullptr) std::fclose(file_);
  std::free(line_buf_);
}

Status FileSource::OpenNext() {
  const std::string& path = paths_[next_path_++];
  if (path == "-") {
    file_ = stdin;
    owns_file_ = false;
    name_ = "stdin";
  } else {
    file_ = std::fopen(path.c_str(), "rb");
    if (file_ == nullptr) {
      return Status::IoError("cannot open input '" + path + "': " + std::strerror(errno));
    }
    owns_file_ = true;
    name_ = path;
  }
  // Large pages make long lines; a big buffer keeps reads few.
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
  file_id_ = FileId(path);
  line_ = 0;
  return Status::Ok();
}

StatusOr<bool> FileSource::ReadRecord(pipeline::SourceRecord* record) {
  for (;;) {
    if (file_ == nullptr) {
      if (next_path_ == paths_.size()) return false;
      PS_RETURN_IF_ERROR(OpenNext());
    }
    const ssize_t n = getline(&line_buf_, &line_cap_, file_);
    if (n < 0) {
      const bool failed = std::ferror(file_);
      if (owns_file_) std::fclose(file_);
      file_ = nullptr;
      if (failed) return Status::IoError("cannot read input '" + name_ + "'");
      continue;
    }
    const int64_t line_index = line_++;
    std::string_view text(line_buf_, static_cast<size_t>(n));
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
    if (text.find_first_not_of(" \t") == std::string_view::npos) continue;

    record->stream = name_;
    record->partition = file_id_;
    record->offset = Offset(line_index);
    record->value.assign(text);
    record->default_event_id = name_ + ":" + std::to_string(line_index + 1);
    return true;
  }
}

Status FileSource::Poll(Duration, pipeline::Lanes& lanes) {
  if (!opened_) {
    PS_ASSIGN_OR_RETURN(std::optional<Offset> checkpointed, lanes.Open(kLane));
    next_lane_offset_ = checkpointed.value_or(Offset(0));
    lanes.StartAt(kLane, next_lane_offset_);
    opened_ = true;
  }
  if (paused_ || end_) return Status::Ok();
  for (size_t i = 0; i < records_per_poll_; ++i) {
    pipeline::SourceRecord record;
    PS_ASSIGN_OR_RETURN(bool more, ReadRecord(&record));
    if (!more) {
      end_ = next_lane_offset_;
      return Status::Ok();
    }
    record.lane_offset = next_lane_offset_;
    next_lane_offset_ = next_lane_offset_.Next();
    record.received_at = clock_.SteadyNow();
    lanes.Add(kLane, std::move(record));
  }
  return Status::Ok();
}

}  // namespace pagesieve::files
