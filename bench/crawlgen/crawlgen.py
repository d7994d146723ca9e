#!/usr/bin/env python3
"""Builds realistic, labelled crawl streams from real HTML pages.

Each event is a fetched-page event pagesieve reads (url, fetched_at, status,
content_type, body or body_base64, event_id) plus a "label" field that
pagesieve ignores and the scorer reads:

    "label": {"expect": "unique" | "duplicate", "of": <event_id>, "variant": <kind>}

A cluster starts with an original page; its variants are what a crawler meets
again and again, and the hard negatives are what must NOT be merged:

  duplicates   url_variant   same page, URL with tracking/session params, case, port, fragment
               refetch       same URL and page, fetched again later
               mirror        same page on another host of the same site (m., amp., print)
               noise         same article, rotated ads, trending lists, timestamps, counters,
                             cookie banners, session tokens in links
               small_edit    one to three words of the article changed, or a line appended
               comments      a comment thread added under the article
  negatives    same_template a different article in the same site's template
               changed_page  the same URL, later serving a different article
               (and every original, which is unique)

Sources (read from ../shared, never copied): readability-testpages (the
article's paragraphs are known, so edits, comments and template swaps touch the
article itself) and trafilatura-eval (real pages of ~1,000 sites).

Deterministic for a given --seed. Python standard library only.
"""

import argparse
import base64
import gzip
import html
import json
import os
import random
import re
import sys
from urllib.parse import urlsplit, urlunsplit

# 2026-10-01T00:00:00Z: in the past, so pagesieve's event.max_future check
# (1 day ahead of the wall clock) never rejects generated events.
T0_MS = 1_790_812_800_000
MINUTE = 60_000
HOUR = 60 * MINUTE

WORDS = ("river council budget station winter harbour museum festival report village "
         "engineer market school bridge garden railway orchestra library farmer election "
         "forest hospital storm theatre island factory teacher mountain stadium volunteer "
         "airport archive coast parliament vineyard laboratory castle tunnel canal bakery").split()


def default_shared_dir():
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..", "..", "shared", "data", "extraction"))


def read_gz(path):
    with gzip.open(path, "rb") as f:
        return f.read()


# --- pages ---------------------------------------------------------------

P_RE = re.compile(rb"(<p\b[^>]*>)(.*?)(</p\s*>)", re.S | re.I)
TAG_RE = re.compile(r"<[^>]+>")


def text_of(fragment):
    return " ".join(html.unescape(TAG_RE.sub(" ", fragment)).split())


class ArticlePage:
    """A real page whose article paragraphs are located in its raw HTML."""

    def __init__(self, name, source, expected_html):
        self.name = name
        self.source = source
        expected_text = text_of(expected_html.decode("utf-8", "replace"))
        self.article_spans = []  # (start, end) of <p> inner HTML in source
        for m in P_RE.finditer(source):
            inner = text_of(m.group(2).decode("utf-8", "replace"))
            if len(inner) >= 40 and inner[:60] in expected_text:
                self.article_spans.append((m.start(2), m.end(2)))
        self.paragraphs = [self.source[s:e] for s, e in self.article_spans]

    def usable(self):
        return len(self.article_spans) >= 3

    def with_paragraphs(self, new_paragraphs):
        """This page's template with its article paragraphs replaced."""
        out, last = [], 0
        spans = self.article_spans
        for i, (s, e) in enumerate(spans):
            out.append(self.source[last:s])
            if i < len(new_paragraphs):
                chunk = new_paragraphs[i]
                if i == len(spans) - 1 and len(new_paragraphs) > len(spans):
                    # Extra paragraphs of a longer article follow the last one.
                    chunk += b"".join(b"</p><p>" + p for p in new_paragraphs[len(spans):])
                out.append(chunk)
            last = e
        out.append(self.source[last:])
        return b"".join(out)

    def insert_after_article(self, fragment):
        end = self.article_spans[-1][1]
        close = self.source.find(b">", end) + 1  # past the closing </p>
        return self.source[:close] + fragment + self.source[close:]


def load_readability(root, limit):
    pages = []
    base = os.path.join(root, "readability-testpages", "pages")
    for name in sorted(os.listdir(base)):
        d = os.path.join(base, name)
        try:
            page = ArticlePage(name, read_gz(os.path.join(d, "source.html.gz")),
                               read_gz(os.path.join(d, "expected.html.gz")))
        except OSError:
            continue
        if page.usable():
            pages.append(page)
    return pages[:limit] if limit else pages


def load_trafilatura(root, limit):
    base = os.path.join(root, "trafilatura-eval")
    with open(os.path.join(base, "evaldata.json"), encoding="utf-8") as f:
        evaldata = json.load(f)
    pages = []
    for url, entry in sorted(evaldata.items()):
        host = urlsplit(url).hostname
        if not host or host == "web.archive.org":
            continue
        for sub in ("eval", "cache"):
            path = os.path.join(base, sub, entry["file"] + ".gz")
            if os.path.exists(path):
                pages.append((url, read_gz(path)))
                break
        if limit and len(pages) >= limit:
            break
    return pages


# --- variants ------------------------------------------------------------

TRACKING = ["utm_source=newsletter", "utm_medium=email", "utm_campaign=autumn", "fbclid=IwAR3x",
            "gclid=EAIaIQ", "mc_cid=9f2a", "_ga=2.1.2.3"]


def url_variant(url, rng):
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = host
    choice = rng.randrange(5)
    if choice == 0:
        netloc = host.upper()
    elif choice == 1:
        netloc = host + (":443" if parts.scheme == "https" else ":80")
    query = parts.query
    extra = "&".join(rng.sample(TRACKING, rng.randint(1, 3)))
    query = (query + "&" + extra) if query else extra
    path = parts.path or "/"
    if rng.random() < 0.3:
        path = path.rstrip("/") + "/./" if not path.endswith("/") else path + "."
    if rng.random() < 0.3:
        path += ";jsessionid=" + "%08X" % rng.getrandbits(32)
    return urlunsplit((parts.scheme, netloc, path, query, "comments" if rng.random() < 0.3 else ""))


def mirror_url(url, rng):
    parts = urlsplit(url)
    host = parts.hostname or ""
    bare = host[4:] if host.startswith("www.") else host
    prefix = rng.choice(["m.", "amp.", "mobile.", "print."])
    return urlunsplit((parts.scheme, prefix + bare, parts.path, parts.query, ""))


HEADLINES = ["Ten things you missed this week", "Weather warning for the weekend",
             "Local team wins derby", "Prices rise again", "Interview: the new mayor",
             "Five recipes for autumn", "Traffic chaos on the ring road", "Opinion: why it matters"]


def boilerplate_block(rng, stamp):
    kind = rng.randrange(5)
    if kind == 0:
        items = "".join('<li><a href="/story/%d?sid=%x">%s</a></li>' % (
            rng.randrange(10**6), rng.getrandbits(40), rng.choice(HEADLINES)) for _ in range(5))
        return '<aside class="trending"><h3>Trending now</h3><ul>%s</ul></aside>' % items
    if kind == 1:
        return ('<div class="ad-slot" id="ad-%d"><a href="https://ads.example/c?id=%x">'
                '%s - %d%% off today only</a></div>' % (
                    rng.randrange(1000), rng.getrandbits(48), rng.choice(WORDS).title(),
                    rng.randrange(5, 70)))
    if kind == 2:
        return ('<div id="cookie-consent" class="cookie-banner">We use cookies to improve '
                'your experience. <a href="/privacy?v=%d">Settings</a></div>' % rng.randrange(99))
    if kind == 3:
        return '<div class="meta">Updated %s &middot; %d views &middot; %d shares</div>' % (
            stamp, rng.randrange(10**5), rng.randrange(10**4))
    return ('<div class="newsletter-signup"><p>Get the %s newsletter every %s morning.</p>'
            '<form><input name="email"><button>Sign up</button></form></div>' % (
                rng.choice(WORDS), rng.choice(["Monday", "Friday", "Sunday"])))


def with_noise(body, rng, when_ms):
    """Rotated boilerplate around the article: the article text is untouched."""
    stamp = "%d:%02d" % (rng.randrange(24), rng.randrange(60))
    head = "".join(boilerplate_block(rng, stamp) for _ in range(rng.randint(1, 3)))
    tail = "".join(boilerplate_block(rng, stamp) for _ in range(rng.randint(1, 2)))
    # Session tokens in links change on every fetch.
    body = re.sub(rb'href="(/[^"?#]*)"', lambda m: b'href="' + m.group(1) + b'?sid=' +
                  ("%x" % rng.getrandbits(32)).encode() + b'"', body, count=20)
    m = re.search(rb"<body[^>]*>", body, re.I)
    at = m.end() if m else 0
    body = body[:at] + head.encode() + body[at:]
    end = body.rfind(b"</body")
    end = end if end >= 0 else len(body)
    return body[:end] + tail.encode() + body[end:]


def small_edit(page, rng):
    paragraphs = list(page.paragraphs)
    i = rng.randrange(len(paragraphs))
    words = paragraphs[i].split(b" ")
    if rng.random() < 0.25 or len(words) < 8:
        paragraphs[-1] = paragraphs[-1] + b" (Updated with a correction.)"
    else:
        for _ in range(rng.randint(1, 3)):
            k = rng.randrange(len(words))
            if b"<" not in words[k] and b">" not in words[k]:
                words[k] = rng.choice(WORDS).encode()
        paragraphs[i] = b" ".join(words)
    return page.with_paragraphs(paragraphs)


NAMES = ["anna", "ben_k", "carla77", "dmitri", "eve", "farid", "gwen", "hiro"]
REMARKS = ["Great piece, thanks for writing it.", "I disagree with the second point.",
           "Does anyone have a source for this?", "This happened in my town too.",
           "Finally someone says it.", "Typo in the third paragraph."]


def comments_fragment(rng):
    items = "".join(
        '<div class="comment"><p class="comment-author">%s</p><p>%s</p></div>' % (
            rng.choice(NAMES), " ".join(rng.sample(REMARKS, rng.randint(1, 3))))
        for _ in range(rng.randint(2, 8)))
    return ('<section class="comments" id="comments"><h3>%d comments</h3>%s</section>' % (
        rng.randint(2, 90), items)).encode()


# --- the stream ------------------------------------------------------------

class Stream:
    def __init__(self, rng):
        self.rng = rng
        self.events = []

    def add(self, url, body, when_ms, expect, of, variant, status=200):
        event_id = "gen-%05d" % len(self.events)
        self.events.append({"event_id": event_id, "url": url, "fetched_at": when_ms,
                            "status": status, "body": body,
                            "label": {"expect": expect, "of": of, "variant": variant}})
        return event_id

    def encoded(self):
        for e in sorted(self.events, key=lambda e: (e["fetched_at"], e["event_id"])):
            out = {k: v for k, v in e.items() if k != "body"}
            out["content_type"] = "text/html"
            try:
                out["body"] = e["body"].decode("utf-8")
            except UnicodeDecodeError:
                out["body_base64"] = base64.b64encode(e["body"]).decode("ascii")
            yield json.dumps(out, ensure_ascii=False)


def article_cluster(stream, page, others, site, t, rng, args):
    section = "https://%s/%s/" % (site, rng.choice(["news", "articles", "2026/11"]))
    url = section + page.name
    original = stream.add(url, page.source, t, "unique", None, "original")
    later = lambda: t + rng.randint(1, 48) * HOUR // rng.randint(1, 4)
    if rng.random() < args.p_variant:
        stream.add(url_variant(url, rng), page.source, later(), "duplicate", original,
                   "url_variant")
    if rng.random() < args.p_variant:
        stream.add(url + "?page=1&sid=%x" % rng.getrandbits(32) if rng.random() < 0.5 else
                   mirror_url(url, rng), with_noise(page.source, rng, t), later(), "duplicate",
                   original, "noise")
    if rng.random() < args.p_variant:
        stream.add(mirror_url(url, rng), page.source, later(), "duplicate", original, "mirror")
    if rng.random() < args.p_variant:
        stream.add(section + page.name + "-updated", small_edit(page, rng), later(),
                   "duplicate", original, "small_edit")
    if rng.random() < args.p_variant:
        stream.add(url + "#comments", page.insert_after_article(comments_fragment(rng)), later(),
                   "duplicate", original, "comments")
    if rng.random() < args.p_negative:
        other = rng.choice(others)
        stream.add(section + other.name, page.with_paragraphs(other.paragraphs),
                   later(), "unique", None, "same_template")
    if rng.random() < args.p_negative / 2:
        other = rng.choice(others)
        stream.add(url, page.with_paragraphs(other.paragraphs), later() + 49 * HOUR, "unique",
                   None, "changed_page")


def site_cluster(stream, url, body, t, rng, args):
    original = stream.add(url, body, t, "unique", None, "original")
    if rng.random() < args.p_variant:
        stream.add(url, body, t + rng.randint(1, 72) * HOUR, "duplicate", original, "refetch")
    if rng.random() < args.p_variant:
        stream.add(url_variant(url, rng), body, t + rng.randint(1, 600) * MINUTE, "duplicate",
                   original, "url_variant")
    if rng.random() < args.p_variant:
        stream.add(mirror_url(url, rng), with_noise(body, rng, t), t + rng.randint(1, 600) * MINUTE,
                   "duplicate", original, "noise")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=default_shared_dir(),
                    help="the shared extraction data folder (default: ../shared beside the repo)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--articles", type=int, default=0,
                    help="readability pages to build article clusters from (0: all usable)")
    ap.add_argument("--sites", type=int, default=300,
                    help="trafilatura pages to build site clusters from (0: all)")
    ap.add_argument("--p-variant", type=float, default=0.6,
                    help="probability of each duplicate variant per cluster")
    ap.add_argument("--p-negative", type=float, default=0.6,
                    help="probability of a same-template hard negative per article cluster")
    ap.add_argument("--output", "-o", default="-")
    args = ap.parse_args()

    if not os.path.isdir(args.data):
        sys.exit("crawlgen: no data at %s (the shared folder must sit beside the repo)" % args.data)
    rng = random.Random(args.seed)
    stream = Stream(rng)
    articles = load_readability(args.data, args.articles)
    for i, page in enumerate(articles):
        site = "www.%s.example" % re.sub(r"[^a-z0-9]+", "-", page.name.lower()).strip("-")
        others = [p for p in articles if p is not page]
        article_cluster(stream, page, others, site, T0_MS + i * 7 * MINUTE, rng, args)
    for i, (url, body) in enumerate(load_trafilatura(args.data, args.sites)):
        site_cluster(stream, url, body, T0_MS + i * 3 * MINUTE, rng, args)

    out = sys.stdout if args.output == "-" else open(args.output, "w", encoding="utf-8")
    n = 0
    for line in stream.encoded():
        out.write(line + "\n")
        n += 1
    if out is not sys.stdout:
        out.close()
    dups = sum(1 for e in stream.events if e["label"]["expect"] == "duplicate")
    print("crawlgen: %d events (%d labelled duplicates) from %d article pages" % (
        n, dups, len(articles)), file=sys.stderr)


if __name__ == "__main__":
    main()
