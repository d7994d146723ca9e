#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace pagesieve::testing {

// A `pagesieve run` child process for integration tests. Its stdout and
// stderr go to a log file the test can read.
class DaemonProcess {
 public:
  DaemonProcess(std::string config_path, std::string log_path,
                std::vector<std::string> extra_args = {});
  ~DaemonProcess();  // kills it if still running

  void Start();
  // SIGTERM, then waits; the exit code, or -1 when it did not exit in time
  // (it is then killed).
  int Terminate(std::chrono::seconds timeout = std::chrono::seconds(60));
  // SIGKILL, as a crash at any instant.
  void Kill();
  // SIGSTOP and SIGCONT: a process frozen past its session and poll
  // interval (a long GC pause, a swapped-out host, a VM migration) that then
  // goes on as if nothing happened: the zombie fencing has to stop.
  void Freeze();
  void Thaw();
  // Waits for the process to exit on its own; the exit code or -1.
  int Wait(std::chrono::seconds timeout);
  // Waits until the log contains `text` (or the process exits, or the
  // timeout passes); whether it appeared.
  bool WaitForLog(const std::string& text, std::chrono::seconds timeout) const;
  bool running() const { return pid_ > 0; }
  std::string Log() const;

 private:
  std::string config_path_;
  std::string log_path_;
  std::vector<std::string> extra_args_;
  pid_t pid_ = -1;
};

}  // namespace pagesieve::testing
