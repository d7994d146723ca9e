#pragma once

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "warc/record_reader.h"
#include "warc/sniff.h"

namespace pagesieve::warc {

inline std::string ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string RealWarc(const std::string& name) {
  return PAGESIEVE_SOURCE_DIR "/tests/data/warc/" + name;
}

// Every record of `bytes`, read as a file would be (gzip when it is gzip).
inline std::vector<WarcRecord> ReadAll(const std::string& bytes, RecordReaderOptions options = {}) {
  std::vector<WarcRecord> out;
  std::string copy = bytes;
  std::FILE* f = fmemopen(copy.data(), copy.size(), "rb");
  if (f == nullptr) return out;
  auto input = IsGzip(bytes) ? GzipInput(f, "test") : PlainInput(f, "test");
  RecordReader reader(std::move(input), options);
  for (;;) {
    StatusOr<std::optional<WarcRecord>> next = reader.Next();
    if (!next.ok() || !next->has_value()) break;
    out.push_back(std::move(**next));
  }
  std::fclose(f);
  return out;
}

}  // namespace pagesieve::warc
