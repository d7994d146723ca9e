#include "files/file_source.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <random>

#include <sys/stat.h>

#include "common/stable_hash.h"

namespace pagesieve::files {

PartitionId FileId(const std::string& path) {
  if (path == "-") return PartitionId(static_cast<int32_t>(std::random_device()() & 0x7fffffff));
  char resolved[PATH_MAX];
  const std::string name = realpath(path.c_str(), resolved) ? resolved : path;
  const uint64_t h = StableHash64(name);
  return PartitionId(static_cast<int32_t>((h ^ (h >> 32)) & 0x7fffffff));
}

namespace {

// Only a regular file can be rewound after its first bytes are looked at.
bool IsRegularFile(std::FILE* file) {
  struct stat st;
  return ::fstat(fileno(file), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

FileSource::~FileSource() {
  reader_.reset();
  if (owns_file_ && file_ != nullptr) std::fclose(file_);
}

Status FileSource::OpenNext() {
  const std::string& path = paths_[next_path_++];
  std::string name;
  if (path == "-") {
    file_ = stdin;
    owns_file_ = false;
    name = "stdin";
  } else {
    file_ = std::fopen(path.c_str(), "rb");
    if (file_ == nullptr) {
      return Status::IoError("cannot open input '" + path + "': " + std::strerror(errno));
    }
    owns_file_ = true;
    name = path;
  }
  // Large pages make long lines; a big buffer keeps reads few.
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
  PS_ASSIGN_OR_RETURN(InputFileFormat format,
                      DetectFileFormat(file_, name, !IsRegularFile(file_), options_.format));
  if (format == InputFileFormat::kJsonl) {
    reader_ = JsonlReader(file_, name, FileId(path));
  } else {
    reader_ = WarcReader(file_, format == InputFileFormat::kWarcGzip, name, FileId(path),
                         options_.max_record_bytes, &warc_counts_);
  }
  return Status::Ok();
}

StatusOr<bool> FileSource::ReadRecord(pipeline::SourceRecord* record) {
  for (;;) {
    if (file_ == nullptr) {
      if (next_path_ == paths_.size()) return false;
      PS_RETURN_IF_ERROR(OpenNext());
    }
    PS_ASSIGN_OR_RETURN(bool more, reader_->Next(record));
    if (more) return true;
    reader_.reset();
    if (owns_file_) std::fclose(file_);
    file_ = nullptr;
  }
}

Status CheckInputs(const std::vector<std::string>& paths, InputFormatChoice format) {
  for (const std::string& path : paths) {
    // Opening a FIFO would wait for its writer, and looking at stdin for
    // its input: streams are judged when the run reads them.
    struct stat st;
    if (path == "-" || (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))) continue;
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (file == nullptr) {
      return Status::IoError("cannot open input '" + path + "': " + std::strerror(errno));
    }
    StatusOr<InputFileFormat> detected = DetectFileFormat(file, path, false, format);
    std::fclose(file);
    PS_RETURN_IF_ERROR(detected.status());
  }
  return Status::Ok();
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
