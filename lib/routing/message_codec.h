#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "common/status_or.h"
#include "routing/messages.h"

namespace pagesieve::routing {

// Any message of the routed stages.
using Message = std::variant<RoutedRecord, Progress, NearProbeRequest, NearAnswer, NearOutcome,
                             NearTouch, NearFetch, NearFetchReply>;

// The bytes of a message on the internal topics (docs/global-routing.md):
// "PSM", a version byte and a kind byte, then the message's fields:
// varints, big-endian fixed 64-bit words, length-prefixed strings, order
// keys as routing::EncodeOrderKey writes them, origins as the store's codec
// does, and a record as the repartition record (engine/repartition_record.h).
std::string EncodeMessage(const Message& message);
// InvalidArgument for anything EncodeMessage did not write: short, foreign,
// another version, an unknown kind, or bytes left over.
StatusOr<Message> DecodeMessage(std::string_view bytes);

}  // namespace pagesieve::routing
