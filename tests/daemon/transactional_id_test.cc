// Which transactional.id a stage claims, and whether it can be the only
// holder of it (KafkaSink replaces a fenced producer only then).
#include "run/transactional_id.h"

#include <gtest/gtest.h>

#include <filesystem>
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

// A container recreated on its volume has a new host name, and a volume may
// be mounted at another path: the restarted instance must still find its id.
TEST(TransactionalIdTest, TheIdFollowsTheStateDirectoryWhereverItIsMounted) {
  testing::TempDir dir;
  kafka::KafkaOptions kafka;
  kafka.group_id = "crawl";
  std::optional<TransactionalId> life =
      *TransactionalId::Claim(kafka, StageKind::kDecide, dir.File("here"));
  const std::string id = life->id();
  life.reset();
  std::filesystem::rename(dir.File("here"), dir.File("there"));
  StatusOr<TransactionalId> moved = TransactionalId::Claim(kafka, StageKind::kDecide, dir.File("there"));
  ASSERT_TRUE(moved.ok()) << moved.status().ToString();
  EXPECT_EQ(moved->id(), id);
  StatusOr<TransactionalId> other = TransactionalId::Claim(kafka, StageKind::kDecide, dir.File("here"));
  ASSERT_TRUE(other.ok()) << other.status().ToString();
  EXPECT_NE(other->id(), id);  // a new directory is a new instance
}

TEST(TransactionalIdTest, ADamagedTokenIsReplacedAndThenKept) {
  testing::TempDir dir;
  kafka::KafkaOptions kafka;
  kafka.group_id = "crawl";
  testing::WriteFile(dir.File("transactional-id.token"), "");  // a crash as it was written
  std::optional<TransactionalId> life =
      *TransactionalId::Claim(kafka, StageKind::kDecide, dir.path());
  const std::string id = life->id();
  life.reset();
  EXPECT_EQ(testing::ReadFile(dir.File("transactional-id.token")).size(), 17u);  // 16 hex + \n
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
