#include "http/metrics_options.h"

#include <charconv>

namespace pagesieve::http {

std::string ListenAddress::ToString() const {
  const bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

StatusOr<std::optional<ListenAddress>> ParseListenAddress(std::string_view text) {
  if (text.empty()) return std::optional<ListenAddress>();
  const auto bad = [&](std::string_view why) {
    return Status::InvalidArgument("metrics.listen must be host:port or \"\" (off), not '" +
                                   std::string(text) + "': " + std::string(why));
  };
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) return bad("no port");
  std::string_view host = text.substr(0, colon);
  const std::string_view port_text = text.substr(colon + 1);
  if (host.starts_with('[')) {
    if (!host.ends_with(']') || host.size() < 3) return bad("unbalanced brackets");
    host = host.substr(1, host.size() - 2);
  } else if (host.find(':') != std::string_view::npos) {
    return bad("an IPv6 address needs brackets: [::1]:9464");
  }
  if (host.empty()) return bad("no host (0.0.0.0 listens on every interface)");
  int port = -1;
  const auto [end, ec] =
      std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (port_text.empty() || ec != std::errc() || end != port_text.data() + port_text.size() ||
      port < 0 || port > 65535) {
    return bad("the port must be 0..65535");
  }
  return std::optional<ListenAddress>(ListenAddress{std::string(host), port});
}

StatusOr<MetricsOptions> MetricsOptionsFromConfig(const Config& config) {
  MetricsOptions o;
  PS_ASSIGN_OR_RETURN(std::string listen, config.GetString("metrics.listen"));
  PS_ASSIGN_OR_RETURN(o.listen, ParseListenAddress(listen));
  PS_ASSIGN_OR_RETURN(o.sample_interval, config.GetDuration("metrics.sample_interval"));
  if (o.sample_interval < std::chrono::milliseconds(10) ||
      o.sample_interval > std::chrono::hours(1)) {
    return Status::InvalidArgument("metrics.sample_interval must be 10ms..1h");
  }
  return o;
}

}  // namespace pagesieve::http
