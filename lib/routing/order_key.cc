#include "routing/order_key.h"

#include <cstdint>

namespace pagesieve::routing {
namespace {

constexpr uint64_t kSignBit = uint64_t{1} << 63;

void PutBigEndian(uint64_t v, int bytes, std::string* out) {
  for (int i = bytes - 1; i >= 0; --i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint64_t GetBigEndian(std::string_view in, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | static_cast<uint8_t>(in[i]);
  return v;
}

}  // namespace

std::string ToString(const OrderKey& key) {
  return "t=" + std::to_string(key.time.millis()) + " " + key.topic + "/" +
         std::to_string(key.partition.value()) + "@" + std::to_string(key.offset.value());
}

std::string EncodeOrderKey(const OrderKey& key) {
  std::string out;
  out.reserve(8 + key.topic.size() + 1 + 4 + 8);
  PutBigEndian(static_cast<uint64_t>(key.time.millis()) ^ kSignBit, 8, &out);
  out.append(key.topic);
  out.push_back('\0');
  PutBigEndian(static_cast<uint32_t>(key.partition.value()) ^ (uint32_t{1} << 31), 4, &out);
  PutBigEndian(static_cast<uint64_t>(key.offset.value()) ^ kSignBit, 8, &out);
  return out;
}

StatusOr<OrderKey> DecodeOrderKey(std::string_view bytes) {
  constexpr size_t kFixed = 8 + 1 + 4 + 8;
  if (bytes.size() < kFixed) return Status::InvalidArgument("order key: too short");
  const size_t nul = bytes.find('\0', 8);
  if (nul == std::string_view::npos || bytes.size() - nul - 1 != 12) {
    return Status::InvalidArgument("order key: malformed topic or trailer");
  }
  OrderKey key;
  key.time = EventTime::FromMillis(static_cast<int64_t>(GetBigEndian(bytes, 8) ^ kSignBit));
  key.topic = std::string(bytes.substr(8, nul - 8));
  const std::string_view tail = bytes.substr(nul + 1);
  key.partition = PartitionId(
      static_cast<int32_t>(static_cast<uint32_t>(GetBigEndian(tail, 4)) ^ (uint32_t{1} << 31)));
  key.offset = Offset(static_cast<int64_t>(GetBigEndian(tail.substr(4), 8) ^ kSignBit));
  return key;
}

}  // namespace pagesieve::routing
