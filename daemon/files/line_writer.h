#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "common/status.h"

namespace pagesieve::files {

// Buffered output of newline-terminated lines to a file or stdout ("-").
// Write errors are remembered and reported by Close(), so a full disk is
// never silent. Not thread-safe.
class LineWriter {
 public:
  LineWriter() = default;
  ~LineWriter();
  LineWriter(const LineWriter&) = delete;
  LineWriter& operator=(const LineWriter&) = delete;

  Status Open(const std::string& path);
  void Write(std::string_view line);
  Status Flush();
  Status Close();

 private:
  FILE* file_ = nullptr;
  bool owns_ = false;
  std::string path_;
};

}  // namespace pagesieve::files
