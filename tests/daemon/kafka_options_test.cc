#include "kafka/kafka_options.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <librdkafka/rdkafkacpp.h>

namespace pagesieve::kafka {
namespace {

using ::testing::HasSubstr;

StatusOr<KafkaOptions> Read(const std::string& toml, std::vector<std::string> sets = {}) {
  StatusOr<Config> config = Config::FromToml(toml, "test", sets);
  if (!config.ok()) return config.status();
  return KafkaOptionsFromConfig(*config);
}

std::string Get(RdKafka::Conf& conf, const std::string& name) {
  std::string value;
  EXPECT_EQ(conf.get(name, value), RdKafka::Conf::CONF_OK) << name;
  return value;
}

TEST(KafkaOptionsTest, DefaultsReadFromTheBuiltInConfig) {
  StatusOr<KafkaOptions> o = Read("");
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->input_topic, "pages");
  EXPECT_EQ(o->group_id, "pagesieve");
  EXPECT_EQ(o->output.All().size(), 4u);
}

TEST(KafkaOptionsTest, PassThroughPropertiesReachLibrdkafka) {
  StatusOr<KafkaOptions> o = Read("[kafka.common]\n\"client.id\" = \"crawler-7\"\n",
                                  {"kafka.producer.compression.type=zstd",
                                   "kafka.consumer.fetch.max.bytes=1048576"});
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  auto producer = ProducerConf(*o);
  auto consumer = ConsumerConf(*o);
  ASSERT_TRUE(producer.ok() && consumer.ok());
  EXPECT_EQ(Get(**producer, "compression.type"), "zstd");
  EXPECT_EQ(Get(**producer, "client.id"), "crawler-7");
  EXPECT_EQ(Get(**consumer, "client.id"), "crawler-7");
  EXPECT_EQ(Get(**consumer, "fetch.max.bytes"), "1048576");
  // What no record being lost rests on is always set.
  EXPECT_EQ(Get(**producer, "enable.idempotence"), "true");
  EXPECT_EQ(Get(**producer, "acks"), "-1");
  EXPECT_EQ(Get(**consumer, "enable.auto.commit"), "false");
  EXPECT_EQ(Get(**consumer, "partition.assignment.strategy"), "cooperative-sticky");
}

// The output limit sizes the producer too: a batch of small messages must
// fit the topic as one message must.
TEST(KafkaOptionsTest, AGivenOutputLimitSizesTheProducerAndIsNotAskedOfTheBroker) {
  StatusOr<KafkaOptions> learnt = Read("");
  ASSERT_TRUE(learnt.ok()) << learnt.status().ToString();
  EXPECT_TRUE(learnt->output.learn_topic_limits);
  EXPECT_EQ(learnt->output.max_message_bytes, 1'000'000);

  StatusOr<KafkaOptions> o = Read("", {"output.max_message_bytes=65536"});
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_FALSE(o->output.learn_topic_limits);
  EXPECT_EQ(o->output.max_message_bytes, 65536);
  auto producer = ProducerConf(*o);
  ASSERT_TRUE(producer.ok());
  EXPECT_EQ(Get(**producer, "message.max.bytes"), "65536");
  EXPECT_EQ(Get(**producer, "batch.size"), "65536");

  StatusOr<KafkaOptions> tiny = Read("", {"output.max_message_bytes=999"});
  ASSERT_FALSE(tiny.ok());
  EXPECT_THAT(tiny.status().message(), HasSubstr("output.max_message_bytes"));
}

TEST(KafkaOptionsTest, RefusesOverridesThatWouldLoseRecords) {
  for (const char* set : {"kafka.consumer.enable.auto.commit=true", "kafka.producer.acks=1",
                          "kafka.producer.enable.idempotence=false",
                          "kafka.common.enable.auto.offset.store=true",
                          "kafka.consumer.partition.assignment.strategy=range"}) {
    StatusOr<KafkaOptions> o = Read("", {set});
    ASSERT_FALSE(o.ok()) << set;
    EXPECT_THAT(o.status().message(), HasSubstr("no record is lost")) << set;
  }
}

TEST(KafkaOptionsTest, AnUnknownLibrdkafkaPropertyIsNamed) {
  StatusOr<KafkaOptions> o = Read("", {"kafka.producer.linger.mss=5"});
  ASSERT_TRUE(o.ok());
  auto conf = ProducerConf(*o);
  ASSERT_FALSE(conf.ok());
  EXPECT_THAT(conf.status().message(), HasSubstr("linger.mss"));
}

TEST(KafkaOptionsTest, RefusesAnOutputTopicThatIsTheInput) {
  StatusOr<KafkaOptions> o = Read("", {"output.duplicate=pages"});
  ASSERT_FALSE(o.ok());
  EXPECT_THAT(o.status().message(), HasSubstr("is the input topic"));
  EXPECT_FALSE(Read("", {"kafka.group_id="}).ok());
}

TEST(KafkaOptionsTest, TheChangelogTopicIsNamedAfterTheGroupUnlessSet) {
  StatusOr<KafkaOptions> o = Read("", {"kafka.group_id=sieve"});
  ASSERT_TRUE(o.ok());
  EXPECT_TRUE(o->changelog.enabled);
  EXPECT_EQ(o->changelog.topic, "sieve-state-changelog");
  EXPECT_EQ(o->changelog.revoked_shard_grace, std::chrono::hours(1));
  o = Read("", {"changelog.topic=state"});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->changelog.topic, "state");
  for (const char* topic : {"changelog.topic=pages", "changelog.topic=pages-unique"}) {
    StatusOr<KafkaOptions> bad = Read("", {topic});
    ASSERT_FALSE(bad.ok()) << topic;
    EXPECT_THAT(bad.status().message(), HasSubstr("changelog.topic")) << topic;
  }
}

TEST(KafkaOptionsTest, InstanceIdMakesTheMainConsumerAStaticMemberButNotTheRestoreConsumer) {
  StatusOr<KafkaOptions> o = Read("", {"kafka.instance_id=sieve-2"});
  ASSERT_TRUE(o.ok());
  auto consumer = ConsumerConf(*o);
  auto restore = RestoreConsumerConf(*o);
  ASSERT_TRUE(consumer.ok() && restore.ok());
  EXPECT_EQ(Get(**consumer, "group.instance.id"), "sieve-2");
  std::string value;
  const bool set = (*restore)->get("group.instance.id", value) == RdKafka::Conf::CONF_OK;
  EXPECT_TRUE(!set || value.empty()) << "the restore consumer must not claim the id: " << value;
  EXPECT_EQ(Get(**restore, "enable.auto.commit"), "false");
  EXPECT_NE(Get(**restore, "group.id"), o->group_id);  // never joins the group
}

TEST(KafkaOptionsTest, InputNotPartitionedByScopeIsReKeyedThroughATopicNamedAfterTheGroup) {
  StatusOr<KafkaOptions> scoped = Read("", {"kafka.group_id=sieve"});
  ASSERT_TRUE(scoped.ok()) << scoped.status().ToString();
  EXPECT_FALSE(scoped->rekey.enabled);  // the default: the input is keyed by scope

  StatusOr<KafkaOptions> o = Read("", {"kafka.group_id=sieve", "input.partitioned_by=url"});
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_TRUE(o->rekey.enabled);
  EXPECT_EQ(o->rekey.topic, "sieve-repartition");
  EXPECT_EQ(o->rekey.group_id, "sieve-rekey");
  EXPECT_EQ(o->rekey.partitions, 0);

  for (const char* clash : {"input.repartition_topic=pages",
                                   "input.repartition_topic=pages-unique",
                                   "input.repartition_topic=sieve-state-changelog"}) {
    StatusOr<KafkaOptions> bad = Read("", {"kafka.group_id=sieve", "input.partitioned_by=none", clash});
    ASSERT_FALSE(bad.ok()) << clash;
    EXPECT_THAT(bad.status().message(), HasSubstr("input.repartition_topic"));
  }
  StatusOr<KafkaOptions> empty = Read("", {"input.partitioned_by="});
  ASSERT_FALSE(empty.ok());
  EXPECT_THAT(empty.status().message(), HasSubstr("input.partitioned_by"));
  EXPECT_FALSE(Read("", {"input.partitioned_by=url", "input.repartition_partitions=-1"}).ok());
}

TEST(KafkaOptionsTest, RoutingByFingerprintNamesItsTopicsAfterTheGroupAndReplacesReKeying) {
  StatusOr<KafkaOptions> scoped = Read("", {"kafka.group_id=sieve"});
  ASSERT_TRUE(scoped.ok()) << scoped.status().ToString();
  EXPECT_FALSE(scoped->routing.enabled);  // the default: routed by scope

  StatusOr<KafkaOptions> o = Read("", {"kafka.group_id=sieve", "scope.routing=fingerprint",
                                       "input.partitioned_by=url", "routing.partitions=16"});
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_TRUE(o->routing.enabled);
  EXPECT_FALSE(o->rekey.enabled) << "the route stage reads any input";
  EXPECT_EQ(o->routing.partitions, 16);
  EXPECT_EQ(o->routing.input_topic, "pages");
  EXPECT_EQ(o->routing.Topics(), (std::vector<std::string>{
                                     "sieve-routed-url", "sieve-routed-content", "sieve-routed-near"}));
  EXPECT_EQ(o->routing.max_lateness, std::chrono::minutes(1));
  EXPECT_EQ(o->routing.idle_timeout, std::chrono::seconds(30));
}

TEST(KafkaOptionsTest, RoutingByFingerprintRefusesWhatWouldBreakIt) {
  const std::pair<std::vector<std::string>, const char*> bad[] = {
      {{"scope.routing=site"}, "scope.routing"},
      {{"scope.routing=fingerprint", "processing.guarantee=at_least_once"}, "exactly_once"},
      {{"scope.routing=fingerprint", "routing.partitions=0"}, "routing.partitions"},
      {{"scope.routing=fingerprint", "output.unique=pagesieve-routed-near"}, "internal topic"},
  };
  for (const auto& [sets, says] : bad) {
    StatusOr<KafkaOptions> o = Read("", sets);
    ASSERT_FALSE(o.ok()) << sets.back();
    EXPECT_THAT(o.status().message(), HasSubstr(says)) << sets.back();
  }
}

TEST(KafkaOptionsTest, OneTopicForAllVerdictsIsValid) {
  StatusOr<KafkaOptions> o =
      Read("", {"output.unique=verdicts", "output.duplicate=verdicts", "output.skipped=verdicts"});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->output.All().size(), 2u);  // verdicts, and the dead-letter topic
}

}  // namespace
}  // namespace pagesieve::kafka
