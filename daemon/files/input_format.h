#pragma once

#include <cstdio>
#include <string>

#include "common/status_or.h"

namespace pagesieve::files {

// What `pagesieve dedup --input-format` asks for.
enum class InputFormatChoice { kAuto, kJsonl, kWarc };

StatusOr<InputFormatChoice> ParseInputFormatChoice(const std::string& text);  // auto|jsonl|warc

// What one input file is.
enum class InputFileFormat { kJsonl, kWarc, kWarcGzip };

// Decides a file's format from its first bytes, without consuming them (the
// file is rewound; stdin has one byte put back, so only that byte decides
// for it). Auto: "WARC/" or a gzip member inflating to it is WARC; '{' or
// blank space (or nothing) is JSONL; anything else is refused with one line
// naming the file and what it starts with. A forced format only asks
// whether a WARC file is gzipped.
// `is_stdin`: any stream that cannot be rewound (stdin, a FIFO).
StatusOr<InputFileFormat> DetectFileFormat(std::FILE* file, const std::string& name, bool is_stdin,
                                      InputFormatChoice choice);

}  // namespace pagesieve::files
