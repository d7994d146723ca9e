#pragma once

#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "common/status_or.h"
#include "common/types.h"
#include "pipeline/source_record.h"

namespace pagesieve::files {

// Reads the records of one input file, whatever its format, into source
// records (stream, partition, offset, value, default event id, format). The
// file stays the caller's. Not thread-safe.
class InputReader {
 public:
  virtual ~InputReader() = default;
  // The next record; false at the end of the file. An error is the
  // operating system's (the file cannot be read): fatal for the run.
  virtual StatusOr<bool> Next(pipeline::SourceRecord* record) = 0;
};

// What the WARC inputs of a run held besides the responses it decided, so a
// user sees what was left out and why.
struct WarcCounts {
  int64_t records = 0;    // every WARC record read, broken ones included
  int64_t responses = 0;  // HTTP responses handed to the engine
  int64_t revisits = 0;   // counted, not decided (they carry no payload)
  std::map<std::string, int64_t> skipped;  // by WARC-Type: request, metadata, warcinfo, ...

  // "warc: 120 records: 40 responses, 3 revisits (not decided), skipped
  // 40 request, 1 warcinfo"; empty when no WARC input was read.
  std::string Summary() const;
};

// One event per non-empty line. Line indexes are the records' offsets.
std::unique_ptr<InputReader> JsonlReader(std::FILE* file, std::string name, PartitionId file_id);

// Response records with HTTP payloads become records in WARC format (the
// engine reads them: engine/warc_event.h); broken records become refused
// ones with the reason; other types are counted into `counts`. Byte
// offsets (of the gzip member in a .warc.gz) are the records' offsets.
std::unique_ptr<InputReader> WarcReader(std::FILE* file, bool gzip, std::string name,
                                        PartitionId file_id, int64_t max_record_bytes,
                                        WarcCounts* counts);

}  // namespace pagesieve::files
