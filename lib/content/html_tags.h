#pragma once

// The HTML elements lib/content treats specially, and what it knows of each.
// Internal.

#include <cstdint>
#include <string_view>

namespace pagesieve::content {

// clang-format off
#define PAGESIEVE_HTML_TAGS(X)                                                                   \
  X(kA, "a") X(kAbbr, "abbr") X(kAddress, "address") X(kApplet, "applet") X(kArea, "area")       \
  X(kArticle, "article") X(kAside, "aside") X(kAudio, "audio") X(kB, "b") X(kBase, "base")       \
  X(kBig, "big") X(kBlockquote, "blockquote") X(kBody, "body") X(kBr, "br") X(kButton, "button") \
  X(kCanvas, "canvas") X(kCaption, "caption") X(kCenter, "center") X(kCite, "cite")              \
  X(kCode, "code") X(kCol, "col") X(kColgroup, "colgroup") X(kDd, "dd") X(kDel, "del")           \
  X(kDetails, "details") X(kDialog, "dialog") X(kDir, "dir") X(kDiv, "div") X(kDl, "dl")         \
  X(kDt, "dt") X(kEm, "em") X(kEmbed, "embed") X(kFieldset, "fieldset")                          \
  X(kFigcaption, "figcaption") X(kFigure, "figure") X(kFont, "font") X(kFooter, "footer")        \
  X(kForm, "form") X(kFrame, "frame") X(kFrameset, "frameset") X(kH1, "h1") X(kH2, "h2")         \
  X(kH3, "h3") X(kH4, "h4") X(kH5, "h5") X(kH6, "h6") X(kHead, "head") X(kHeader, "header")      \
  X(kHgroup, "hgroup") X(kHr, "hr") X(kHtml, "html") X(kI, "i") X(kIframe, "iframe")             \
  X(kImg, "img") X(kInput, "input") X(kIns, "ins") X(kKbd, "kbd") X(kKeygen, "keygen")           \
  X(kLabel, "label") X(kLegend, "legend") X(kLi, "li") X(kLink, "link") X(kListing, "listing")   \
  X(kMain, "main") X(kMap, "map") X(kMark, "mark") X(kMarquee, "marquee") X(kMath, "math")       \
  X(kMenu, "menu") X(kMeta, "meta") X(kNav, "nav") X(kNoembed, "noembed")                        \
  X(kNoframes, "noframes") X(kNoscript, "noscript") X(kObject, "object") X(kOl, "ol")            \
  X(kOptgroup, "optgroup") X(kOption, "option") X(kP, "p") X(kParam, "param")                    \
  X(kPicture, "picture") X(kPlaintext, "plaintext") X(kPre, "pre") X(kQ, "q") X(kRp, "rp")       \
  X(kRt, "rt") X(kRuby, "ruby") X(kS, "s") X(kSamp, "samp") X(kScript, "script")                 \
  X(kSection, "section") X(kSelect, "select") X(kSmall, "small") X(kSource, "source")            \
  X(kSpan, "span") X(kStrong, "strong") X(kStyle, "style") X(kSub, "sub") X(kSummary, "summary") \
  X(kSup, "sup") X(kSvg, "svg") X(kTable, "table") X(kTbody, "tbody") X(kTd, "td")               \
  X(kTemplate, "template") X(kTextarea, "textarea") X(kTfoot, "tfoot") X(kTh, "th")              \
  X(kThead, "thead") X(kTime, "time") X(kTitle, "title") X(kTr, "tr") X(kTrack, "track")         \
  X(kU, "u") X(kUl, "ul") X(kVar, "var") X(kVideo, "video") X(kWbr, "wbr") X(kXmp, "xmp")
// clang-format on

enum class Tag : uint8_t {
  kUnknown = 0,  // an element we have no rules for (custom elements too)
  kText,         // not an element: a text node
  kRoot,         // not an element: the document
#define PAGESIEVE_TAG_ENUM(id, name) id,
  PAGESIEVE_HTML_TAGS(PAGESIEVE_TAG_ENUM)
#undef PAGESIEVE_TAG_ENUM
      kCount
};

// What the parser and the extractor need to know of a tag (a bit set).
enum TagTraits : uint16_t {
  kVoid = 1 << 0,          // never has content or an end tag (br, img, meta...)
  kBlock = 1 << 1,         // starts a new paragraph of text
  kRawText = 1 << 2,       // content is not markup: skipped up to the end tag
  kEscapableRaw = 1 << 3,  // content is text with entities (title, textarea)
  kBoilerplate = 1 << 4,   // never main content (script, nav, form...)
  kHeading = 1 << 5,       // h1..h6
  kClosesP = 1 << 6,       // its start tag closes an open <p>
  kScope = 1 << 7,         // end tags do not close elements across it
  kListItem = 1 << 8,      // li, dd, dt: closes an open sibling item
  kTableCell = 1 << 9,     // td, th
  kEmbedded = 1 << 10,     // counts as an embed (video, object...)
};

// The tag of a lowercase-insensitive tag name; kUnknown when not listed.
Tag LookupTag(std::string_view name);
std::string_view TagName(Tag tag);
uint16_t Traits(Tag tag);
inline bool HasTrait(Tag tag, uint16_t trait) { return (Traits(tag) & trait) != 0; }

}  // namespace pagesieve::content
