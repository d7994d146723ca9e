#pragma once

// What pagesieve adds to prometheus-cpp's rendering of the Prometheus text
// exposition format, version 0.0.4.
// https://prometheus.io/docs/instrumenting/exposition_formats/

#include <string>
#include <string_view>

namespace pagesieve::metrics {

inline constexpr std::string_view kTextContentType = "text/plain; version=0.0.4; charset=utf-8";

// HELP text: backslash and line feed escaped. (prometheus-cpp 1.0.1's
// TextSerializer escapes label values but writes help text unchanged.)
std::string EscapeHelp(std::string_view text);

}  // namespace pagesieve::metrics
