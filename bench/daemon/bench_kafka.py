"""The local broker, through kcat, paced_produce and scripts/kafka-local.

paced_produce (bench/daemon/paced_produce.cc, librdkafka like the daemon)
produces the input where it is built, kcat otherwise; kcat reads the output.
Topics are created with `scripts/kafka-local create-topic` and deleted with
Kafka's own TopicCommand from the jars kafka-local fetched, since neither
kcat nor the broker's auto-creation makes topics with a chosen partition count.
"""

import concurrent.futures
import glob
import os
import subprocess
import threading
import time

# Pages reach 1.7 MB; librdkafka's default message.max.bytes (1 MB) would
# refuse them. The local broker accepts 16 MiB (scripts/kafka/server.properties.in).
MAX_MESSAGE = "message.max.bytes=16777216"


class KafkaError(RuntimeError):
    pass


class Broker:
    """One bootstrap address and the repository's kafka-local script."""

    def __init__(self, repo, bootstrap, producer=None):
        self.repo = repo
        self.bootstrap = bootstrap
        self.script = os.path.join(repo, "scripts", "kafka-local")
        # The paced_produce binary, or None: kcat produces (slowly: its line
        # reading costs 8 times paced_produce's CPU on pages, see its header).
        self.producer = producer

    def running(self):
        return subprocess.run([self.script, "status"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0

    def create_topics(self, names, partitions, configs=()):
        """Creates every topic (a JVM each, so three at a time), with the
        topic configs `configs` ("key=value" each)."""
        def create(name):
            r = subprocess.run([self.script, "create-topic", name, str(partitions)] + list(configs),
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if r.returncode != 0:
                raise KafkaError("create-topic %s failed: %s" % (name, r.stderr[-500:]))
        with concurrent.futures.ThreadPoolExecutor(3) as pool:
            list(pool.map(create, names))

    def delete_topics(self, pattern):
        """Deletes the topics matching the regular expression; best effort
        (false when the jars are not where kafka-local keeps them)."""
        home = os.environ.get("PAGESIEVE_KAFKA_HOME", os.path.join(self.repo, ".kafka-local"))
        if not glob.glob(os.path.join(home, "libs", "kafka-tools-*.jar")):
            return False
        r = subprocess.run(
            ["java", "-cp", os.path.join(home, "libs", "*"),
             "-Dlog4j.configuration=file:" + os.path.join(self.repo, "scripts", "kafka",
                                                          "log4j.properties"),
             "org.apache.kafka.tools.TopicCommand", "--bootstrap-server", self.bootstrap,
             "--delete", "--if-exists", "--topic", pattern],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return r.returncode == 0

    def produce_file(self, topic, keyed_path):
        """Produces each line `key<TAB>value` of the file as one record."""
        if self.producer:
            self.produce_paced(topic, keyed_path, 0)
            return
        r = subprocess.run(["kcat", "-P", "-b", self.bootstrap, "-t", topic, "-K", "\t",
                            "-X", MAX_MESSAGE, "-l", keyed_path],
                           stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            raise KafkaError("kcat could not produce %s: %s" % (keyed_path, r.stderr[-500:]))

    def produce_paced(self, topic, keyed_path, rate, count=None):
        """Produces the first `count` lines (all: None) open loop at `rate`
        records per second (0: as fast as the broker takes them), through
        paced_produce. Returns where each landed, in file order: a list of
        (partition, offset, broker timestamp ms, "L" for LogAppendTime or
        "C" for CreateTime)."""
        if not self.producer:
            raise KafkaError("paced production needs the paced_produce binary")
        args = [self.producer, "--bootstrap", self.bootstrap, "--topic", topic,
                "--file", keyed_path, "--rate", repr(float(rate)), "--report"]
        if count is not None:
            args += ["--count", str(count)]
        r = subprocess.run(args, capture_output=True, text=True)
        if r.returncode != 0:
            raise KafkaError("paced_produce could not produce %s: %s"
                             % (keyed_path, r.stderr[-500:]))
        landings = []
        for line in r.stdout.splitlines():
            p, o, t, kind = line.split("\t")
            landings.append((int(p), int(o), int(t), kind))
        return landings

    def end_offsets(self, topic, partitions):
        """The sum over partitions of the next offset to be written."""
        args = ["kcat", "-b", self.bootstrap, "-Q"]
        for p in range(partitions):
            args += ["-t", "%s:%d:-1" % (topic, p)]
        out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
        total = 0
        for line in out.splitlines():  # "topic [p] offset N"
            parts = line.split()
            if len(parts) >= 4 and parts[-2] == "offset":
                total += int(parts[-1])
        return total

    def read_all(self, topic, fmt):
        """Every record of the topic, formatted by kcat's -f, as text lines."""
        r = subprocess.run(["kcat", "-C", "-b", self.bootstrap, "-t", topic, "-o", "beginning",
                            "-e", "-q", "-X", "fetch.message.max.bytes=16777216", "-f", fmt],
                           capture_output=True, text=True, errors="replace")
        if r.returncode != 0:
            raise KafkaError("kcat could not read %s: %s" % (topic, r.stderr[-500:]))
        return r.stdout.splitlines()


class LiveReader:
    """Follows a topic with kcat and time-stamps each record as it arrives:
    what a downstream consumer sees. Thread-safety: `records` is appended by
    the reader thread under `_cond`."""

    def __init__(self, broker, topic, fmt):
        self.proc = subprocess.Popen(
            ["kcat", "-C", "-u", "-b", broker.bootstrap, "-t", topic, "-o", "beginning", "-q",
             "-X", "fetch.wait.max.ms=100", "-f", fmt],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, errors="replace")
        self.records = []  # (time.time() when read, line)
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self):
        for line in self.proc.stdout:
            now = time.time()
            with self._cond:
                self.records.append((now, line.rstrip("\n")))
                self._cond.notify_all()

    def wait_for(self, count, timeout_s):
        deadline = time.monotonic() + timeout_s
        with self._cond:
            while len(self.records) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def stop(self):
        self.proc.terminate()
        self.proc.wait()
        self._thread.join()
        with self._cond:
            return list(self.records)
