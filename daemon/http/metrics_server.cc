#include "http/metrics_server.h"

#include <httplib.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>

#include "metrics/text_format.h"

namespace pagesieve::http {
namespace {

// Scrapes are small and rare: two threads serve them, so the listener never
// competes with fingerprinting for cores (cpp-httplib's default is one per
// core, at least 8).
constexpr size_t kHandlerThreads = 2;

void ReuseAddressOnly(socket_t sock) {
  // SO_REUSEADDR lets a restarted daemon bind while old connections sit in
  // TIME_WAIT; without SO_REUSEPORT a port held by a live listener is refused.
  int yes = 1;
  setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
}

}  // namespace

MetricsServer::MetricsServer(const metrics::Registry& registry, std::function<bool()> ready)
    : registry_(registry), ready_(std::move(ready)) {}

MetricsServer::~MetricsServer() { Stop(); }

Status MetricsServer::Start(const ListenAddress& address) {
  server_ = std::make_unique<httplib::Server>();
  // cpp-httplib owns the task queue it is given and deletes it itself.
  server_->new_task_queue = [] { return new httplib::ThreadPool(kHandlerThreads); };
  server_->set_socket_options(ReuseAddressOnly);
  server_->set_keep_alive_timeout(1);  // bounds how long Stop waits for an idle connection
  server_->set_read_timeout(5, 0);
  server_->set_write_timeout(5, 0);
  server_->Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
    res.set_content(registry_.Render(), std::string(metrics::kTextContentType));
  });
  server_->Get("/healthz", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("ok\n", "text/plain");
  });
  server_->Get("/readyz", [this](const httplib::Request&, httplib::Response& res) {
    const bool ready = ready_();
    res.status = ready ? 200 : 503;
    res.set_content(ready ? "ready\n" : "not ready\n", "text/plain");
  });

  errno = 0;
  const int port = address.port == 0
                       ? server_->bind_to_any_port(address.host)
                       : (server_->bind_to_port(address.host, address.port) ? address.port : -1);
  if (port < 0) {
    const int err = errno;
    server_.reset();
    return Status::Unavailable("cannot listen on " + address.ToString() + " (metrics.listen): " +
                               (err != 0 ? std::strerror(err) : "cannot bind that address"));
  }
  port_ = port;
  std::promise<void> done;
  finished_ = done.get_future();
  thread_ = std::thread([this, done = std::move(done)]() mutable {
    server_->listen_after_bind();
    done.set_value();
  });
  return Status::Ok();
}

void MetricsServer::Stop() {
  if (!thread_.joinable()) return;
  // stop() does nothing until the thread has entered its accept loop; ask
  // again until the loop has returned.
  do {
    server_->stop();
  } while (finished_.wait_for(std::chrono::milliseconds(10)) != std::future_status::ready);
  thread_.join();
  server_.reset();
}

}  // namespace pagesieve::http
