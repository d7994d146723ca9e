"""Reading a running daemon's /metrics (Prometheus text format) in the
benchmarks: one parser, so that each benchmark says only which series it
wants."""

import re
import urllib.request

# name{label="value",...} value  (the daemon writes no timestamps)
_SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$')
_LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def fetch(url, timeout_s=5):
    """The exposition text at `url`, or None when the daemon does not answer."""
    try:
        with urllib.request.urlopen(url, timeout=timeout_s) as response:
            return response.read().decode()
    except OSError:
        return None


def samples(text):
    """Every sample of the exposition: (name, {label: value}, float)."""
    out = []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = _SAMPLE.match(line)
        if m:
            labels = dict(_LABEL.findall(m.group(2) or ""))
            out.append((m.group(1), labels, float(m.group(3))))
    return out
