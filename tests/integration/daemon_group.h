#pragma once

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "daemon_process.h"
#include "run_process.h"

namespace pagesieve::testing {

// The instances of the group. Each has its own state directory and config;
// a restarted instance keeps its directory (a machine that came back) and
// gets a new log file.
class Group {
 public:
  Group(const TempDir& dir, std::vector<std::string> configs)
      : dir_(dir), configs_(std::move(configs)), running_(configs_.size()) {}

  void Start(size_t i) {
    const std::string log =
        dir_.File("instance-" + std::to_string(i) + "-" + std::to_string(starts_++) + ".log");
    logs_.push_back(log);
    running_[i] = std::make_unique<DaemonProcess>(configs_[i], log);
    running_[i]->Start();
  }
  DaemonProcess* At(size_t i) { return running_[i].get(); }
  void Forget(size_t i) { running_[i].reset(); }

  std::vector<size_t> Running() const {
    std::vector<size_t> up;
    for (size_t i = 0; i < running_.size(); ++i) {
      if (running_[i] != nullptr && running_[i]->running()) up.push_back(i);
    }
    return up;
  }
  size_t Pick(std::mt19937& rng) const {
    const std::vector<size_t> up = Running();
    return up[rng() % up.size()];
  }
  // Every log line of every instance containing `text`.
  int CountInLogs(const std::string& text) const {
    int n = 0;
    for (const std::string& log : logs_) {
      const std::string all = ReadFile(log);
      for (size_t at = all.find(text); at != std::string::npos; at = all.find(text, at + 1)) ++n;
    }
    return n;
  }
  std::string Logs() const {
    std::string all;
    for (const std::string& log : logs_) all += "---- " + log + "\n" + ReadFile(log);
    return all;
  }

 private:
  const TempDir& dir_;
  std::vector<std::string> configs_;
  std::vector<std::unique_ptr<DaemonProcess>> running_;
  std::vector<std::string> logs_;
  int starts_ = 0;
};

}  // namespace pagesieve::testing
