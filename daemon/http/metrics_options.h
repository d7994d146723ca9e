#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/status_or.h"
#include "common/types.h"
#include "config/config.h"

namespace pagesieve::http {

// host:port, host a name, an IPv4 address or a bracketed IPv6 address
// ([::1]:9464). Port 0 lets the system choose a free port.
struct ListenAddress {
  std::string host;
  int port = 0;

  std::string ToString() const;  // brackets around an IPv6 host
};

// "" is nothing to listen on (the listener is off).
StatusOr<std::optional<ListenAddress>> ParseListenAddress(std::string_view text);

struct MetricsOptions {
  std::optional<ListenAddress> listen;  // empty: no HTTP listener
  // How often the run loop copies lag and shard figures into the registry.
  Duration sample_interval = std::chrono::seconds(1);
};

// Reads [metrics].
StatusOr<MetricsOptions> MetricsOptionsFromConfig(const Config& config);

}  // namespace pagesieve::http
