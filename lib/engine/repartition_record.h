#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/status_or.h"
#include "engine/prepared_record.h"

namespace pagesieve::engine {

// The record the re-keying stage republishes for each prepared event
// (docs/rekey.md): everything the stateful stage needs to decide it and to
// publish its verdict, and nothing of the page itself unless a unique verdict
// must carry the body (output.include_body). A few hundred bytes instead of
// the page, so the repartition topic is cheap.
//
// Layout: "PSR" + version byte, then flags, then length-prefixed fields
// (docs/rekey.md lists them). Decoding never trusts its input: anything short,
// foreign or malformed is InvalidArgument, which sends the record to the dead
// letters like any other bad input.
std::string EncodeRepartitionRecord(const PreparedRecord& record);
StatusOr<PreparedRecord> DecodeRepartitionRecord(std::string_view bytes);

}  // namespace pagesieve::engine
