#pragma once

// `pagesieve fingerprint`: every fingerprint of one page, or of every event
// of a JSONL file, as JSON. A window into what the sieve compares pages by.

#include <CLI/CLI.hpp>
#include <istream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string_view>

#include "commands/commands.h"
#include "engine/fetched_event.h"
#include "fingerprint/fingerprinter.h"

namespace pagesieve::commands {

Command RegisterFingerprintCommand(CLI::App& app);

// The JSON object printed for one page: url (as given), canonical_url,
// title, text, tokens, truncated, and fingerprints {url, content, payload,
// simhash (16 hex digits, or null)}.
nlohmann::json FingerprintToJson(std::string_view given_url,
                                 const fingerprint::PageFingerprint& fp);

// The --input mode: one output line per input line, in order. A line that
// is not a valid event, or whose URL cannot be canonicalized, becomes
// {"line": N, "error": "..."} (N counts from 1). Returns how many lines
// were errors.
size_t FingerprintEvents(fingerprint::Fingerprinter& fingerprinter,
                         const engine::EventFieldNames& fields, std::istream& in,
                         std::ostream& out);

// Compact JSON; invalid UTF-8 (which decoded text never has) is replaced
// rather than thrown on.
std::string DumpJson(const nlohmann::json& json);

}  // namespace pagesieve::commands
