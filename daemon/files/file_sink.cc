#include "files/file_sink.h"

#include <simdjson.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "engine/base64.h"

namespace pagesieve::files {
namespace {

// Dead letters carry these headers for the stderr line written when there
// is no dead-letter file.
constexpr char kFileHeader[] = "file";
constexpr char kLineHeader[] = "line";
constexpr char kErrorHeader[] = "error";

const std::string& HeaderOf(const pipeline::OutputMessage& m, const char* name) {
  static const std::string kNone;
  for (const auto& [key, value] : m.headers) {
    if (key == name) return value;
  }
  return kNone;
}

}  // namespace

Status FileSink::Open(const std::string& verdicts, const std::optional<std::string>& dead_letters) {
  PS_RETURN_IF_ERROR(verdicts_.Open(verdicts));
  if (dead_letters) PS_RETURN_IF_ERROR(dead_letters_.emplace().Open(*dead_letters));
  return Status::Ok();
}

Status FileSink::Close() {
  Poll(Duration(0));
  PS_RETURN_IF_ERROR(verdicts_.Close());
  return dead_letters_ ? dead_letters_->Close() : Status::Ok();
}

Status FileSink::Send(const pipeline::OutputMessage& message,
                      const std::shared_ptr<pipeline::DeliveryCounter>& counter) {
  if (message.topic == kVerdicts) {
    verdicts_.Write(message.value);
  } else if (dead_letters_) {
    dead_letters_->Write(message.value);
  } else {
    std::fprintf(stderr, "pagesieve: dead letter %s:%s: %s\n",
                 HeaderOf(message, kFileHeader).c_str(), HeaderOf(message, kLineHeader).c_str(),
                 HeaderOf(message, kErrorHeader).c_str());
  }
  ++counter->unacknowledged;
  waiting_.push_back(counter);
  return Status::Ok();
}

void FileSink::Poll(Duration) {
  if (waiting_.empty()) return;
  Status written = verdicts_.Flush();
  if (written.ok() && dead_letters_) written = dead_letters_->Flush();
  for (const auto& counter : waiting_) {
    --counter->unacknowledged;
    if (!written.ok() && counter->failures++ == 0) counter->first_error = written.message();
  }
  waiting_.clear();
}

pipeline::OutputMessage FileFormat::Verdict(const engine::Verdict& verdict,
                                            const pipeline::SourceRecord&) const {
  pipeline::OutputMessage m;
  m.topic = FileSink::kVerdicts;
  m.value = engine::EncodeVerdictJson(verdict);
  return m;
}

pipeline::OutputMessage FileFormat::DeadLetter(const pipeline::SourceRecord& input,
                                               const Status& error) const {
  if (input.format == engine::InputFormat::kWarcResponse) return WarcDeadLetter(input, error);
  const std::string line = std::to_string(input.offset.value() + 1);
  nlohmann::ordered_json j;
  j["file"] = input.stream;
  j["line"] = input.offset.value() + 1;
  j["error"] = error.message();
  if (simdjson::validate_utf8(input.value.data(), input.value.size())) {
    j["record"] = input.value;
  } else {
    j["record_base64"] = engine::EncodeBase64(input.value);
  }
  pipeline::OutputMessage m;
  m.topic = FileSink::kDeadLetters;
  m.value = j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  m.headers = {{kFileHeader, input.stream}, {kLineHeader, line}, {kErrorHeader, error.message()}};
  return m;
}

pipeline::OutputMessage FileFormat::WarcDeadLetter(const pipeline::SourceRecord& input,
                                                   const Status& error) const {
  // A WARC record is found by its byte offset (of its gzip member in a
  // .warc.gz); its bytes are rarely all text, so they travel in base64.
  nlohmann::ordered_json j;
  j["file"] = input.stream;
  j["offset"] = input.offset.value();
  j["error"] = error.message();
  j["record_base64"] = engine::EncodeBase64(input.value);
  pipeline::OutputMessage m;
  m.topic = FileSink::kDeadLetters;
  m.value = j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  m.headers = {{kFileHeader, input.stream},
               {kLineHeader, "offset " + std::to_string(input.offset.value())},
               {kErrorHeader, error.message()}};
  return m;
}

}  // namespace pagesieve::files
