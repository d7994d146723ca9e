#pragma once

// `pagesieve canonicalize`: URLs in, one per line, canonical URLs out.

#include <CLI/CLI.hpp>
#include <cstdio>

#include "commands/commands.h"
#include "common/status_or.h"
#include "url/canonicalizer.h"

namespace pagesieve::commands {

Command RegisterCanonicalizeCommand(CLI::App& app);

// Writes one line to `out` per line of `in` ('\n'-separated; a last line
// without '\n' counts), in order: the canonical URL, or "!error: <reason>".
// A line longer than 1 MiB + url.max_length is answered with an error
// without being held in memory. Buffered in 1 MiB blocks both ways. Returns
// how many lines were errors, or IoError when reading or writing fails.
StatusOr<size_t> CanonicalizeLines(const url::Canonicalizer& canonicalizer, std::FILE* in,
                                   std::FILE* out);

}  // namespace pagesieve::commands
