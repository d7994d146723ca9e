#pragma once

#include <string>
#include <vector>

namespace pagesieve::testing {

struct ProcessResult {
  int exit_code = -1;  // -1: did not exit normally (signal)
  std::string out;     // standard output
  std::string err;     // standard error
};

// Runs `argv` (argv[0] is the program's path; no shell involved) with
// `input` on its standard input, and waits for it.
ProcessResult RunProcess(const std::vector<std::string>& argv, const std::string& input = "");

// Runs the pagesieve binary of this build with `args`.
ProcessResult RunPagesieve(const std::vector<std::string>& args, const std::string& input = "");

// A fresh directory under the test temp dir, removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

std::string ReadFile(const std::string& path);
void WriteFile(const std::string& path, const std::string& text);

}  // namespace pagesieve::testing
