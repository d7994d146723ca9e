"""Child processes measured the way the benchmark reports them.

wait4(2) gives a child's CPU time (user + system, all its threads) and its
peak resident set (ru_maxrss, which is VmHWM at exit). While the child runs,
a thread also samples VmHWM from /proc/<pid>/status, so the figure is there
even if the child is still running when it is read, and a reader thread
time-stamps each stderr line as it arrives (the log is how the benchmark sees
a daemon's partitions being assigned).
"""

import os
import signal
import subprocess
import threading
import time


class Usage:
    """What wait4 and the sampler saw of one finished child."""

    def __init__(self, exit_code, wall_s, cpu_s, maxrss_kib, vmhwm_kib):
        self.exit_code = exit_code
        self.wall_s = wall_s
        self.cpu_s = cpu_s
        self.maxrss_kib = maxrss_kib
        self.vmhwm_kib = vmhwm_kib


def read_vmhwm_kib(pid):
    """The process's peak resident set so far, or 0 once it is gone."""
    try:
        with open("/proc/%d/status" % pid, encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def process_cpu_s(pid):
    """The process's CPU time so far (user + system, all threads), or None
    once it is gone."""
    try:
        with open("/proc/%d/stat" % pid, encoding="ascii", errors="replace") as f:
            # Fields after the command, which may hold spaces, in parentheses.
            fields = f.read().rpartition(")")[2].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_cpu_s():
    """(busy, total) CPU seconds of the whole machine since boot, all cores;
    idle and iowait count as not busy."""
    with open("/proc/stat", encoding="ascii") as f:
        ticks = [int(v) for v in f.readline().split()[1:]]
    total = sum(ticks[:8])  # guest time is already inside user
    return (total - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK"), \
        total / os.sysconf("SC_CLK_TCK")


class CpuWindow:
    """The CPU a process and the whole machine used between start() and
    stop(): whether the machine was saturated while a latency run's input
    was produced, and the daemon's share of it."""

    def __init__(self, pid):
        self._pid = pid
        self._start = None
        self.process_cores = None  # cores the process used on average
        self.process_cpu = None    # CPU-seconds the process used
        self.machine_busy = None   # fraction of all cores busy

    def start(self):
        self._start = (time.monotonic(), process_cpu_s(self._pid), machine_cpu_s())

    def stop(self):
        wall0, proc0, (busy0, total0) = self._start
        wall, proc, (busy, total) = time.monotonic(), process_cpu_s(self._pid), machine_cpu_s()
        if wall > wall0 and proc is not None and proc0 is not None:
            self.process_cpu = proc - proc0
            self.process_cores = self.process_cpu / (wall - wall0)
        if total > total0:
            self.machine_busy = (busy - busy0) / (total - total0)


class Child:
    """One child process: stdout to a file (or nowhere), stderr captured.

    Thread-safety: the reader and sampler threads only append to `lines` and
    raise `vmhwm_kib` under `_cond`; the rest is used by the creating thread.
    """

    def __init__(self, argv, log_path, stdout_path=None):
        self.argv = argv
        self._log = open(log_path, "w", encoding="utf-8")
        self._stdout = open(stdout_path, "wb") if stdout_path else subprocess.DEVNULL
        self.started = time.monotonic()
        self.proc = subprocess.Popen(argv, stdout=self._stdout, stderr=subprocess.PIPE,
                                     stdin=subprocess.DEVNULL, text=True, errors="replace")
        self.lines = []  # (time.time() when read, line)
        self.vmhwm_kib = 0
        self._cond = threading.Condition()
        self._exited = False
        self._reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._sampler = threading.Thread(target=self._sample_memory, daemon=True)
        self._reader.start()
        self._sampler.start()

    def _read_stderr(self):
        for line in self.proc.stderr:
            now = time.time()
            self._log.write(line)
            with self._cond:
                self.lines.append((now, line.rstrip("\n")))
                self._cond.notify_all()
        with self._cond:
            self._exited = True
            self._cond.notify_all()

    def _sample_memory(self):
        while not self._exited:
            hwm = read_vmhwm_kib(self.proc.pid)
            with self._cond:
                self.vmhwm_kib = max(self.vmhwm_kib, hwm)
            time.sleep(0.05)

    def wait_for_lines(self, predicate, count, timeout_s):
        """Waits until `count` stderr lines satisfy `predicate`; false when the
        child closed stderr (exited) or the timeout passed first."""
        deadline = time.monotonic() + timeout_s
        with self._cond:
            while sum(1 for _, line in self.lines if predicate(line)) < count:
                left = deadline - time.monotonic()
                if self._exited or left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def stderr_tail(self, n=15):
        with self._cond:
            return "\n".join(line for _, line in self.lines[-n:])

    # Popen.wait/poll/send_signal would reap the child (send_signal polls
    # first), and wait4 must be the one to reap it: signals go through
    # os.kill, and waiting with a timeout peeks with WNOWAIT.
    def terminate(self):
        if self.proc.returncode is None:
            os.kill(self.proc.pid, signal.SIGTERM)

    def exited(self, timeout_s=0):
        """Whether the child has exited (within `timeout_s`), without reaping it."""
        deadline = time.monotonic() + timeout_s
        while True:
            if os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOWAIT | os.WNOHANG):
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)

    def wait(self, timeout_s=None):
        """Reaps the child; kills it (SIGKILL) if it outlives `timeout_s`."""
        if timeout_s is not None and not self.exited(timeout_s):
            os.kill(self.proc.pid, signal.SIGKILL)
        return self._reap()

    def _reap(self):
        if self.proc.returncode is not None:
            raise RuntimeError("child already reaped without its resource usage")
        _, status, ru = os.wait4(self.proc.pid, 0)
        wall = time.monotonic() - self.started
        self.proc.returncode = os.waitstatus_to_exitcode(status)
        self._reader.join()
        self._sampler.join()
        self._log.close()
        if self._stdout is not subprocess.DEVNULL:
            self._stdout.close()
        return Usage(self.proc.returncode, wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss,
                     self.vmhwm_kib)


def dirty_kib():
    """Page-cache bytes waiting to be written back (/proc/meminfo Dirty)."""
    with open("/proc/meminfo", encoding="ascii") as f:
        for line in f:
            if line.startswith("Dirty:"):
                return int(line.split()[1])
    return 0


def flush_page_cache():
    """Writes dirty pages back now and returns how many KiB there were.
    Before a latency run there are 1.2-1.8 GB of them here (the stream just
    built, earlier runs' topics): left alone, the kernel writes them back
    about 30 s after they were dirtied (vm.dirty_expire_centisecs), in the
    middle of the measurement and beside the broker's appends."""
    before = dirty_kib()
    os.sync()
    return before
