#include "run/transactional_id.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "common/hex.h"

namespace pagesieve::run {
namespace {

constexpr int kMaxSlots = 64;
constexpr char kTokenFile[] = "transactional-id.token";

bool IsToken(const std::string& text) {
  return text.size() == 16 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

std::string ReadToken(const std::string& path) {
  std::ifstream in(path);
  std::string token;
  in >> token;
  return token;
}

// The state directory's own name: random, written into it the first time.
// The transactional.id follows the disk, not the host or the mount path: a
// container's host name changes when it is recreated, and a volume may be
// mounted elsewhere; either would have given a restarted instance a new id,
// and left its previous life's open transaction to time out.
StatusOr<std::string> DirectoryToken(const std::string& dir) {
  const std::string path = dir + "/" + kTokenFile;
  if (std::string token = ReadToken(path); IsToken(token)) return token;
  std::random_device random;
  const uint64_t r = (static_cast<uint64_t>(random()) << 32) ^ random();
  const std::string token = Hex64(r);
  // Written whole elsewhere, then put in place in one step: an instance
  // starting at the same moment reads a whole token or none.
  const std::string staged = path + "." + std::to_string(::getpid());
  {
    std::ofstream out(staged, std::ios::trunc);
    out << token << "\n";
    out.flush();
    if (!out) return Status::FailedPrecondition("cannot write " + staged);
  }
  const bool damaged = std::filesystem::exists(path);
  // link() refuses to replace: of two instances starting together, the
  // second takes the first one's token. A damaged token is replaced.
  const int linked = damaged ? std::rename(staged.c_str(), path.c_str())
                             : ::link(staged.c_str(), path.c_str());
  const int link_errno = errno;
  ::unlink(staged.c_str());
  if (linked == 0) return token;
  if (link_errno == EEXIST) {
    if (std::string winner = ReadToken(path); IsToken(winner)) return winner;
  }
  return Status::FailedPrecondition("cannot write " + path + ": " + std::strerror(link_errno));
}

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
  PS_ASSIGN_OR_RETURN(const std::string token, DirectoryToken(dir));
  for (int slot = 0; slot < kMaxSlots; ++slot) {
    const std::string path =
        dir + "/transactional-id-" + stage_name + "-" + std::to_string(slot) + ".lock";
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
      return Status::FailedPrecondition("cannot open " + path + ": " + std::strerror(errno));
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
      return TransactionalId(prefix + token + "-" + std::to_string(slot), fd);
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
