#include "files/input_format.h"

#include <cctype>

#include "warc/sniff.h"

namespace pagesieve::files {
namespace {

// JSONL when the head is blank or any of its lines opens an object: a crawl
// dump whose first line is damaged is still JSONL, with one dead letter.
bool LooksLikeJsonl(std::string_view head) {
  if (head.find_first_not_of(" \t\r\n") == std::string_view::npos) return true;
  size_t line_start = 0;
  while (line_start < head.size()) {
    const size_t first = head.find_first_not_of(" \t\r", line_start);
    if (first == std::string_view::npos) return false;
    if (head[first] == '{') return true;
    line_start = head.find('\n', first);
    if (line_start == std::string_view::npos) return false;
    ++line_start;
  }
  return false;
}

std::string Printable(std::string_view head) {
  std::string out;
  for (char c : head.substr(0, 16)) {
    out += std::isprint(static_cast<unsigned char>(c)) ? std::string(1, c) : "\\x" + [&] {
      char buf[3];
      std::snprintf(buf, sizeof(buf), "%02x", static_cast<unsigned char>(c));
      return std::string(buf);
    }();
  }
  return out;
}

// Up to 64 KB from the start, with the file left where it was: enough for
// several event lines, so one damaged line does not decide the format.
std::string Head(std::FILE* file, bool is_stdin) {
  if (is_stdin) {
    const int c = std::getc(file);
    if (c == EOF) return "";
    std::ungetc(c, file);
    return std::string(1, static_cast<char>(c));
  }
  std::string head(64 * 1024, '\0');
  head.resize(std::fread(head.data(), 1, head.size(), file));
  std::rewind(file);
  return head;
}

}  // namespace

StatusOr<InputFormatChoice> ParseInputFormatChoice(const std::string& text) {
  if (text == "auto") return InputFormatChoice::kAuto;
  if (text == "jsonl") return InputFormatChoice::kJsonl;
  if (text == "warc") return InputFormatChoice::kWarc;
  return Status::InvalidArgument("--input-format must be auto, jsonl or warc, not '" + text + "'");
}

StatusOr<InputFileFormat> DetectFileFormat(std::FILE* file, const std::string& name, bool is_stdin,
                                      InputFormatChoice choice) {
  const std::string head = Head(file, is_stdin);
  if (choice == InputFormatChoice::kJsonl) return InputFileFormat::kJsonl;
  if (choice == InputFormatChoice::kWarc) {
    return warc::IsGzip(head) ? InputFileFormat::kWarcGzip : InputFileFormat::kWarc;
  }
  if (is_stdin) {
    // One byte is all stdin can give back: 'W' or a gzip magic byte.
    if (head == "W") return InputFileFormat::kWarc;
    if (head == "\x1f") return InputFileFormat::kWarcGzip;
    // Nothing else can be seen without consuming it: JSONL, and a stream in
    // which nothing parses fails at the end as every dead-letter run does.
    return InputFileFormat::kJsonl;
  } else {
    switch (warc::SniffWarc(head)) {
      case warc::WarcSniff::kWarc:
        return InputFileFormat::kWarc;
      case warc::WarcSniff::kGzipWarc:
        return InputFileFormat::kWarcGzip;
      case warc::WarcSniff::kNotWarc:
        break;
    }
  }
  if (LooksLikeJsonl(head)) return InputFileFormat::kJsonl;
  return Status::InvalidArgument("input '" + name + "' is neither WARC nor JSONL: it starts with '" +
                                 Printable(head) + "'" +
                                 (warc::IsGzip(head) ? " (gzip, but not of WARC records)" : ""));
}

}  // namespace pagesieve::files
