#pragma once

#include <string>

#include "common/status_or.h"
#include "kafka/kafka_options.h"
#include "run/run_options.h"

namespace pagesieve::run {

// The transactional.id of one stage of this instance (exactly once,
// docs/daemon.md). It must be the same when the instance restarts, so that
// its first transaction aborts whatever the crashed process left open
// (otherwise read_committed consumers wait for processing.transaction_timeout),
// and different between instances running at once, or they fence each other.
//
// processing.transactional_id, or kafka.instance_id, names the instance when
// set. Otherwise it is the state directory's token (a random name written
// into it the first time, <state.dir>/transactional-id.token), plus a slot:
// the first of <state.dir>/transactional-id-<stage>-<n>.lock this process
// can lock. Instances sharing a directory take different slots; a restart
// takes the slot its previous life held, as that lock died with it, on any
// host and at any mount path. The lock is held for the life of the object.
class TransactionalId {
 public:
  static StatusOr<TransactionalId> Claim(const kafka::KafkaOptions& kafka, StageKind stage,
                                         const std::string& state_dir);
  TransactionalId(TransactionalId&& other) noexcept;
  TransactionalId& operator=(TransactionalId&& other) noexcept;
  ~TransactionalId();

  const std::string& id() const { return id_; }
  // True when the id is a locked slot: no other process can hold it.
  bool exclusive() const { return lock_fd_ >= 0; }

 private:
  TransactionalId(std::string id, int lock_fd) : id_(std::move(id)), lock_fd_(lock_fd) {}

  std::string id_;
  int lock_fd_ = -1;
};

}  // namespace pagesieve::run
