#include "url/idna.h"

#include <idn2.h>

#include <array>
#include <cstdlib>
#include <functional>
#include <memory>

#include "url/percent_encoding.h"

namespace pagesieve::url::internal {
namespace {

bool StartsWithAceAnyCase(std::string_view label) {
  return label.size() >= 4 && AsciiLower(label[0]) == 'x' && AsciiLower(label[1]) == 'n' &&
         label[2] == '-' && label[3] == '-';
}

bool IsAscii(std::string_view text) {
  for (char c : text) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

// UTS-46 treats these as label separators besides '.': U+3002 IDEOGRAPHIC
// FULL STOP, U+FF0E FULLWIDTH FULL STOP, U+FF61 HALFWIDTH IDEOGRAPHIC FULL STOP.
// Returns the byte length of the separator starting at `p`, or 0.
size_t SeparatorLength(std::string_view text, size_t p) {
  if (text[p] == '.') return 1;
  if (p + 3 > text.size()) return 0;
  const std::string_view three = text.substr(p, 3);
  if (three == "\xE3\x80\x82" || three == "\xEF\xBC\x8E" || three == "\xEF\xBD\xA1") return 3;
  return 0;
}

struct FreeDeleter {
  void operator()(char* p) const { std::free(p); }
};

Status AppendIdnaLabel(std::string_view label, std::string* out) {
  std::string input(label);  // libidn2 wants a NUL-terminated string
  char* output = nullptr;
  const int rc =
      idn2_lookup_u8(reinterpret_cast<const uint8_t*>(input.c_str()),
                     reinterpret_cast<uint8_t**>(&output), IDN2_NONTRANSITIONAL | IDN2_NFC_INPUT);
  std::unique_ptr<char, FreeDeleter> owned(output);
  if (rc != IDN2_OK) {
    return Status::InvalidArgument(std::string("invalid internationalized host (") +
                                   idn2_strerror(rc) + ")");
  }
  for (const char* p = output; *p != '\0'; ++p) out->push_back(AsciiLower(*p));
  return Status::Ok();
}

}  // namespace

bool HasAceLabel(std::string_view lowercase_host) {
  for (size_t at = lowercase_host.find("xn--"); at != std::string_view::npos;
       at = lowercase_host.find("xn--", at + 1)) {
    if (at == 0 || lowercase_host[at - 1] == '.') return true;
  }
  return false;
}

namespace {

// The uncached conversion.
Status ConvertIdnaHost(std::string_view utf8_host, std::string* out) {
  if (!IsValidUtf8(utf8_host)) return Status::InvalidArgument("host is not valid UTF-8");
  size_t start = 0;
  size_t p = 0;
  while (p <= utf8_host.size()) {
    const size_t separator = p < utf8_host.size() ? SeparatorLength(utf8_host, p) : 1;
    if (separator == 0) {
      ++p;
      continue;
    }
    const std::string_view label = utf8_host.substr(start, p - start);
    if (!label.empty() && (!IsAscii(label) || StartsWithAceAnyCase(label))) {
      PS_RETURN_IF_ERROR(AppendIdnaLabel(label, out));
    } else {
      for (char c : label) out->push_back(AsciiLower(c));
    }
    if (p < utf8_host.size()) out->push_back('.');
    p += separator;
    start = p;
  }
  return Status::Ok();
}

// The last IDNA results of this thread, direct-mapped by a hash of the host.
// libidn2 cost ~46,000 instructions per host in the benchmark (UTF-32
// conversion, NFC, UTS-46 mapping, punycode), more than ten whole ASCII
// URLs, while a crawl sees the same hosts again and again. Per thread, so no locking; results
// do not depend on options, so every Canonicalizer of the thread shares it.
class IdnaCache {
 public:
  static constexpr size_t kSlots = 256;
  static constexpr size_t kMaxHost = 255;  // longer hosts are not cached

  Status Append(std::string_view host, std::string* out) {
    if (host.size() > kMaxHost) return ConvertIdnaHost(host, out);
    Entry& entry = slots_[std::hash<std::string_view>{}(host) % kSlots];
    if (!entry.used || entry.host != host) {
      entry.used = true;
      entry.host.assign(host);
      entry.ascii.clear();
      entry.status = ConvertIdnaHost(host, &entry.ascii);
    }
    if (!entry.status.ok()) return entry.status;
    out->append(entry.ascii);
    return Status::Ok();
  }

 private:
  struct Entry {
    bool used = false;
    std::string host;   // the percent-decoded, ASCII-lowercased UTF-8 host
    std::string ascii;  // its conversion, when status is OK
    Status status;
  };
  std::array<Entry, kSlots> slots_;
};

}  // namespace

Status AppendIdnaHost(std::string_view utf8_host, std::string* out) {
  thread_local IdnaCache cache;
  return cache.Append(utf8_host, out);
}

bool IsValidUtf8(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    int length;
    uint32_t value;
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2, value = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3, value = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4, value = c & 0x07;
    } else {
      return false;
    }
    if (i + length > text.size()) return false;
    for (int k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0) != 0x80) return false;
      value = (value << 6) | (next & 0x3F);
    }
    if ((length == 3 && value < 0x800) || (length == 4 && value < 0x10000) ||
        (value >= 0xD800 && value <= 0xDFFF) || value > 0x10FFFF) {
      return false;
    }
    i += length;
  }
  return true;
}

}  // namespace pagesieve::url::internal
