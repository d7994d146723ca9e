#pragma once

// Reads the gzipped pages of ../shared/data for tests.

#include <zlib.h>

#include <memory>
#include <string>

namespace pagesieve::fingerprint::testing {

// The decompressed bytes of a .gz file; empty when it cannot be read.
inline std::string ReadGzipFile(const std::string& path) {
  struct Closer {
    void operator()(gzFile_s* f) const { gzclose(f); }
  };
  std::unique_ptr<gzFile_s, Closer> file(gzopen(path.c_str(), "rb"));
  std::string out;
  if (!file) return out;
  char buffer[1 << 16];
  int n = 0;
  while ((n = gzread(file.get(), buffer, sizeof(buffer))) > 0) out.append(buffer, n);
  return out;
}

inline std::string ExtractionDataDir() { return PAGESIEVE_SOURCE_DIR "/../shared/data/extraction"; }

}  // namespace pagesieve::fingerprint::testing
