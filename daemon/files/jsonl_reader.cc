#include <cstdlib>

#include "files/input_reader.h"

namespace pagesieve::files {
namespace {

class JsonlFileReader final : public InputReader {
 public:
  JsonlFileReader(std::FILE* file, std::string name, PartitionId file_id)
      : file_(file), name_(std::move(name)), file_id_(file_id) {}
  ~JsonlFileReader() override { std::free(line_buf_); }

  StatusOr<bool> Next(pipeline::SourceRecord* record) override {
    for (;;) {
      const ssize_t n = getline(&line_buf_, &line_cap_, file_);
      if (n < 0) {
        if (std::ferror(file_)) return Status::IoError("cannot read input '" + name_ + "'");
        return false;
      }
      const int64_t line_index = line_++;
      std::string_view text(line_buf_, static_cast<size_t>(n));
      while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
      if (text.find_first_not_of(" \t") == std::string_view::npos) continue;

      record->stream = name_;
      record->partition = file_id_;
      record->offset = Offset(line_index);
      record->value = std::string(text);
      record->default_event_id = name_ + ":" + std::to_string(line_index + 1);
      return true;
    }
  }

 private:
  std::FILE* const file_;
  const std::string name_;
  const PartitionId file_id_;
  int64_t line_ = 0;
  char* line_buf_ = nullptr;
  size_t line_cap_ = 0;
};

}  // namespace

std::unique_ptr<InputReader> JsonlReader(std::FILE* file, std::string name, PartitionId file_id) {
  return std::make_unique<JsonlFileReader>(file, std::move(name), file_id);
}

}  // namespace pagesieve::files
