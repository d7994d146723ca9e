#include "files/input_reader.h"
#include "warc/header_fields.h"
#include "warc/record_reader.h"

namespace pagesieve::files {
namespace {

// Heritrix writes DNS lookups as response records of type text/dns: not
// pages, so counted with the skipped records, not made dead letters.
bool IsHttp(std::string_view content_type) {
  return content_type.empty() ||
         warc::EqualsIgnoreCase(content_type.substr(0, 16), "application/http");
}

// A member holding a record the reader will keep (its header, a block of at
// most max_record_bytes, the CRLFs) is decoded whole; one that holds a
// larger record is streamed over, as the reader skips it anyway.
size_t WholeMemberLimit(int64_t max_record_bytes) {
  return static_cast<size_t>(max_record_bytes) + warc::RecordReaderOptions{}.max_header_bytes + 4;
}

class WarcFileReader final : public InputReader {
 public:
  WarcFileReader(std::FILE* file, bool gzip, std::string name, PartitionId file_id,
                 int64_t max_record_bytes, WarcCounts* counts)
      : reader_(gzip ? warc::GzipInput(file, name, WholeMemberLimit(max_record_bytes))
                     : warc::PlainInput(file, name),
                warc::RecordReaderOptions{max_record_bytes}),
        name_(std::move(name)),
        file_id_(file_id),
        counts_(*counts) {}

  StatusOr<bool> Next(pipeline::SourceRecord* record) override {
    for (;;) {
      PS_ASSIGN_OR_RETURN(std::optional<warc::WarcRecord> next, reader_.Next());
      if (!next) return false;
      ++counts_.records;
      if (next->ok() && !Wanted(*next)) continue;
      record->stream = name_;
      record->partition = file_id_;
      record->offset = Offset(next->offset);
      record->default_event_id = name_ + "@" + std::to_string(next->offset);
      record->format = engine::InputFormat::kWarcResponse;
      record->refused = next->problem;
      record->value = std::move(next->bytes);
      return true;
    }
  }

 private:
  // Whether a readable record is a page to decide; counts the others.
  bool Wanted(const warc::WarcRecord& r) {
    if (r.type == "response" && IsHttp(r.content_type)) {
      ++counts_.responses;
      return true;
    }
    if (r.type == "revisit") {
      ++counts_.revisits;
    } else if (r.type == "response") {
      ++counts_.skipped["response (" + r.content_type + ")"];
    } else {
      ++counts_.skipped[r.type.empty() ? "(no WARC-Type)" : r.type];
    }
    return false;
  }

  warc::RecordReader reader_;
  const std::string name_;
  const PartitionId file_id_;
  WarcCounts& counts_;
};

}  // namespace

std::string WarcCounts::Summary() const {
  if (records == 0) return "";
  std::string s = "warc: " + std::to_string(records) + " records: " + std::to_string(responses) +
                  " responses, " + std::to_string(revisits) + " revisits (not decided)";
  if (!skipped.empty()) {
    s += ", skipped";
    const char* sep = " ";
    for (const auto& [type, n] : skipped) {
      s += sep + std::to_string(n) + " " + type;
      sep = ", ";
    }
  }
  return s;
}

std::unique_ptr<InputReader> WarcReader(std::FILE* file, bool gzip, std::string name,
                                        PartitionId file_id, int64_t max_record_bytes,
                                        WarcCounts* counts) {
  return std::make_unique<WarcFileReader>(file, gzip, std::move(name), file_id, max_record_bytes,
                                          counts);
}

}  // namespace pagesieve::files
