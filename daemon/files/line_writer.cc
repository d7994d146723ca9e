#include "files/line_writer.h"

#include <cerrno>
#include <cstring>

namespace pagesieve::files {

LineWriter::~LineWriter() { (void)Close(); }

Status LineWriter::Open(const std::string& path) {
  path_ = path;
  if (path == "-") {
    file_ = stdout;
    owns_ = false;
  } else {
    file_ = std::fopen(path.c_str(), "wb");
    if (file_ == nullptr) {
      return Status::IoError("cannot write '" + path + "': " + std::strerror(errno));
    }
    owns_ = true;
  }
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
  return Status::Ok();
}

void LineWriter::Write(std::string_view line) {
  std::fwrite(line.data(), 1, line.size(), file_);
  std::fputc('\n', file_);
}

Status LineWriter::Flush() {
  if (file_ != nullptr && (std::fflush(file_) != 0 || std::ferror(file_))) {
    return Status::IoError("writing '" + path_ + "' failed: " + std::strerror(errno));
  }
  return Status::Ok();
}

Status LineWriter::Close() {
  if (file_ == nullptr) return Status::Ok();
  Status status = Flush();
  if (owns_ && std::fclose(file_) != 0 && status.ok()) {
    status = Status::IoError("closing '" + path_ + "' failed: " + std::strerror(errno));
  }
  file_ = nullptr;
  return status;
}

}  // namespace pagesieve::files
