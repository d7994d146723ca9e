#include "run/transactional_id.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/hex.h"
#include "common/stable_hash.h"

namespace pagesieve::run {
namespace {

constexpr int kMaxSlots = 64;

}  // namespace

StatusOr<TransactionalId> TransactionalId::Claim(const kafka::KafkaOptions& kafka, StageKind stage,
                                                 const std::string& state_dir) {
  const std::string stage_name = StageName(stage);
  if (!kafka.processing.transactional_id.empty()) {
    return TransactionalId(kafka.processing.transactional_id + "-" + stage_name, -1);
  }
  const std::string prefix = kafka.group_id + "-" + stage_name + "-";
  if (!kafka.instance_id.empty()) return TransactionalId(prefix + kafka.instance_id, -1);

  std::error_code ec;
  std::filesystem::create_directories(state_dir, ec);
  const std::string dir = std::filesystem::weakly_canonical(state_dir, ec).string();
  char host[256] = {};
  ::gethostname(host, sizeof(host) - 1);
  for (int slot = 0; slot < kMaxSlots; ++slot) {
    const std::string path =
        dir + "/transactional-id-" + stage_name + "-" + std::to_string(slot) + ".lock";
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
      return Status::FailedPrecondition("cannot open " + path + ": " + std::strerror(errno));
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
      return TransactionalId(
          prefix + host + "-" + Hex64(StableHash64(dir)) + "-" + std::to_string(slot), fd);
    }
    ::close(fd);
  }
  return Status::ResourceExhausted("more than " + std::to_string(kMaxSlots) +
                                   " instances share the state directory " + dir);
}

TransactionalId::TransactionalId(TransactionalId&& other) noexcept
    : id_(std::move(other.id_)), lock_fd_(other.lock_fd_) {
  other.lock_fd_ = -1;
}

TransactionalId& TransactionalId::operator=(TransactionalId&& other) noexcept {
  if (this != &other) {
    if (lock_fd_ >= 0) ::close(lock_fd_);
    id_ = std::move(other.id_);
    lock_fd_ = other.lock_fd_;
    other.lock_fd_ = -1;
  }
  return *this;
}

TransactionalId::~TransactionalId() {
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

}  // namespace pagesieve::run
