#!/usr/bin/env python3
"""Checks docker/compose.yaml and docker/pagesieve.toml against the default
configuration (config/pagesieve.toml), since this machine has no Docker
engine to run them: the service names, the published metrics port, the
broker address, and the topics the compose file creates.

Python standard library only. compose.yaml is read with the small YAML subset
parser below (block mappings and lists, flow lists, plain and quoted
scalars, "|" block scalars), which is all the compose file uses.

    compose_test.py <repo> [<pagesieve binary>]
"""

import os
import re
import subprocess
import sys
import tomllib
import unittest

REPO = None
BINARY = None


# --- a YAML subset ----------------------------------------------------------

def _scalar(text):
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        inner = text[1:-1].strip()
        return [_scalar(x) for x in re.findall(r'"(?:[^"\\]|\\.)*"|[^,]+', inner)] if inner else []
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def _strip_comment(line):
    out, quote = [], None
    for i, c in enumerate(line):
        if quote:
            quote = None if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t"):
            break
        out.append(c)
    return "".join(out).rstrip()


def parse_yaml(text):
    lines = []
    raw = text.splitlines()
    i = 0
    while i < len(raw):
        line = _strip_comment(raw[i])
        i += 1
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        body = line.strip()
        if body.endswith("|") and (body == "- |" or body.endswith(": |")):
            block = []
            while i < len(raw) and (not raw[i].strip() or
                                    len(raw[i]) - len(raw[i].lstrip(" ")) > indent):
                block.append(raw[i].strip())
                i += 1
            body = body[:-1] + "\x00" + "\n".join(block)
        lines.append((indent, body))
    value, rest = _block(lines, 0)
    assert not rest, "unparsed: %r" % rest[:2]
    return value


def _value(text):
    return text[1:] if text.startswith("\x00") else _scalar(text)


def _block(lines, pos):
    indent = lines[pos][0]
    if lines[pos][1].startswith("- "):
        items = []
        while pos < len(lines) and lines[pos][0] == indent and lines[pos][1].startswith("- "):
            items.append(_value(lines[pos][1][2:].strip()))
            pos += 1
        return items, lines[pos:]
    mapping = {}
    while pos < len(lines) and lines[pos][0] == indent:
        key, _, rest = lines[pos][1].partition(":")
        rest = rest.strip()
        pos += 1
        if rest:
            mapping[key.strip()] = _value(rest)
        elif pos < len(lines) and lines[pos][0] > indent:
            child, remaining = _block(lines, pos)
            mapping[key.strip()] = child
            pos = len(lines) - len(remaining)
        else:
            mapping[key.strip()] = None
    return mapping, lines[pos:]


# --- the checks ---------------------------------------------------------------

def load():
    with open(os.path.join(REPO, "docker", "compose.yaml"), encoding="utf-8") as f:
        compose = parse_yaml(f.read())
    with open(os.path.join(REPO, "config", "pagesieve.toml"), "rb") as f:
        defaults = tomllib.load(f)
    with open(os.path.join(REPO, "docker", "pagesieve.toml"), "rb") as f:
        container = tomllib.load(f)
    return compose, defaults, container


def effective(defaults, container, section, key):
    return container.get(section, {}).get(key, defaults[section][key])


class ComposeTest(unittest.TestCase):
    def setUp(self):
        self.compose, self.defaults, self.container = load()
        self.services = self.compose["services"]

    def test_services_are_the_broker_the_topics_the_demo_data_and_pagesieve(self):
        self.assertEqual(set(self.services), {"kafka", "topics", "demo-data", "pagesieve"})

    def test_broker_is_built_here_from_docker_kafka_in_kraft_mode(self):
        # No image registry is reachable: the broker image is ours, from Maven
        # Central's jars on Debian's Java runtime.
        kafka = self.services["kafka"]
        self.assertEqual(kafka["image"], "localhost/pagesieve-kafka:latest")
        self.assertEqual(kafka["build"]["dockerfile"], "docker/kafka/Dockerfile")
        self.assertTrue(os.path.isfile(os.path.join(REPO, "docker", "kafka", "Dockerfile")))
        self.assertEqual(kafka["environment"]["KAFKA_PROCESS_ROLES"], "broker,controller")
        self.assertEqual(self.services["topics"]["image"], kafka["image"])

    def test_pagesieve_reaches_the_broker_at_its_advertised_listener(self):
        advertised = self.services["kafka"]["environment"]["KAFKA_ADVERTISED_LISTENERS"]
        bootstrap = effective(self.defaults, self.container, "kafka", "bootstrap_servers")
        self.assertEqual("PLAINTEXT://" + bootstrap, advertised)

    def test_topics_service_creates_exactly_the_configured_topics(self):
        script = self.services["topics"]["command"][0]
        created = set(re.search(r"for topic in ([^;]+);", script).group(1).split())
        wanted = {effective(self.defaults, self.container, "kafka", "input_topic")}
        for key in ("unique", "duplicate", "skipped", "dead_letter"):
            wanted.add(effective(self.defaults, self.container, "output", key))
        self.assertEqual(created, wanted)

    def test_pagesieve_publishes_the_metrics_port(self):
        listen = self.defaults.get("metrics", {}).get("listen")
        port = listen.rsplit(":", 1)[1] if listen else "9464"  # until [metrics] lands
        # "${PAGESIEVE_METRICS_PORT:-9464}:9464": the host side can be moved
        # (scripts/test-container picks a free port), the default is the same.
        published = [re.fullmatch(r"\$\{PAGESIEVE_METRICS_PORT:-(\d+)\}:(\d+)", p)
                     for p in self.services["pagesieve"]["ports"]]
        self.assertIn((port, port), [m.groups() for m in published if m])
        container_listen = self.container["metrics"]["listen"]
        self.assertEqual(container_listen, "0.0.0.0:" + port)

    def test_both_pagesieve_services_mount_the_config_they_are_given(self):
        for name in ("demo-data", "pagesieve"):
            service = self.services[name]
            self.assertIn("./pagesieve.toml:/etc/pagesieve/pagesieve.toml:ro", service["volumes"])
            self.assertIn("/etc/pagesieve/pagesieve.toml", service["command"])
            self.assertEqual(service["depends_on"]["topics"]["condition"],
                             "service_completed_successfully")

    def test_state_lives_on_the_named_volume(self):
        state_dir = effective(self.defaults, self.container, "state", "dir")
        self.assertIn("pagesieve-state:" + state_dir, self.services["pagesieve"]["volumes"])
        self.assertIn("pagesieve-state", self.compose["volumes"])

    def test_container_config_is_accepted_by_pagesieve(self):
        if not BINARY:
            self.skipTest("no pagesieve binary given")
        if "metrics" not in self.defaults:
            self.skipTest("config/pagesieve.toml has no [metrics] section yet")
        path = os.path.join(REPO, "docker", "pagesieve.toml")
        r = subprocess.run([BINARY, "--config", path, "--print-config"], capture_output=True,
                           text=True)
        self.assertEqual(r.returncode, 0, r.stderr)


def dockerfile_stages(text):
    """A Dockerfile's stages: name -> its lines (continuations joined)."""
    text = re.sub(r"\\\n", " ", text)
    stages, current = {}, None
    for line in text.splitlines():
        line = line.strip()
        m = re.match(r"FROM (\S+) AS (\S+)", line)
        if m:
            current = m.group(2)
            stages[current] = ["FROM " + m.group(1)]
        elif current and line and not line.startswith("#"):
            stages[current].append(line)
    return stages


class DockerfileTest(unittest.TestCase):
    def setUp(self):
        with open(os.path.join(REPO, "docker", "Dockerfile"), encoding="utf-8") as f:
            self.stages = dockerfile_stages(f.read())

    def test_builds_on_bookworm_and_runs_on_bookworm_slim(self):
        self.assertEqual(self.stages["build"][0], "FROM debian:bookworm")
        self.assertEqual(self.stages["runtime"][0], "FROM debian:bookworm-slim")
        self.assertEqual(list(self.stages)[-1], "runtime")

    def test_build_stage_uses_install_deps_and_skips_tests_and_benchmarks(self):
        build = " ".join(self.stages["build"])
        self.assertIn("scripts/install-deps", build)
        self.assertIn("-DCMAKE_BUILD_TYPE=Release", build)
        self.assertIn("-DPAGESIEVE_BUILD_TESTS=OFF", build)
        self.assertIn("-DPAGESIEVE_BUILD_BENCHMARKS=OFF", build)

    def test_runtime_runs_pagesieve_as_an_unprivileged_user(self):
        runtime = self.stages["runtime"]
        users = [l.split()[1] for l in runtime if l.startswith("USER ")]
        self.assertTrue(users and not users[-1].startswith(("root", "0")), users)
        self.assertIn('ENTRYPOINT ["pagesieve"]', runtime)
        self.assertTrue(any("/etc/pagesieve/pagesieve.toml" in l for l in runtime
                            if l.startswith("CMD")))

    def test_runtime_installs_the_package_of_every_library_the_binary_needs(self):
        if not BINARY:
            self.skipTest("no pagesieve binary given")
        try:
            dynamic = subprocess.run(["readelf", "-d", BINARY], capture_output=True, text=True,
                                     check=True).stdout
            resolved = subprocess.run(["ldd", BINARY], capture_output=True, text=True,
                                      check=True).stdout
        except (OSError, subprocess.CalledProcessError) as e:
            self.skipTest("readelf/ldd: %s" % e)
        needed = set(re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic))
        paths = {}
        for name, path in re.findall(r"^\s*(\S+) => (/\S+)", resolved, re.M):
            if name in needed:  # with merged /usr, dpkg knows either /lib/... or /usr/lib/...
                paths[name] = {path, os.path.join(os.path.realpath(os.path.dirname(path)), name)}
        owners = subprocess.run(["dpkg", "-S"] + sorted(set().union(*paths.values())),
                                capture_output=True, text=True).stdout
        owner = {}  # by file name: dpkg may print /lib/... for /usr/lib/... (merged /usr)
        for line in owners.splitlines():
            package, _, path = line.partition(": ")
            owner[os.path.basename(path.strip())] = package.split(":")[0]
        library_package = {name: owner.get(name) for name in paths}
        for name in needed - set(paths):
            library_package[name] = None  # ldd could not find it on this machine
        self.assertEqual(missing_runtime_packages(library_package, runtime_packages(self.stages)),
                         [])

    def test_runtime_stages_hold_no_compiler_and_no_dev_package(self):
        stages = [self.stages["runtime"]]
        with open(os.path.join(REPO, "docker", "kafka", "Dockerfile"), encoding="utf-8") as f:
            stages.append(dockerfile_stages(f.read())["runtime"])
        for stage in stages:
            packages = runtime_packages({"runtime": stage})
            self.assertEqual([p for p in packages if p.endswith("-dev") or p in BUILD_TOOLS], [])


# In every Debian image; and the sanitizer runtimes of a sanitizer build.
BASE_PACKAGES = {"libc6", "libgcc-s1", "libstdc++6", "libasan8", "libubsan1"}
BUILD_TOOLS = {"g++", "gcc", "cmake", "ninja-build", "make", "maven", "build-essential",
               "openjdk-17-jdk", "openjdk-17-jdk-headless"}


def runtime_packages(stages):
    """The packages the runtime stage's apt-get install lines name."""
    packages = set()
    for line in stages["runtime"]:
        for command in re.split(r"&&|;", line):
            words = command.split()
            if words[:1] == ["RUN"]:
                words = words[1:]
            if words[:2] == ["apt-get", "install"]:
                packages.update(w for w in words[2:] if not w.startswith("-"))
    return packages


def missing_runtime_packages(library_package, installed):
    """One line per shared library whose package the runtime stage lacks."""
    problems = []
    for library, package in sorted(library_package.items()):
        if package is None:
            problems.append("%s: not found on this machine, so no Debian package provides it"
                            % library)
        elif package not in installed and package not in BASE_PACKAGES:
            problems.append("%s needs the package %s: add it to the runtime stage's "
                            "apt-get install in docker/Dockerfile" % (library, package))
    return problems


class RuntimePackagesTest(unittest.TestCase):
    def test_a_library_whose_package_is_not_installed_is_named_with_its_package(self):
        # As when the WARC reader links brotli before the Dockerfile learns of it.
        problems = missing_runtime_packages(
            {"librdkafka.so.1": "librdkafka1", "libbrotlidec.so.1": "libbrotli1",
             "libc.so.6": "libc6"},
            {"librdkafka1", "ca-certificates"})
        self.assertEqual(len(problems), 1)
        self.assertIn("libbrotlidec.so.1 needs the package libbrotli1", problems[0])

    def test_a_library_no_package_provides_is_reported(self):
        self.assertEqual(len(missing_runtime_packages({"libfoo.so.2": None}, set())), 1)

    def test_reads_the_packages_of_the_runtime_stage(self):
        stages = dockerfile_stages("FROM debian:bookworm AS build\nRUN apt-get install -y g++\n"
                                   "FROM debian:bookworm-slim AS runtime\n"
                                   "RUN apt-get update \\\n && apt-get install -y "
                                   "--no-install-recommends \\\n      libfmt9 zlib1g \\\n"
                                   " && rm -rf /var/lib/apt/lists/*\n")
        self.assertEqual(runtime_packages(stages), {"libfmt9", "zlib1g"})


class YamlSubsetTest(unittest.TestCase):
    def test_parses_mappings_lists_flow_lists_and_block_scalars(self):
        doc = parse_yaml('a:\n  b: "x # y"  # c\n  c: [p, "q r"]\n  d:\n    - e\n'
                         '  f:\n    - |\n      one\n      two\ng: 1\n')
        self.assertEqual(doc, {"a": {"b": "x # y", "c": ["p", "q r"], "d": ["e"],
                                     "f": ["one\ntwo"]}, "g": "1"})


if __name__ == "__main__":
    REPO = os.path.abspath(sys.argv[1])
    BINARY = sys.argv[2] if len(sys.argv) > 2 else None
    unittest.main(argv=[sys.argv[0], "-v"])
