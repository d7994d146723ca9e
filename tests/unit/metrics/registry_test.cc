// lib/metrics: what the registry renders (prometheus-cpp's metrics and
// TextSerializer, in pagesieve's order), read back with an independent parser
// of the Prometheus text format.
#include "metrics/registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <thread>

#include "prometheus_text.h"

namespace pagesieve::metrics {
namespace {

using ::pagesieve::testing::Exposition;
using ::pagesieve::testing::ParsePrometheusText;
using ::testing::HasSubstr;

Exposition Parse(const Registry& registry) {
  StatusOr<Exposition> e = ParsePrometheusText(registry.Render());
  EXPECT_TRUE(e.ok()) << e.status().ToString() << "\n" << registry.Render();
  return e.ok() ? *e : Exposition{};
}

TEST(RegistryTest, CounterRendersHelpTypeAndValue) {
  Registry registry;
  registry.AddCounter("pagesieve_things_total", "Things seen.").Get().Increment(41);
  registry.AddCounter("pagesieve_things_total_2", "More.").Get();
  Exposition e = Parse(registry);
  EXPECT_EQ(e.type["pagesieve_things_total"], "counter");
  EXPECT_EQ(e.help["pagesieve_things_total"], "Things seen.");
  EXPECT_EQ(e.Value("pagesieve_things_total"), 41);
  EXPECT_EQ(e.Value("pagesieve_things_total_2"), 0);
}

TEST(RegistryTest, EachCombinationOfLabelValuesIsItsOwnSeries) {
  Registry registry;
  CounterFamily& verdicts = registry.AddCounter("v_total", "Verdicts.", {"verdict", "tier"});
  verdicts.WithLabels({"duplicate", "url"}).Increment(3);
  verdicts.WithLabels({"duplicate", "near"}).Increment(2);
  verdicts.WithLabels({"unique", "none"}).Increment();
  verdicts.WithLabels({"duplicate", "url"}).Increment();
  Exposition e = Parse(registry);
  EXPECT_EQ(e.samples.size(), 3u);
  EXPECT_EQ(e.Value("v_total", {{"verdict", "duplicate"}, {"tier", "url"}}), 4);
  EXPECT_EQ(e.Sum("v_total", {{"verdict", "duplicate"}}), 6);
  EXPECT_EQ(e.Sum("v_total"), 7);
}

TEST(RegistryTest, LabelValuesWithQuotesBackslashesAndNewlinesReadBackUnchanged) {
  Registry registry;
  GaugeFamily& g = registry.AddGauge("g", "G.", {"path"});
  const std::vector<std::string> hostile = {"a\"b",   "back\\slash", "two\nlines",
                                            "\\\"\n", "}{,=\" x",    "ünïcødé"};
  for (size_t i = 0; i < hostile.size(); ++i) g.WithLabels({hostile[i]}).Set(double(i));
  Exposition e = Parse(registry);
  for (size_t i = 0; i < hostile.size(); ++i) {
    EXPECT_EQ(e.Value("g", {{"path", hostile[i]}}), double(i)) << hostile[i];
  }
}

TEST(RegistryTest, LabelValueEscapesAreTheFormatsThree) {
  Registry registry;
  registry.AddGauge("g", "G.", {"k"}).WithLabels({"a\\b\"c\nd\te"}).Set(1);
  EXPECT_THAT(registry.Render(), HasSubstr("g{k=\"a\\\\b\\\"c\\nd\te\"} 1\n"));
}

TEST(RegistryTest, HelpWithNewlinesAndBackslashesStaysOnOneLine) {
  Registry registry;
  registry.AddGauge("g", "first line\nsecond \\ line \"quoted\"").Get().Set(1);
  const std::string text = registry.Render();
  EXPECT_THAT(text, HasSubstr("# HELP g first line\\nsecond \\\\ line \"quoted\"\n"));
  EXPECT_EQ(Parse(registry).help["g"], "first line\nsecond \\ line \"quoted\"");
}

TEST(RegistryTest, AFamilyWithoutChildrenHasOnlyHelpAndType) {
  Registry registry;
  registry.AddGauge("lag", "Lag.", {"partition"});
  EXPECT_EQ(registry.Render(), "# HELP lag Lag.\n# TYPE lag gauge\n");
}

TEST(RegistryTest, ARemovedChildLeavesTheNextScrape) {
  Registry registry;
  GaugeFamily& lag = registry.AddGauge("lag", "Lag.", {"partition"});
  for (const char* p : {"0", "1", "2"}) lag.WithLabels({p}).Set(5);
  lag.Remove({"1"});
  lag.Remove({"7"});  // never there: not created by removing it
  Exposition e = Parse(registry);
  EXPECT_EQ(e.samples.size(), 2u);
  EXPECT_EQ(e.Value("lag", {{"partition", "0"}}), 5);
  EXPECT_FALSE(e.Value("lag", {{"partition", "1"}}).has_value());
  EXPECT_EQ(e.Value("lag", {{"partition", "2"}}), 5);
}

TEST(RegistryTest, FamiliesRenderInRegistrationOrderAndChildrenByLabelValue) {
  Registry registry;
  registry.AddGauge("z_gauge", "Z.", {"partition"});
  CounterFamily& a = registry.AddCounter("a_total", "A.", {"partition"});
  for (const char* p : {"3", "1", "2"}) a.WithLabels({p}).Increment();
  EXPECT_EQ(registry.Render(),
            "# HELP z_gauge Z.\n# TYPE z_gauge gauge\n"
            "# HELP a_total A.\n# TYPE a_total counter\n"
            "a_total{partition=\"1\"} 1\na_total{partition=\"2\"} 1\n"
            "a_total{partition=\"3\"} 1\n");
}

TEST(RegistryTest, GaugesRenderInfinitiesAndNaN) {
  Registry registry;
  GaugeFamily& g = registry.AddGauge("g", "G.", {"k"});
  g.WithLabels({"pos"}).Set(INFINITY);
  g.WithLabels({"neg"}).Set(-INFINITY);
  g.WithLabels({"nan"}).Set(NAN);
  g.WithLabels({"add"}).Increment(2.5);
  g.WithLabels({"add"}).Decrement(1);
  Exposition e = Parse(registry);
  EXPECT_EQ(e.Value("g", {{"k", "pos"}}), INFINITY);
  EXPECT_EQ(e.Value("g", {{"k", "neg"}}), -INFINITY);
  EXPECT_TRUE(std::isnan(*e.Value("g", {{"k", "nan"}})));
  EXPECT_EQ(e.Value("g", {{"k", "add"}}), 1.5);
}

// prometheus-cpp writes 16 significant digits (max_digits10 - 1): a value
// reads back within one part in 10^15, not always as the same double.
TEST(RegistryTest, ValuesReadBackToSixteenSignificantDigits) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mantissa(-1, 1);
  std::uniform_int_distribution<int> exponent(-300, 300);
  Registry registry;
  GaugeFamily& g = registry.AddGauge("g", "G.", {"i"});
  std::vector<double> values;
  for (int i = 0; i < 2000; ++i) {
    values.push_back(std::ldexp(mantissa(rng), exponent(rng)));
    g.WithLabels({std::to_string(i)}).Set(values.back());
  }
  Exposition e = Parse(registry);
  for (size_t i = 0; i < values.size(); ++i) {
    const double v = values[i];
    EXPECT_NEAR(*e.Value("g", {{"i", std::to_string(i)}}), v, std::abs(v) * 1e-15) << v;
  }
  Registry plain;
  plain.AddGauge("a", "A.").Get().Set(0.005);
  plain.AddCounter("b_total", "B.").Get().Increment(3);
  EXPECT_THAT(plain.Render(), HasSubstr("\na 0.005\n"));
  EXPECT_THAT(plain.Render(), HasSubstr("\nb_total 3\n"));
}

TEST(RegistryTest, HistogramBucketsAreCumulativeAndEndInInfEqualToCount) {
  Registry registry;
  HistogramFamily& h =
      registry.AddHistogram("latency_seconds", "Latency.", {"stage"}, {0.001, 0.01, 0.1, 1});
  std::mt19937 rng(11);
  std::exponential_distribution<double> dist(20);  // mean 50 ms; some beyond 1 s
  std::vector<double> seen;
  for (int i = 0; i < 5000; ++i) seen.push_back(dist(rng) * (i % 100 == 0 ? 100 : 1));
  double sum = 0;
  for (double v : seen) {
    h.WithLabels({"decide"}).Observe(v);
    sum += v;
  }
  Exposition e = Parse(registry);
  EXPECT_EQ(e.type["latency_seconds"], "histogram");
  const std::vector<std::pair<std::string, double>> bounds = {
      {"0.001", 0.001}, {"0.01", 0.01}, {"0.1", 0.1}, {"1", 1}};
  for (const auto& [le, bound] : bounds) {
    const double expected =
        std::count_if(seen.begin(), seen.end(), [&](double v) { return v <= bound; });
    EXPECT_EQ(e.Value("latency_seconds_bucket", {{"stage", "decide"}, {"le", le}}), expected) << le;
  }
  EXPECT_EQ(e.Value("latency_seconds_bucket", {{"stage", "decide"}, {"le", "+Inf"}}), 5000);
  EXPECT_EQ(e.Value("latency_seconds_count", {{"stage", "decide"}}), 5000);
  EXPECT_NEAR(*e.Value("latency_seconds_sum", {{"stage", "decide"}}), sum, 1e-9 * sum);
}

TEST(RegistryTest, AnObservationEqualToABoundCountsInThatBucket) {
  Registry registry;
  Histogram& h = registry.AddHistogram("h", "H.", {}, {1, 2}).Get();
  h.Observe(1);
  h.Observe(2);
  h.Observe(2.0000001);
  Exposition e = Parse(registry);
  EXPECT_EQ(e.Value("h_bucket", {{"le", "1"}}), 1);
  EXPECT_EQ(e.Value("h_bucket", {{"le", "2"}}), 2);
  EXPECT_EQ(e.Value("h_bucket", {{"le", "+Inf"}}), 3);
}

TEST(RegistryTest, DurationsAreObservedInSeconds) {
  Registry registry;
  Histogram& h = registry.AddHistogram("h_seconds", "H.", {}, {0.001, 0.002}).Get();
  ObserveDuration(h, std::chrono::microseconds(1500));
  Exposition e = Parse(registry);
  EXPECT_EQ(e.Value("h_seconds_bucket", {{"le", "0.001"}}), 0);
  EXPECT_EQ(e.Value("h_seconds_bucket", {{"le", "0.002"}}), 1);
  EXPECT_DOUBLE_EQ(*e.Value("h_seconds_sum"), 0.0015);
}

TEST(RegistryTest, ExponentialBucketsMultiplyByTheFactor) {
  EXPECT_EQ(ExponentialBuckets(0.001, 10, 4), (std::vector<double>{0.001, 0.01, 0.1, 1}));
}

TEST(RegistryTest, ConcurrentUpdatesAreAllCountedAndScrapesStayConsistent) {
  Registry registry;
  Counter& c = registry.AddCounter("c_total", "C.").Get();
  HistogramFamily& h = registry.AddHistogram("h", "H.", {"t"}, {0.5});
  constexpr int kThreads = 4, kEach = 20000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Histogram& mine = h.WithLabels({std::to_string(t % 2)});
      for (int i = 0; i < kEach; ++i) {
        c.Increment();
        mine.Observe(i % 2 ? 0.25 : 0.75);
      }
    });
  }
  // Scrapes while they run: always parseable, +Inf always equal to _count.
  for (int i = 0; i < 50; ++i) {
    Exposition e = Parse(registry);
    for (const char* t : {"0", "1"}) {
      EXPECT_EQ(e.Value("h_bucket", {{"t", t}, {"le", "+Inf"}}), e.Value("h_count", {{"t", t}}));
    }
  }
  for (std::thread& t : threads) t.join();
  Exposition e = Parse(registry);
  EXPECT_EQ(e.Value("c_total"), kThreads * kEach);
  EXPECT_EQ(e.Sum("h_count"), kThreads * kEach);
  EXPECT_EQ(e.Sum("h_bucket", {{"le", "0.5"}}), kThreads * kEach / 2);
}

TEST(RegistryDeathTest, InvalidNamesStopTheProcess) {
  Registry registry;
  EXPECT_DEATH(registry.AddCounter("9lives", "x"), "invalid metric name");
  EXPECT_DEATH(registry.AddCounter("has-dash", "x"), "invalid metric name");
  EXPECT_DEATH(registry.AddCounter("ok", "x", {"__reserved"}), "invalid label name");
  EXPECT_DEATH(registry.AddHistogram("h", "x", {"le"}, {1}), "reserved");
}

TEST(RegistryDeathTest, ANameRegisteredTwiceStopsTheProcess) {
  Registry registry;
  registry.AddGauge("g", "x");
  EXPECT_DEATH(registry.AddCounter("g", "x"), "registered twice");
}

TEST(RegistryDeathTest, TheWrongNumberOfLabelValuesStopsTheProcess) {
  Registry registry;
  CounterFamily& f = registry.AddCounter("c_total", "x", {"a", "b"});
  EXPECT_DEATH(f.WithLabels({"only-one"}), "takes 2 label values, got 1");
}

TEST(RegistryDeathTest, BoundsThatDoNotIncreaseStopTheProcess) {
  Registry registry;
  EXPECT_DEATH(registry.AddHistogram("h", "x", {}, {1, 1}), "strictly increasing");
  EXPECT_DEATH(registry.AddHistogram("h", "x", {}, {1, INFINITY}), "finite");
}

// The parser must be able to fail, or the tests above prove nothing.
TEST(PrometheusTextParserTest, RejectsWhatTheFormatForbids) {
  const char* bad[] = {
      "x 1\n",                             // no TYPE
      "# TYPE x gauge\nx{a=\"\\t\"} 1\n",  // unknown escape
      "# TYPE x gauge\nx{a=\"open} 1\n",   // unterminated value
      "# TYPE x gauge\nx one\n",           // not a number
      "# TYPE x gauge\nx 1\nx 2\n",        // series twice
      "# TYPE x gauge\nx 1",               // no final newline
      "# TYPE x wobbly\n",                 // unknown type
  };
  for (const char* text : bad) EXPECT_FALSE(ParsePrometheusText(text).ok()) << text;
  EXPECT_TRUE(ParsePrometheusText("# TYPE x gauge\nx{a=\"\\\"\"} -Inf\n").ok());
}

}  // namespace
}  // namespace pagesieve::metrics
