// Which transactional.id a stage claims, and whether it can be the only
// holder of it (KafkaSink replaces a fenced producer only then).
#include "run/transactional_id.h"

#include <gtest/gtest.h>

#include <optional>

#include "run_process.h"

namespace pagesieve::run {
namespace {

TEST(TransactionalIdTest, InstancesSharingADirectoryGetTheirOwnLockedSlots) {
  testing::TempDir dir;
  kafka::KafkaOptions kafka;
  kafka.group_id = "crawl";
  StatusOr<TransactionalId> first = TransactionalId::Claim(kafka, StageKind::kDecide, dir.path());
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  StatusOr<TransactionalId> second = TransactionalId::Claim(kafka, StageKind::kDecide, dir.path());
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_NE(first->id(), second->id());
  EXPECT_TRUE(first->exclusive());
  EXPECT_TRUE(second->exclusive());
}

TEST(TransactionalIdTest, ARestartGetsTheSlotItsPreviousLifeHeld) {
  testing::TempDir dir;
  kafka::KafkaOptions kafka;
  kafka.group_id = "crawl";
  std::optional<TransactionalId> life =
      *TransactionalId::Claim(kafka, StageKind::kDecide, dir.path());
  const std::string id = life->id();
  life.reset();  // the lock dies with the process
  StatusOr<TransactionalId> again = TransactionalId::Claim(kafka, StageKind::kDecide, dir.path());
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->id(), id);
}

TEST(TransactionalIdTest, AConfiguredIdIsNotKnownToBeThisProcesssAlone) {
  testing::TempDir dir;
  kafka::KafkaOptions kafka;
  kafka.group_id = "crawl";
  kafka.instance_id = "pod-3";
  StatusOr<TransactionalId> by_instance =
      TransactionalId::Claim(kafka, StageKind::kDecide, dir.path());
  ASSERT_TRUE(by_instance.ok()) << by_instance.status().ToString();
  EXPECT_EQ(by_instance->id(), "crawl-decide-pod-3");
  EXPECT_FALSE(by_instance->exclusive());
  kafka.processing.transactional_id = "mine";
  StatusOr<TransactionalId> configured =
      TransactionalId::Claim(kafka, StageKind::kDecide, dir.path());
  ASSERT_TRUE(configured.ok()) << configured.status().ToString();
  EXPECT_EQ(configured->id(), "mine-decide");
  EXPECT_FALSE(configured->exclusive());
}

}  // namespace
}  // namespace pagesieve::run
