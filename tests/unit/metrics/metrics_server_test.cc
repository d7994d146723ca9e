// The daemon's HTTP listener: what it serves, its readiness answer, and that
// a busy port is a start-up error.
#include "http/metrics_server.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>

#include "prometheus_text.h"

namespace pagesieve::http {
namespace {

using ::testing::HasSubstr;

const ListenAddress kAnyPort{"127.0.0.1", 0};

class MetricsServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    registry_.AddCounter("pagesieve_test_total", "A test counter.").Get().Increment(7);
    ASSERT_TRUE(server_.Start(kAnyPort).ok());
    ASSERT_GT(server_.port(), 0);
  }

  httplib::Result Fetch(const std::string& path) {
    httplib::Client client("127.0.0.1", server_.port());
    client.set_connection_timeout(5);
    client.set_read_timeout(5);
    return client.Get(path.c_str());
  }

  metrics::Registry registry_;
  std::atomic<bool> ready_{false};
  MetricsServer server_{registry_, [this] { return ready_.load(); }};
};

TEST_F(MetricsServerTest, ServesTheRegistryInThePrometheusTextFormat) {
  httplib::Result res = Fetch("/metrics");
  ASSERT_TRUE(res) << httplib::to_string(res.error());
  EXPECT_EQ(res->status, 200);
  EXPECT_THAT(res->get_header_value("Content-Type"), HasSubstr("version=0.0.4"));
  StatusOr<testing::Exposition> e = testing::ParsePrometheusText(res->body);
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(e->Value("pagesieve_test_total"), 7);
}

TEST_F(MetricsServerTest, EachScrapeSeesTheCurrentValues) {
  registry_.AddGauge("g", "G.").Get().Set(1);
  ASSERT_TRUE(Fetch("/metrics"));
  registry_.AddCounter("pagesieve_more_total", "More.").Get().Increment(3);
  httplib::Result res = Fetch("/metrics");
  ASSERT_TRUE(res);
  EXPECT_EQ(testing::ParsePrometheusText(res->body)->Value("pagesieve_more_total"), 3);
}

TEST_F(MetricsServerTest, HealthzAnswers200WhetherReadyOrNot) {
  httplib::Result res = Fetch("/healthz");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
}

TEST_F(MetricsServerTest, ReadyzAnswers503UntilReadyThen200) {
  httplib::Result before = Fetch("/readyz");
  ASSERT_TRUE(before);
  EXPECT_EQ(before->status, 503);
  ready_ = true;
  httplib::Result after = Fetch("/readyz");
  ASSERT_TRUE(after);
  EXPECT_EQ(after->status, 200);
  ready_ = false;
  EXPECT_EQ(Fetch("/readyz")->status, 503);
}

TEST_F(MetricsServerTest, AnUnknownPathIs404) {
  httplib::Result res = Fetch("/metrics/../../etc/passwd");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 404);
}

TEST_F(MetricsServerTest, APortInUseIsAStartUpErrorNamingTheAddressAndKey) {
  metrics::Registry other;
  MetricsServer second(other, [] { return true; });
  const ListenAddress taken{"127.0.0.1", server_.port()};
  Status s = second.Start(taken);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("cannot listen on " + taken.ToString() + " (metrics.listen)"));
  EXPECT_THAT(s.message(), HasSubstr("in use"));
  // The first one still serves.
  EXPECT_EQ(Fetch("/healthz")->status, 200);
}

TEST_F(MetricsServerTest, StopReleasesThePortForTheNextProcess) {
  const int port = server_.port();
  ASSERT_TRUE(Fetch("/metrics"));  // an open keep-alive connection does not hold Stop up
  server_.Stop();
  metrics::Registry other;
  MetricsServer next(other, [] { return true; });
  EXPECT_TRUE(next.Start({"127.0.0.1", port}).ok());
}

TEST(MetricsServerStartTest, StopRightAfterStartReturns) {
  metrics::Registry registry;
  for (int i = 0; i < 20; ++i) {
    MetricsServer server(registry, [] { return false; });
    ASSERT_TRUE(server.Start(kAnyPort).ok());
    server.Stop();  // may come before the thread listens
  }
}

TEST(MetricsServerStartTest, AnAddressThatIsNotLocalFails) {
  metrics::Registry registry;
  MetricsServer server(registry, [] { return false; });
  Status s = server.Start({"192.0.2.1", 0});  // TEST-NET-1: never an address of this host
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("cannot listen on 192.0.2.1:0"));
}

TEST(ListenAddressTest, EmptyTurnsTheListenerOff) {
  StatusOr<std::optional<ListenAddress>> a = ParseListenAddress("");
  ASSERT_TRUE(a.ok());
  EXPECT_FALSE(a->has_value());
}

TEST(ListenAddressTest, HostAndPortAreSplitAtTheLastColon) {
  const std::pair<std::string, ListenAddress> good[] = {
      {"127.0.0.1:9464", {"127.0.0.1", 9464}},
      {"0.0.0.0:0", {"0.0.0.0", 0}},
      {"localhost:65535", {"localhost", 65535}},
      {"[::1]:9464", {"::1", 9464}},
  };
  for (const auto& [text, want] : good) {
    StatusOr<std::optional<ListenAddress>> a = ParseListenAddress(text);
    ASSERT_TRUE(a.ok() && a->has_value()) << text;
    EXPECT_EQ((*a)->host, want.host) << text;
    EXPECT_EQ((*a)->port, want.port) << text;
    EXPECT_EQ((*a)->ToString(), text);
  }
}

TEST(ListenAddressTest, MalformedAddressesAreRejectedNamingTheKey) {
  const std::string bad[] = {"9464",    ":9464",      "host:",      "host:65536",
                             "host:-1", "host:12ab",  "::1:9464",   "[::1:9464",
                             "[]:9464", "host: 9464", "host:9464 ", std::string(5000, 'a')};
  for (const std::string& text : bad) {
    StatusOr<std::optional<ListenAddress>> a = ParseListenAddress(text);
    ASSERT_FALSE(a.ok()) << text;
    EXPECT_THAT(a.status().message(), HasSubstr("metrics.listen")) << text;
  }
}

TEST(MetricsOptionsTest, TheDefaultListensOnLoopbackPort9464) {
  StatusOr<Config> config = Config::Defaults();
  ASSERT_TRUE(config.ok());
  StatusOr<MetricsOptions> o = MetricsOptionsFromConfig(*config);
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  ASSERT_TRUE(o->listen.has_value());
  EXPECT_EQ(o->listen->ToString(), "127.0.0.1:9464");
}

TEST(MetricsOptionsTest, AnEmptyListenTurnsItOff) {
  StatusOr<Config> config = Config::FromToml("", "test", {"metrics.listen="});
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  StatusOr<MetricsOptions> o = MetricsOptionsFromConfig(*config);
  ASSERT_TRUE(o.ok());
  EXPECT_FALSE(o->listen.has_value());
}

}  // namespace
}  // namespace pagesieve::http
