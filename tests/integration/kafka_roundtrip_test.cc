// First end-to-end check of the local broker: keyed messages produced to a
// topic with several partitions come back through a consumer group exactly
// once each, every key always from the same partition.
#include <gtest/gtest.h>
#include <librdkafka/rdkafkacpp.h>

#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "kafka_test_env.h"

namespace pagesieve::testing {
namespace {

using std::chrono::steady_clock;

constexpr int kPartitions = 4;
constexpr int kMessages = 2000;
constexpr int kKeys = 50;

std::unique_ptr<RdKafka::Conf> MakeConf(const std::map<std::string, std::string>& props) {
  std::unique_ptr<RdKafka::Conf> conf(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
  std::string err;
  for (const auto& [k, v] : props) {
    EXPECT_EQ(conf->set(k, v, err), RdKafka::Conf::CONF_OK) << k << ": " << err;
  }
  return conf;
}

class DeliveryCounter : public RdKafka::DeliveryReportCb {
 public:
  void dr_cb(RdKafka::Message& message) override {
    if (message.err() == RdKafka::ERR_NO_ERROR) ++delivered; else ++failed;
  }
  int delivered = 0;
  int failed = 0;
};

void ProduceKeyed(const std::string& topic) {
  DeliveryCounter counter;
  auto conf = MakeConf({{"bootstrap.servers", BootstrapServers()},
                        {"enable.idempotence", "true"},
                        {"acks", "all"}});
  std::string err;
  ASSERT_EQ(conf->set("dr_cb", &counter, err), RdKafka::Conf::CONF_OK) << err;
  std::unique_ptr<RdKafka::Producer> producer(RdKafka::Producer::create(conf.get(), err));
  ASSERT_TRUE(producer) << err;
  for (int i = 0; i < kMessages; ++i) {
    std::string key = "site-" + std::to_string(i % kKeys);
    std::string value = "message-" + std::to_string(i);
    RdKafka::ErrorCode rc = producer->produce(
        topic, RdKafka::Topic::PARTITION_UA, RdKafka::Producer::RK_MSG_COPY, value.data(),
        value.size(), key.data(), key.size(), 0, nullptr);
    ASSERT_EQ(rc, RdKafka::ERR_NO_ERROR) << RdKafka::err2str(rc);
    producer->poll(0);
  }
  ASSERT_EQ(producer->flush(30000), RdKafka::ERR_NO_ERROR);
  EXPECT_EQ(counter.delivered, kMessages);
  EXPECT_EQ(counter.failed, 0);
}

TEST(KafkaRoundTripTest, EveryKeyedMessageArrivesOnceThroughAConsumerGroup) {
  const std::string topic = UniqueTopicName("roundtrip");
  ASSERT_TRUE(CreateTopic(topic, kPartitions).ok());
  ProduceKeyed(topic);

  auto conf = MakeConf({{"bootstrap.servers", BootstrapServers()},
                        {"group.id", topic + "-group"},
                        {"auto.offset.reset", "earliest"},
                        {"enable.auto.commit", "false"},
                        {"partition.assignment.strategy", "cooperative-sticky"}});
  std::string err;
  std::unique_ptr<RdKafka::KafkaConsumer> consumer(RdKafka::KafkaConsumer::create(conf.get(), err));
  ASSERT_TRUE(consumer) << err;
  ASSERT_EQ(consumer->subscribe({topic}), RdKafka::ERR_NO_ERROR);

  std::map<std::string, int> seen;                 // value -> times received
  std::map<std::string, std::set<int32_t>> partitions_of_key;
  const auto deadline = steady_clock::now() + std::chrono::seconds(60);
  while (static_cast<int>(seen.size()) < kMessages && steady_clock::now() < deadline) {
    std::unique_ptr<RdKafka::Message> msg(consumer->consume(500));
    if (msg->err() == RdKafka::ERR__TIMED_OUT || msg->err() == RdKafka::ERR__PARTITION_EOF) {
      continue;
    }
    ASSERT_EQ(msg->err(), RdKafka::ERR_NO_ERROR) << msg->errstr();
    seen[std::string(static_cast<const char*>(msg->payload()), msg->len())]++;
    partitions_of_key[*msg->key()].insert(msg->partition());
  }
  ASSERT_EQ(consumer->commitSync(), RdKafka::ERR_NO_ERROR);
  consumer->close();

  ASSERT_EQ(seen.size(), static_cast<size_t>(kMessages));
  for (const auto& [value, times] : seen) EXPECT_EQ(times, 1) << value;
  ASSERT_EQ(partitions_of_key.size(), static_cast<size_t>(kKeys));
  std::set<int32_t> used;
  for (const auto& [key, parts] : partitions_of_key) {
    EXPECT_EQ(parts.size(), 1u) << key << " came from several partitions";
    used.insert(parts.begin(), parts.end());
  }
  EXPECT_GT(used.size(), 1u) << "50 keys should spread over more than one partition";
}

}  // namespace
}  // namespace pagesieve::testing
