#!/usr/bin/env python3
"""Checks the Grafana dashboard (docker/grafana/pagesieve-dashboard.json) and
the Prometheus alert rules (docker/prometheus/pagesieve-alerts.yml):

- every metric a dashboard query, variable, annotation or alert expression
  names is one pagesieve exposes. The names come from a /metrics scrape of
  `pagesieve run` started without a broker: every family with a series is
  there. A labelled family has no series until it is first used (partitions
  come with a broker; prometheus-cpp then leaves the family out of the
  scrape), so a name missing from the scrape must be documented in
  docs/metrics.md with labels; and every scraped family must be documented,
  which keeps that page honest;
- `promtool check rules` accepts the rules and `promtool test rules` runs
  docker/prometheus/pagesieve-alerts.test.yml (skipped without promtool:
  Debian's `prometheus` package, ~100 MB, is optional);
- the dashboard is well formed (unique panel ids, a datasource and refIds).

    dashboard_test.py <repo> [<pagesieve binary>]      the tests
    dashboard_test.py --check-scrape <file> <repo>     names against a live scrape
                                                       (scripts/test-container)

Python standard library only.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request

REPO = None
BINARY = None

DASHBOARD = os.path.join("docker", "grafana", "pagesieve-dashboard.json")
RULES = os.path.join("docker", "prometheus", "pagesieve-alerts.yml")
RULE_TESTS = os.path.join("docker", "prometheus", "pagesieve-alerts.test.yml")

# Series Prometheus itself writes for every target.
PROMETHEUS_OWN = {"up"}
HISTOGRAM_SUFFIXES = ("_bucket", "_sum", "_count")
PROMQL_WORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool",
                "and", "or", "unless", "offset", "inf", "nan"}


# --- PromQL: the metric names an expression selects ---------------------------

def promql_metric_names(expr):
    """Metric names in a PromQL expression (Grafana's $variables allowed)."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'', '""', expr)  # strings
    text = re.sub(r"\$\{[^}]*\}|\$\w+", "1", text)                      # $vars
    text = re.sub(r"\{[^}]*\}", "", text)                                 # matchers
    text = re.sub(r"\[[^\]]*\]", "", text)                                # ranges
    text = re.sub(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ",
                  text)                                                   # label lists
    names = set()
    for m in re.finditer(r"(?<![\w.])([A-Za-z_:][\w:]*)(\s*\()?", text):
        word, call = m.group(1), m.group(2)
        if call or word.lower() in PROMQL_WORDS:
            continue
        names.add(word)
    return names


def label_values_metric(query):
    """The metric of a Grafana label_values(metric, label) variable query."""
    m = re.match(r"\s*label_values\(\s*([A-Za-z_:][\w:]*)\s*,", query)
    return m.group(1) if m else None


# --- what the dashboard and the rules ask for -----------------------------------

def dashboard_expressions(dashboard):
    exprs = []

    def walk(panels):
        for panel in panels:
            exprs.extend(t["expr"] for t in panel.get("targets", []) if t.get("expr"))
            walk(panel.get("panels", []))

    walk(dashboard["panels"])
    exprs.extend(a["expr"] for a in dashboard.get("annotations", {}).get("list", [])
                 if a.get("expr"))
    return exprs


def dashboard_variable_metrics(dashboard):
    names = set()
    for var in dashboard.get("templating", {}).get("list", []):
        query = var.get("query")
        if isinstance(query, dict):
            query = query.get("query")
        if var.get("type") == "query" and isinstance(query, str):
            metric = label_values_metric(query)
            if metric:
                names.add(metric)
    return names


def rule_expressions(text):
    """The `expr:` of every rule: inline, or a "|" block below it."""
    exprs, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        m = re.match(r"^(\s*)(?:- )?expr:\s*(.*)$", lines[i])
        i += 1
        if not m:
            continue
        if m.group(2).strip() not in ("|", ">", "|-", ">-"):
            exprs.append(m.group(2).strip())
            continue
        indent, block = len(m.group(1)), []
        while i < len(lines) and (not lines[i].strip() or
                                  len(lines[i]) - len(lines[i].lstrip()) > indent):
            block.append(lines[i].strip())
            i += 1
        exprs.append(" ".join(block).strip())
    return exprs


def referenced_metrics(repo):
    """Metric name -> where it is used."""
    with open(os.path.join(repo, DASHBOARD), encoding="utf-8") as f:
        dashboard = json.load(f)
    with open(os.path.join(repo, RULES), encoding="utf-8") as f:
        rules = f.read()
    used = {}
    for expr in dashboard_expressions(dashboard):
        for name in promql_metric_names(expr):
            used.setdefault(name, DASHBOARD)
    for name in dashboard_variable_metrics(dashboard):
        used.setdefault(name, DASHBOARD + " (variable)")
    for expr in rule_expressions(rules):
        for name in promql_metric_names(expr):
            used.setdefault(name, RULES)
    return used


# --- what pagesieve exposes -------------------------------------------------------

def scraped_families(text):
    """Family name -> type, from the # TYPE lines and the samples of a scrape."""
    families = {}
    for name, kind in re.findall(r"^# TYPE (\S+) (\S+)", text, re.M):
        families[name] = kind
    for name in re.findall(r"^([A-Za-z_:][\w:]*)(?:\{| )", text, re.M):
        base = next((name[:-len(s)] for s in HISTOGRAM_SUFFIXES
                     if name.endswith(s) and families.get(name[:-len(s)]) == "histogram"), name)
        families.setdefault(base, "untyped")
    return families


def documented_metrics(repo):
    """docs/metrics.md's tables: name -> (type, has labels)."""
    documented = {}
    with open(os.path.join(repo, "docs", "metrics.md"), encoding="utf-8") as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) >= 3 and re.fullmatch(r"`pagesieve_\w+`", cells[0]):
                documented[cells[0].strip("`")] = (cells[1].split()[0], bool(cells[2]))
    return documented


def family_of(name, types):
    """The family a sample name belongs to (histogram _bucket/_sum/_count)."""
    for suffix in HISTOGRAM_SUFFIXES:
        if name.endswith(suffix) and types.get(name[:-len(suffix)]) == "histogram":
            return name[:-len(suffix)]
    return name


def unknown_metrics(used, scraped, documented):
    """The used names pagesieve does not expose, with the reason; sorted."""
    types = {n: t for n, (t, _) in documented.items()}
    types.update(scraped)
    problems = []
    for name, where in sorted(used.items()):
        family = family_of(name, types)
        if name in PROMETHEUS_OWN or family in scraped:
            continue
        if family in documented and documented[family][1]:
            continue  # labelled: no series until a partition is assigned
        why = ("documented without labels, so it should have been scraped"
               if family in documented else "neither exposed nor in docs/metrics.md")
        problems.append("%s (in %s): %s" % (name, where, why))
    return problems


def scrape_run_without_broker(binary, deadline_s=30):
    """/metrics of `pagesieve run` started against a closed port."""
    with tempfile.TemporaryDirectory() as state:
        closed = socket_port_closed()
        proc = subprocess.Popen(
            [binary, "run", "--set", "metrics.listen=127.0.0.1:0",
             "--set", "kafka.bootstrap_servers=127.0.0.1:%d" % closed,
             "--set", "state.dir=" + state],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            port, log, deadline = None, "", time.monotonic() + deadline_s
            while port is None and time.monotonic() < deadline:
                line = proc.stderr.readline()
                if not line:
                    break
                log += line
                m = re.search(r"serving /metrics.* on http://127\.0\.0\.1:(\d+)", line)
                port = int(m.group(1)) if m else None
            if port is None:
                raise AssertionError("pagesieve run never said where /metrics is:\n" + log)
            with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=5) as r:
                return r.read().decode()
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def socket_port_closed():
    import socket
    with socket.socket() as s:  # bound and closed again: nobody listens there
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- the tests -------------------------------------------------------------------

class PromqlNamesTest(unittest.TestCase):
    def test_finds_metrics_and_skips_functions_labels_ranges_and_variables(self):
        expr = ('histogram_quantile(0.99, sum by (le, instance) (rate(a_seconds_bucket'
                '{instance=~"$instance", x="b_total"}[$__rate_interval]))) / ignoring(tier) '
                'group_left sum(c_total offset 5m) > bool 2 and on(job) d')
        self.assertEqual(promql_metric_names(expr), {"a_seconds_bucket", "c_total", "d"})

    def test_reads_inline_and_block_rule_expressions(self):
        text = ("- alert: A\n  expr: up == 0\n- alert: B\n  expr: |\n    x > 1\n"
                "      and y\n  for: 5m\n")
        self.assertEqual(rule_expressions(text), ["up == 0", "x > 1 and y"])

    def test_a_misspelt_metric_is_reported(self):
        documented = {"pagesieve_verdicts_total": ("counter", True)}
        scraped = {"pagesieve_verdicts_total": "counter"}
        used = {"pagesieve_verdict_total": "dash.json", "pagesieve_verdicts_total": "dash.json"}
        problems = unknown_metrics(used, scraped, documented)
        self.assertEqual(len(problems), 1)
        self.assertIn("pagesieve_verdict_total (in dash.json)", problems[0])

    def test_an_unlabelled_metric_missing_from_the_scrape_is_reported(self):
        documented = {"pagesieve_ready": ("gauge", False),
                      "pagesieve_consumer_lag_records": ("gauge", True)}
        used = {"pagesieve_ready": "r.yml", "pagesieve_consumer_lag_records": "r.yml"}
        self.assertEqual(len(unknown_metrics(used, {}, documented)), 1)


class DashboardAndRulesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.used = referenced_metrics(REPO)
        cls.documented = documented_metrics(REPO)
        with open(os.path.join(REPO, DASHBOARD), encoding="utf-8") as f:
            cls.dashboard = json.load(f)

    def test_dashboard_and_rules_cover_what_an_operator_watches(self):
        for name in ("pagesieve_consumer_lag_records", "pagesieve_verdicts_total",
                     "pagesieve_dead_letters_total", "pagesieve_restore_progress_ratio",
                     "pagesieve_checkpoints_total", "pagesieve_store_disk_bytes",
                     "pagesieve_store_entries"):
            self.assertIn(name, self.used)

    def test_every_metric_named_is_exposed_by_pagesieve(self):
        if not BINARY:
            self.skipTest("no pagesieve binary given")
        scraped = scraped_families(scrape_run_without_broker(BINARY))
        self.assertIn("pagesieve_build_info", scraped)  # the scrape is pagesieve's
        self.assertEqual(unknown_metrics(self.used, scraped, self.documented), [])

    def test_every_scraped_metric_is_documented(self):
        if not BINARY:
            self.skipTest("no pagesieve binary given")
        scraped = scraped_families(scrape_run_without_broker(BINARY))
        undocumented = sorted(n for n in scraped
                              if n.startswith("pagesieve_") and n not in self.documented)
        self.assertEqual(undocumented, [], "add them to docs/metrics.md")

    def test_panels_have_unique_ids_a_datasource_and_ref_ids(self):
        ids = [p["id"] for p in self.dashboard["panels"]]
        self.assertEqual(len(ids), len(set(ids)))
        for panel in self.dashboard["panels"]:
            if panel["type"] == "row":
                continue
            self.assertEqual(panel["datasource"]["uid"], "${datasource}", panel["title"])
            refs = [t["refId"] for t in panel["targets"]]
            self.assertTrue(refs and len(refs) == len(set(refs)), panel["title"])
            self.assertLessEqual(panel["gridPos"]["x"] + panel["gridPos"]["w"], 24)


class PromtoolTest(unittest.TestCase):
    def setUp(self):
        self.promtool = shutil.which("promtool")
        if not self.promtool:
            self.skipTest("promtool not installed (apt-get install prometheus); rules unchecked")

    def run_promtool(self, *args):
        r = subprocess.run([self.promtool, *args], cwd=REPO, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_rules_pass_promtool_check(self):
        self.run_promtool("check", "rules", RULES)

    def test_alerts_fire_as_their_unit_tests_expect(self):
        self.run_promtool("test", "rules", RULE_TESTS)


def check_scrape(path, repo):
    """For scripts/test-container: every name used is in a live scrape."""
    with open(path, encoding="utf-8") as f:
        scraped = scraped_families(f.read())
    missing = sorted("%s (in %s)" % (n, w) for n, w in referenced_metrics(repo).items()
                     if n not in PROMETHEUS_OWN and family_of(n, scraped) not in scraped)
    if missing:
        print("metrics not exposed by the running pagesieve: " + ", ".join(missing))
        return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--check-scrape":
        sys.exit(check_scrape(sys.argv[2], sys.argv[3]))
    REPO = os.path.abspath(sys.argv[1])
    BINARY = sys.argv[2] if len(sys.argv) > 2 else None
    unittest.main(argv=[sys.argv[0], "-v"])
