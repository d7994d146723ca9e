#pragma once

#include <functional>
#include <future>
#include <memory>
#include <thread>

#include "common/status.h"
#include "http/metrics_options.h"
#include "metrics/registry.h"

namespace httplib {
class Server;
}

namespace pagesieve::http {

// The daemon's HTTP listener (cpp-httplib), on threads of its own:
//   GET /metrics  the registry in the Prometheus text format
//   GET /healthz  200 while the process runs
//   GET /readyz   200 when `ready()` says so, else 503
//
// Start binds at once, so a busy port is an error at start-up and not a
// log line later; the socket is not shared with SO_REUSEPORT (cpp-httplib's
// default), so a second daemon on the same port fails instead of silently
// taking half the scrapes.
//
// Start and Stop are called from one thread; the handlers only read the
// registry (thread-safe) and call `ready` (must be thread-safe).
class MetricsServer {
 public:
  MetricsServer(const metrics::Registry& registry, std::function<bool()> ready);
  ~MetricsServer();  // Stop()

  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  Status Start(const ListenAddress& address);
  // Closes the socket, finishes requests in progress, joins the threads.
  void Stop();

  // The port bound (the chosen one when the address said 0); 0 before Start.
  int port() const { return port_; }

 private:
  const metrics::Registry& registry_;
  const std::function<bool()> ready_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  std::future<void> finished_;  // ready when the listening thread returns
  int port_ = 0;
};

}  // namespace pagesieve::http
