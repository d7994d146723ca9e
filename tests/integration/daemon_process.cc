#include "daemon_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <thread>

namespace pagesieve::testing {

DaemonProcess::DaemonProcess(std::string config_path, std::string log_path,
                             std::vector<std::string> extra_args)
    : config_path_(std::move(config_path)),
      log_path_(std::move(log_path)),
      extra_args_(std::move(extra_args)) {}

DaemonProcess::~DaemonProcess() {
  if (pid_ > 0) Kill();
}

void DaemonProcess::Start() {
  pid_ = fork();
  if (pid_ == 0) {
    const int log = open(log_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    dup2(log, 1);
    dup2(log, 2);
    std::vector<std::string> args = {PAGESIEVE_BINARY_DIR "/pagesieve", "run", "--config",
                                     config_path_};
    args.insert(args.end(), extra_args_.begin(), extra_args_.end());
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
}

int DaemonProcess::Wait(std::chrono::seconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (pid_ > 0) {
    int status = 0;
    const pid_t done = waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    if (std::chrono::steady_clock::now() > deadline) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return -1;
}

int DaemonProcess::Terminate(std::chrono::seconds timeout) {
  if (pid_ <= 0) return -1;
  kill(pid_, SIGTERM);
  const int code = Wait(timeout);
  if (pid_ > 0) Kill();
  return code;
}

void DaemonProcess::Kill() {
  if (pid_ <= 0) return;
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

void DaemonProcess::Freeze() {
  if (pid_ > 0) kill(pid_, SIGSTOP);
}

void DaemonProcess::Thaw() {
  if (pid_ > 0) kill(pid_, SIGCONT);
}

bool DaemonProcess::WaitForLog(const std::string& text, std::chrono::seconds timeout) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (Log().find(text) != std::string::npos) return true;
    if (pid_ > 0 && waitpid(pid_, nullptr, WNOHANG) == pid_) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

std::string DaemonProcess::Log() const {
  std::ifstream in(log_path_);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace pagesieve::testing
