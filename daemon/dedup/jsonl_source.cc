#include "dedup/jsonl_source.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <random>

namespace pagesieve::dedup {

PartitionId FileId(const std::string& path) {
  if (path == "-") return PartitionId(static_cast<int32_t>(std::random_device()() & 0x7fffffff));
  char resolved[PATH_MAX];
  const std::string name = realpath(path.c_str(), resolved) ? resolved : path;
  // FNV-1a: stable across releases and platforms, unlike std::hash.
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ull;
  return PartitionId(static_cast<int32_t>((h ^ (h >> 32)) & 0x7fffffff));
}

JsonlSource::~JsonlSource() {
  if (owns_file_ && file_ != nullptr) std::fclose(file_);
  std::free(line_buf_);
}

const std::string& JsonlSource::file_name(PartitionId file_id) const {
  static const std::string kUnknown = "?";
  auto it = names_.find(file_id);
  return it == names_.end() ? kUnknown : it->second;
}

Status JsonlSource::OpenNext() {
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
  names_[file_id_] = name_;
  line_ = 0;
  return Status::Ok();
}

StatusOr<std::unique_ptr<engine::PrepareBatch>> JsonlSource::Next(size_t max_records) {
  auto batch = std::make_unique<engine::PrepareBatch>();
  batch->storage.reserve(2 * max_records);
  while (batch->records.size() < max_records) {
    if (file_ == nullptr) {
      if (next_path_ == paths_.size()) break;
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

    batch->storage.emplace_back(text);
    batch->storage.push_back(name_ + ":" + std::to_string(line_index + 1));
    engine::InputRecord record;
    record.partition = file_id_;
    record.offset = Offset(line_index);
    batch->records.push_back(record);
  }
  // Point the records into their storage only now: the vector no longer moves.
  for (size_t i = 0; i < batch->records.size(); ++i) {
    batch->records[i].value = batch->storage[2 * i];
    batch->records[i].default_event_id = batch->storage[2 * i + 1];
  }
  return batch;
}

}  // namespace pagesieve::dedup
