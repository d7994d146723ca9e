// ClassifyContent: the media type decides when it is specific; otherwise the
// first bytes of the body do, following the WHATWG MIME Sniffing Standard's
// HTML patterns, binary signatures and binary-byte test.

#include <array>

#include "content/content.h"
#include "content/media_type.h"

namespace pagesieve::content {
namespace {

constexpr size_t kSniffBytes = 1024;

// The HTML start patterns of the WHATWG sniffing algorithm; each must be
// followed by a space or '>' (checked by the caller).
constexpr std::array<std::string_view, 17> kHtmlStarts = {"<!doctype html",
                                                          "<html",
                                                          "<head",
                                                          "<script",
                                                          "<iframe",
                                                          "<h1",
                                                          "<div",
                                                          "<font",
                                                          "<table",
                                                          "<a",
                                                          "<style",
                                                          "<title",
                                                          "<b",
                                                          "<body",
                                                          "<br",
                                                          "<p",
                                                          "<!--"};

constexpr std::array<std::string_view, 14> kBinarySignatures = {"%PDF-",
                                                                "\x89PNG\r\n\x1A\n",
                                                                "GIF87a",
                                                                "GIF89a",
                                                                "\xFF\xD8\xFF",
                                                                "PK\x03\x04",
                                                                "\x1F\x8B\x08",
                                                                "OggS",
                                                                "ID3",
                                                                "wOFF",
                                                                "wOF2",
                                                                "%!PS-Adobe-",
                                                                "7z\xBC\xAF\x27\x1C",
                                                                "Rar!\x1A\x07"};

bool LooksLikeHtml(std::string_view head) {
  while (!head.empty() && IsAsciiSpace(head.front())) head.remove_prefix(1);
  for (std::string_view start : kHtmlStarts) {
    if (!StartsWithIgnoreCase(head, start)) continue;
    if (head.size() == start.size()) return true;
    const char next = head[start.size()];
    if (next == ' ' || next == '>' || IsAsciiSpace(next)) return true;
  }
  // <?xml ...?> prologue of an XHTML document.
  if (StartsWithIgnoreCase(head, "<?xml")) {
    for (size_t i = 0; i + 5 <= head.size(); ++i) {
      if (StartsWithIgnoreCase(head.substr(i), "<html")) return true;
    }
  }
  return false;
}

bool IsBinaryByte(unsigned char c) {
  return c <= 0x08 || c == 0x0B || (c >= 0x0E && c <= 0x1A) || (c >= 0x1C && c <= 0x1F);
}

// The first bytes as ASCII text: the BOM removed, and UTF-16 reduced to its
// low bytes so the same patterns apply.
std::string SniffWindow(std::string_view body) {
  std::string_view head = body.substr(0, kSniffBytes);
  if (head.starts_with("\xEF\xBB\xBF")) return std::string(head.substr(3));
  const bool le = head.starts_with("\xFF\xFE"), be = head.starts_with("\xFE\xFF");
  if (!le && !be) return std::string(head);
  std::string ascii;
  for (size_t i = 2; i + 1 < head.size(); i += 2) {
    const char lo = le ? head[i] : head[i + 1], hi = le ? head[i + 1] : head[i];
    ascii.push_back(hi == 0 ? lo : '?');
  }
  return ascii;
}

ContentKind Sniff(std::string_view body) {
  const std::string head = SniffWindow(body);
  if (LooksLikeHtml(head)) return ContentKind::kHtml;
  for (std::string_view sig : kBinarySignatures) {
    if (std::string_view(head).starts_with(sig)) return ContentKind::kOther;
  }
  for (char c : head) {
    if (IsBinaryByte(static_cast<unsigned char>(c))) return ContentKind::kOther;
  }
  return ContentKind::kText;
}

bool IsGenericType(std::string_view essence) {
  return essence.empty() || essence == "application/octet-stream" ||
         essence == "application/unknown" || essence == "unknown/unknown" || essence == "*/*" ||
         essence == "binary/octet-stream" || essence == "application/x-unknown-content-type";
}

bool IsTextualApplication(std::string_view essence) {
  return essence == "application/json" || essence == "application/ld+json" ||
         essence == "application/javascript" || essence == "application/x-javascript" ||
         essence == "application/ecmascript" || essence == "application/x-httpd-php" ||
         essence.ends_with("+json");
}

}  // namespace

ContentKind ClassifyContent(std::string_view content_type, std::string_view body) {
  const std::string essence = ParseContentType(content_type).essence;
  if (essence == "text/html" || essence == "application/xhtml+xml") return ContentKind::kHtml;
  if (IsGenericType(essence)) return Sniff(body);
  if (essence.starts_with("image/") || essence.starts_with("audio/") ||
      essence.starts_with("video/") || essence.starts_with("font/")) {
    return ContentKind::kOther;  // image/svg+xml too: markup, but not a page
  }
  // XML is sometimes XHTML served generically; anything else XML is text.
  if (essence == "text/xml" || essence == "application/xml" || essence.ends_with("+xml")) {
    return Sniff(body) == ContentKind::kHtml ? ContentKind::kHtml : ContentKind::kText;
  }
  if (essence.starts_with("text/") || IsTextualApplication(essence)) return ContentKind::kText;
  return ContentKind::kOther;
}

}  // namespace pagesieve::content
