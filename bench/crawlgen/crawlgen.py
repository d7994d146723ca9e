#!/usr/bin/env python3
"""Builds realistic, labelled crawl streams from real HTML pages.

Each event is a fetched-page event pagesieve reads (url, fetched_at, status,
content_type, body or body_base64, event_id) plus a "label" field that
pagesieve ignores and the scorer reads:

    "label": {"expect": "unique" | "duplicate", "of": <event_id>, "variant": <kind>,
              "site": <registered domain>, "host": <host>, ...}

"expect" is what scope.key = global should say when the original was seen
first; a duplicate whose original lies in another scope (a syndicated copy
on another site; a mirror on another host under scope host) is unique there,
which score.py --scope works out from "site" and "host". "site" is exact for
the generated *.example sites; for the real hosts of trafilatura pages it is
the host without www. and mirror prefixes, which is what an original and its
variants share. Some variants add facts: edits, words, blocks, jaccard3 (the
3-word-shingle Jaccard with the original), repeated_share.

A cluster starts with an original page; its variants are what a crawler meets
again and again, and the hard negatives are what must NOT be merged:

  duplicates   url_variant   same page, URL with tracking/session params, case, port, fragment
               refetch       same URL and page, fetched again later
               mirror        same page on another host of the same site (m., amp., print)
               noise         same article, rotated ads, trending lists, timestamps, counters,
                             cookie banners, session tokens in links, at the page's edges
               rerender      the page rendered again: ad slots between paragraphs, a share
                             bar with counts, "Updated 5 minutes ago", a cookie banner,
                             trending lists with view counts, the page's own short lists
                             (related, most read) in another order, and now and then a
                             module seen in one render only (an inline related list, a
                             "Read more:" link, a newsletter box); most modules carry class
                             names that say what they are, some do not ("inline-module")
               small_edit    one to three words of one paragraph changed, or a line appended
               word_edit     1-3 single-word edits (a word replaced by another of the article,
                             a typo fixed, a figure corrected, a word inserted or deleted)
                             spread over an article of --word-edit-min-words (400) words or
                             more (not CJK); same URL or ?rev=N
               comments      a comment thread added under the article
               syndication   the article inside ANOTHER site's template (another article
                             page, on another registered domain; that page's headline, lead
                             and bio swapped out), its own headline (case changed at times),
                             often a byline, and a credit line in one of ten phrasings ("This
                             article first appeared on ...", "Originally published by ...",
                             "Reprinted with permission from ...", "This story was produced by
                             ... and is republished here ..."); a second copy on a third site
                             one time in four. Only scope.key = global can find it.
  negatives    same_template another article in the same site's template
               changed_page  the same URL, later serving another article
               heavy_rewrite the same story retold, shorter: sentences dropped and regrouped,
                             clauses reordered, words replaced, adverbs added, as gently as
                             gets the 3-word-shingle Jaccard below 0.3 (asserted); English only
               follow_up     a new article whose background section repeats a run of about a
                             third of the original's text (repeated_share)
               shared_quote  a different article quoting one long paragraph of the original
               template_page 2-4 near-empty pages of one site, status 200, in its template: a
                             tag page, a search without results, a soft 404, an empty archive
                             month, an author without articles, an expired story, a paywall
               forum_page    2-4 thread pages of a forum on one site (forum.<site>): short
                             posts in vBulletin-style tables next to a big sidebar of forum
                             rules, statistics and latest threads, the same on every page, so
                             an extractor can take the sidebar for the article (a Common Crawl
                             case: two threads of one forum came out as exact duplicates)
               (and every original, which is unique)

The hard negatives' "other article" text is new to the stream: a patchwork
of real sentences, one or two from each of many articles of the same
language (SentencePool), since a whole other article would be a copy of that
article under scope.key = global. New pages in a site's template replace
the element that holds the article (and its headline, when close); the
title, og:title and the headline become the new page's.

Sources (read from ../shared, never copied): readability-testpages (the
article's paragraphs are known, so edits, comments and template swaps touch
the article itself; pages that repeat an earlier page's article are left
out) and trafilatura-eval (real pages of ~1,000 sites).

Deterministic for a given --seed. The variants added for issue 20
(rerender, word_edit, syndication, and heavy_rewrite to forum_page) draw from
a random generator of their own, so their --p-* flags (--classic: all 0)
leave the other variants' draws (which exist, their URLs and times) alone.
Python standard library only.
"""

import argparse
import base64
import codecs
import collections
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
# Tags and the raw-text elements and comments whose insides are not markup.
MARKUP_RE = re.compile(rb"<!--.*?-->|<(script|style|noscript|textarea|template)\b[^>]*>.*?</\1\s*>"
                       rb"|<(/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>", re.S | re.I)
# Elements tracked when looking for the article's container.
TRACKED = {b"div", b"article", b"section", b"main", b"body", b"td", b"blockquote", b"form",
           b"center", b"figure", b"header", b"footer", b"aside", b"nav", b"table", b"ul", b"ol",
           b"li", b"tr", b"tbody", b"span"}
CONTAINERS = {b"div", b"article", b"section", b"main", b"body", b"td", b"blockquote", b"center",
              b"form"}
RAWTEXT_RE = re.compile(rb"<(script|style)\b.*?</\1\s*>", re.S | re.I)
TEXT_RUN_RE = re.compile(rb">([^<>]{30,})<")
H1_RE = re.compile(rb"(<h1\b[^>]*>)(.*?)(</h1\s*>)", re.S | re.I)
TITLE_RE = re.compile(rb"(<title\b[^>]*>)(.*?)(</title\s*>)", re.S | re.I)
META_TITLE_RES = [
    re.compile(rb"""(<meta\b[^>]*?(?:property|name)\s*=\s*["'](?:og|twitter):title["'][^>]*?"""
               rb"""content\s*=\s*")([^"]*)(")""", re.I),
    re.compile(rb"""(<meta\b[^>]*?content\s*=\s*")([^"]*)("[^>]*?(?:property|name)\s*=\s*"""
               rb"""["'](?:og|twitter):title["'])""", re.I),
]
# Tokens as pagesieve counts them, roughly: letter/digit runs, and each
# character of the scripts written without spaces on its own.
CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
TOKEN_RE = re.compile(r"[%s]|[^\W%s]+" % (CJK, CJK))
CJK_RE = re.compile(r"[%s]" % CJK)
SENTENCE_RE = re.compile(r"(?<=[.!?。！？])\s*(?=[\"'“‘(\[A-Z0-9\u00c0-\u024f%s])" % CJK)
STOPWORDS = {
    "en": set("the of and to a in is that for it was on with as by at from this be are have an "
              "not but or which his her they he she we you has had were their".split()),
    "es": set("de la que el en y a los se del las un por con no una su para es al lo "
              "como".split()),
    "fr": set("de la le et les des en un une du est que qui dans pour pas par sur au il "
              "ce".split()),
    "de": set("der die und in den von zu das mit sich des auf für ist im dem nicht ein "
              "eine".split()),
}


def text_of(fragment):
    return " ".join(html.unescape(TAG_RE.sub(" ", fragment)).split())


def tokens(text):
    return [t.lower() for t in TOKEN_RE.findall(text)]


def shingles(text, k=3):
    t = tokens(text)
    return {tuple(t[i:i + k]) for i in range(max(len(t) - k + 1, 1))} if t else set()


def jaccard(a, b):
    return len(a & b) / len(a | b) if a or b else 1.0


def esc(text):
    return html.escape(text, quote=False).encode("utf-8")


def page_charset(src):
    """The charset a page declares (<meta charset>, or http-equiv), as a
    Python codec; UTF-8 when it declares none or one Python does not know."""
    m = re.search(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_.:-]+)""", src[:8192], re.I)
    name = m.group(1).decode("ascii").lower() if m else "utf-8"
    name = {"gb2312": "gbk", "utf": "utf-8", "iso-8859-1": "cp1252", "latin1": "cp1252"}.get(
        name, name)
    try:
        return codecs.lookup(name).name
    except LookupError:
        return "utf-8"


def smallest(found, lo, hi):
    """The smallest container element whose inside holds [lo, hi)."""
    best = None
    for t, _, i, e, _ in found:
        if t in CONTAINERS and i <= lo and e >= hi and (best is None or e - i < best[2] - best[1]):
            best = (t, i, e)
    return best


def elements(src):
    """(tag, start, inner_start, inner_end, end) of the tracked elements, by
    matching end tags to the innermost open element of their name; good
    enough on real pages to find the element that holds the article."""
    stack, out = [], []
    for m in MARKUP_RE.finditer(src):
        tag = m.group(3)
        if tag is None:
            continue
        tag = tag.lower()
        if tag not in TRACKED:
            continue
        if m.group(2):
            for k in range(len(stack) - 1, -1, -1):
                if stack[k][0] == tag:
                    while len(stack) > k:
                        t, s, i = stack.pop()
                        out.append((t, s, i, m.start(), m.end()))
                    break
        elif not m.group(0).endswith(b"/>"):
            stack.append((tag, m.start(), m.end()))
    for t, s, i in stack:
        out.append((t, s, i, len(src), len(src)))
    return out


class ArticlePage:
    """A real page whose article paragraphs are located in its raw HTML."""

    def __init__(self, name, source, expected_html, meta=None):
        self.name = name
        self.source = source
        self.meta = meta or {}
        self.charset = page_charset(source)
        expected_text = text_of(expected_html.decode("utf-8", "replace"))
        self.article_spans = []  # (start, end) of <p> inner HTML in source
        for m in P_RE.finditer(source):
            inner = text_of(self.decode(m.group(2)))
            if len(inner) >= 40 and inner[:60] in expected_text:
                self.article_spans.append((m.start(2), m.end(2)))
        self.paragraphs = [self.source[s:e] for s, e in self.article_spans]
        self.texts = [text_of(self.decode(p)) for p in self.paragraphs]
        self.text = "\n".join(self.texts)
        self.words = len(tokens(self.text))
        self.cjk = len(CJK_RE.findall(self.text)) > self.words / 2
        self.lang = self._lang()
        self.title = " ".join((self.meta.get("title") or self.name).split())
        self.site_name = (self.meta.get("siteName") or "").strip()
        # body: the smallest element around the article's paragraphs, as
        # (tag, inner_start, inner_end). container: what a new page in this
        # template replaces; the smallest element around the headline too
        # (so that the old lead, byline and captions go with it) when that
        # is not much larger, else body. headline_inside says which.
        self.body = self.container = None
        self.headline_inside = False
        if self.usable():
            lo, hi = self.article_spans[0][0], self.article_spans[-1][1]
            found = elements(source)
            self.body = smallest(found, lo, hi)
            self.container = self.body
            h1s = list(H1_RE.finditer(source, max(0, lo - 60000), lo))
            if h1s and self.body and self.body[0] != b"body":
                wider = smallest(found, h1s[-1].start(), hi)
                size = lambda c: c[2] - c[1]
                if wider and wider[0] != b"body" and size(wider) <= 1.5 * size(self.body) + 20000:
                    self.container, self.headline_inside = wider, True
        # Bits of this page's own article outside the container (a caption
        # above the headline, the author's bio below): text that Readability
        # kept as the article. A new page in this template leaves them out.
        self.leftovers = []
        if self.container:
            raw = [(m.start(), m.end()) for m in RAWTEXT_RE.finditer(source)]
            _, cs, ce = self.container
            for m in TEXT_RUN_RE.finditer(source):
                if cs <= m.start() < ce or any(a <= m.start() < b for a, b in raw):
                    continue
                t = text_of(self.decode(m.group(1)))
                if len(t) >= 30 and t[:50] in expected_text:
                    self.leftovers.append((m.start(1), m.end(1)))

    def decode(self, raw):
        return raw.decode(self.charset, "replace")

    def enc(self, utf8):
        """UTF-8 bytes made for this page, in its charset."""
        if self.charset == "utf-8":
            return utf8
        return utf8.decode("utf-8", "replace").encode(self.charset, "xmlcharrefreplace")

    def _lang(self):
        lang = (self.meta.get("lang") or "").lower()[:2]
        if lang:
            return lang
        if self.cjk:
            return "zh"
        t = tokens(self.text)
        for lang, stop in STOPWORDS.items():
            if t and sum(w in stop for w in t) >= 0.12 * len(t):
                return lang
        return "xx"

    def usable(self):
        return len(self.article_spans) >= 3

    def has_chrome(self):
        """A template worth reusing: the article sits in an element smaller
        than the body, with at least a few KB of site around it."""
        if self.container is None or self.container[0] == b"body":
            return False
        return len(self.source) - (self.container[2] - self.container[1]) >= 3000

    def article_html(self):
        """The article as another site would carry it (UTF-8): the element
        holding its paragraphs, or just the paragraphs when that element
        holds much more."""
        lo, hi = self.article_spans[0][0], self.article_spans[-1][1]
        raw = b"".join(b"<p>" + p + b"</p>\n" for p in self.paragraphs)
        if self.body and self.body[0] != b"body":
            _, s, e = self.body
            if e - s <= 2.5 * (hi - lo) + 4000:
                raw = self.source[s:e]
        return raw if self.charset == "utf-8" else self.decode(raw).encode("utf-8")

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

    def with_main(self, fragment, title, site_suffix=None):
        """This page's template (header, navigation, sidebars, footer) with
        the element holding the article replaced by `fragment` (UTF-8), and
        the headline, <title> and og:/twitter:title set to `title`."""
        _, s, e = self.container
        head, tail = self.cut(0, s), self.cut(e, len(self.source))
        t = self.enc(esc(title))
        h1s = [] if self.headline_inside else list(H1_RE.finditer(head, max(0, s - 30000)))
        fragment = self.enc(fragment)
        if h1s:  # the headline just above the article
            m = h1s[-1]
            head = head[:m.start(2)] + t + head[m.end(2):]
        else:
            fragment = b"<h1>" + t + b"</h1>\n" + fragment
        out = head + fragment + tail
        full = t + (b" | " + self.enc(esc(site_suffix)) if site_suffix else b"")
        out = TITLE_RE.sub(lambda m: m.group(1) + full + m.group(3), out, count=1)
        quoted = self.enc(html.escape(title).encode("utf-8"))
        for r in META_TITLE_RES:
            out = r.sub(lambda m: m.group(1) + quoted + m.group(3), out)
        return out

    def cut(self, start, end):
        """source[start:end] without the leftovers of this page's article."""
        out, at = [], start
        for a, b in self.leftovers:
            if start <= a and b <= end:
                out.append(self.source[at:a])
                at = b
        out.append(self.source[at:end])
        return b"".join(out)

    def insert_after_article(self, fragment):
        end = self.article_spans[-1][1]
        close = self.source.find(b">", end) + 1  # past the closing </p>
        return self.source[:close] + fragment + self.source[close:]


def load_readability(root, limit):
    """The usable readability pages, without pages whose article repeats an
    earlier page's (the suite has several copies of one test text, and two
    captures of one Lifehacker article): under scope.key = global those are
    true duplicates of each other, which the labels could not say."""
    pages, kept = [], []
    base = os.path.join(root, "readability-testpages", "pages")
    for name in sorted(os.listdir(base)):
        d = os.path.join(base, name)
        try:
            meta = {}
            if os.path.exists(os.path.join(d, "expected-metadata.json")):
                with open(os.path.join(d, "expected-metadata.json"), encoding="utf-8") as f:
                    meta = json.load(f)
            page = ArticlePage(name, read_gz(os.path.join(d, "source.html.gz")),
                               read_gz(os.path.join(d, "expected.html.gz")), meta)
        except OSError:
            continue
        if not page.usable():
            continue
        sh = shingles(page.text)
        if any(len(sh & k) > 0.5 * min(len(sh), len(k)) for k in kept):
            continue
        kept.append(sh)
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


# --- new text for the hard negatives ---------------------------------------

def split_sentences(text):
    return [s.strip() for s in SENTENCE_RE.split(text) if s.strip()]


class SentencePool:
    """Real sentences of every article, by language. A hard negative's "other
    article" is a patchwork of them, one or two from each of many articles,
    so it is new text: no page of the stream holds more than a sliver of it,
    in any scope (a whole other article would be a copy of that article
    under scope.key = global)."""

    def __init__(self, pages):
        self.by_lang = collections.defaultdict(list)
        for page in pages:
            for para in page.texts:
                for sent in split_sentences(para):
                    n = len(tokens(sent))
                    if 6 <= n <= 60:
                        self.by_lang[page.lang].append((page.name, sent, n))

    def paragraphs(self, rng, lang, words, exclude):
        pool = [x for x in self.by_lang.get(lang, []) if x[0] != exclude]
        if len(pool) < 40:
            pool = [x for x in self.by_lang["en"] if x[0] != exclude] or pool
        out, para, total, used, taken = [], [], 0, collections.Counter(), set()
        cap = 2  # sentences per source article, raised only when a small pool runs out
        while total < words:
            free = [k for k, x in enumerate(pool) if used[x[0]] < cap and k not in taken]
            if not free:
                if len(taken) == len(pool):
                    break
                cap += 1
                continue
            k = rng.choice(free)
            name, sent, n = pool[k]
            taken.add(k)
            used[name] += 1
            para.append(sent)
            total += n
            if len(para) >= rng.randint(2, 4):
                out.append(" ".join(para))
                para = []
        if para:
            out.append(" ".join(para))
        return out

    def headline(self, rng, lang, exclude):
        words = (self.paragraphs(rng, lang, 1, exclude) or ["News"])[0].split()
        cut = words[:rng.randint(5, 10)]
        return " ".join(cut).rstrip(",;:.") if cut else "News"


def p_html(paragraphs):
    return b"".join(b"<p>" + esc(t) + b"</p>\n" for t in paragraphs)


# --- syndication -------------------------------------------------------------

CREDITS = [
    "This article first appeared on {link}.",
    "This article first appeared on {link} and is reproduced here with permission.",
    "Originally published by {link}.",
    "Originally published by {link}. Republished with permission.",
    "Reprinted with permission from {link}. Copyright {year} {site}.",
    "This story was produced by {link} and is republished here under a Creative Commons license.",
    "This story was produced by {link} and is republished here with permission.",
    "This article is republished from {link}. Read the original article.",
    "{author} writes for {link}, where a version of this story was first published.",
    "A version of this article was originally published on {link}.",
]


def headline_case(title, rng):
    k = rng.randrange(4)
    if k == 0:
        return title
    if k == 1:
        return " ".join(w[:1].upper() + w[1:] for w in title.split())
    if k == 2:
        return title[:1].upper() + title[1:].lower()
    return title.upper() if len(title) < 70 else title


def syndication(page, host, orig_url, rng):
    """`page`'s article inside `host`'s template, with a credit line."""
    site = page.site_name or urlsplit(orig_url).hostname
    author = " ".join((page.meta.get("byline") or "").split()) or "Staff"
    author = re.sub(r"^(by|par|por)\s+", "", author, flags=re.I)[:60]
    link = '<a href="%s">%s</a>' % (html.escape(orig_url), html.escape(site))
    credit = rng.choice(CREDITS).format(link=link, site=html.escape(site), year=2026,
                                        author=html.escape(author))
    credit = ('<p class="%s"><em>%s</em></p>\n' % (
        rng.choice(["credit", "syndication-note", "republish", "source-note", "editor-note"]),
        credit)).encode("utf-8")
    byline = b""
    if rng.random() < 0.7:
        byline = ('<p class="byline">By %s, %s</p>\n' % (
            html.escape(author), html.escape(site))).encode("utf-8")
    top = rng.random() < 0.5
    fragment = byline + (credit if top else b"") + page.article_html() + (b"" if top else credit)
    suffix = host.site_name or None
    return host.with_main(fragment, headline_case(page.title, rng), suffix), credit


# --- word edits in long articles -----------------------------------------------

SEG_RE = re.compile(r"(<[^>]*>)")
WORD_RE = re.compile(r"[^\W\d_]{2,}|\d+")


def word_edit(page, rng):
    """1-3 single-word edits (a word replaced by another of the article, a
    typo fixed, a figure corrected, a word inserted or deleted) spread over a
    long article; tags and attributes are never touched."""
    paras = [p.decode("utf-8", "surrogateescape") for p in page.paragraphs]
    vocab = sorted({w for t in page.texts for w in WORD_RE.findall(t) if len(w) >= 3})
    short = sorted({w for t in page.texts for w in WORD_RE.findall(t) if 2 <= len(w) <= 4})
    weights = [max(len(t.split()), 1) for t in page.texts]
    n = rng.randint(1, 3)
    done, kinds, tries = set(), [], 0
    while len(kinds) < n and tries < 50:
        tries += 1
        i = rng.choices(range(len(paras)), weights)[0]
        segs = SEG_RE.split(paras[i])
        spots = [(j, m) for j in range(0, len(segs), 2) for m in WORD_RE.finditer(segs[j])]
        if not spots:
            continue
        j, m = rng.choice(spots)
        if (i, j, m.start()) in done:
            continue
        w = m.group(0)
        kind = rng.choice(["replace", "replace", "typo", "number", "insert", "delete"])
        if kind == "number" or w.isdigit():
            if not w.isdigit():
                kind = "replace"
            else:
                k = rng.randrange(len(w))
                new = w[:k] + str((int(w[k]) + rng.randint(1, 9)) % 10) + w[k + 1:]
                new = new if not new.startswith("0") or len(new) == 1 else "1" + new[1:]
        if kind == "typo":
            if len(w) < 5:
                kind = "replace"
            else:
                k = rng.randrange(1, len(w) - 2)
                new = w[:k] + w[k + 1] + w[k] + w[k + 2:]
        if kind == "replace":
            new = rng.choice(vocab)
            if new.lower() == w.lower():
                continue
            if w[:1].isupper():
                new = new[:1].upper() + new[1:]
        if kind == "insert":
            new = w + " " + rng.choice(short)
        if kind == "delete":
            new = ""
        seg = segs[j]
        end = m.end()
        if kind == "delete" and end < len(seg) and seg[end] == " ":
            end += 1
        segs[j] = seg[:m.start()] + new + seg[end:]
        paras[i] = "".join(segs)
        done.add((i, j, m.start()))
        kinds.append(kind)
    return page.with_paragraphs([p.encode("utf-8", "surrogateescape") for p in paras]), kinds


# --- re-rendered templates ------------------------------------------------------

AD_BRANDS = ["Northwind", "Contoso", "Fabrikam", "Tailspin", "Litware", "Adventure Works",
             "Wingtip", "Proseware", "Lucerne", "Margie's Travel"]
COOKIE_TEXTS = [
    "We use cookies to improve your experience. By continuing to browse you agree to our use "
    "of cookies.",
    "This site uses cookies and similar technologies to personalise content and ads and to "
    "analyse our traffic.",
    "We and our partners store and access information on your device, such as cookies, for "
    "personalised ads and content, ad and content measurement and audience insights.",
    "Cookies help us deliver our services. You can change your preferences at any time.",
]


def class_of(rng, telling, neutral):
    """A class name for a block: most sites name their modules for what
    they are ("newsletter-signup"), some do not ("inline-module")."""
    return rng.choice(telling if rng.random() < 0.85 else neutral)


def rerender_blocks(rng, titles, site):
    """Blocks a re-rendered page may carry: each kind has class names that
    say what it is and others that do not (an "inline-module" of related
    links is as common as a "related-articles" one)."""
    def related():
        items = "".join('<li><a href="/story/%d">%s</a></li>' % (rng.randrange(10**6),
                                                                  html.escape(t))
                        for t in rng.sample(titles, min(len(titles), rng.randint(3, 5))))
        return '<div class="%s"><h3>%s</h3><ul>%s</ul></div>' % (
            class_of(rng, ["related-articles", "more-stories", "related-links"],
                     ["inline-module", "story-package", "c-box"]),
            rng.choice(["Related", "More from %s" % html.escape(site), "You may also like",
                        "Most read", "Recommended"]), items)

    def read_more():
        return '<p class="%s"><strong>%s</strong> <a href="/story/%d">%s</a></p>' % (
            class_of(rng, ["read-more", "related-link"], ["inline-link", "p-link"]),
            rng.choice(["Read more:", "Related:", "See also:", "READ MORE:"]),
            rng.randrange(10**6), html.escape(rng.choice(titles)))

    def ad():
        return ('<div class="%s"><span>Advertisement</span><a href="https://ads.example/c?id=%x">'
                '%s: %s - %d%% off this week</a></div>' % (
                    class_of(rng, ["ad-slot", "advert", "ad-container", "sponsored-unit"],
                             ["dfp-container", "gpt-unit"]),
                    rng.getrandbits(48), rng.choice(AD_BRANDS), rng.choice(WORDS),
                    rng.randrange(5, 70)))

    def newsletter():
        return ('<div class="%s"><p>Sign up for the %s newsletter: the day\'s top stories, '
                'every %s morning.</p><form><input name="email" placeholder="Email address">'
                '<button>Subscribe</button></form></div>' % (
                    class_of(rng, ["newsletter-signup", "newsletter-promo", "newsletter"],
                             ["inline-signup", "email-capture", "nl-box"]),
                    html.escape(site), rng.choice(["weekday", "Saturday", "Sunday"])))

    def share():
        return ('<div class="%s"><a href="#">Facebook %s</a> <a href="#">Twitter %d</a> '
                '<a href="#">Email</a> <span>%s shares</span></div>' % (
                    class_of(rng, ["share-bar", "social-share", "sharing"],
                             ["article-tools", "toolbar"]),
                    rng.choice(["%.1fk" % (rng.randrange(10, 990) / 10), str(rng.randrange(999))]),
                    rng.randrange(2000), "{:,}".format(rng.randrange(10**5))))

    def timestamp():
        return '<div class="%s">%s</div>' % (
            class_of(rng, ["timestamp", "dateline", "article-date"], ["meta", "byline-time"]),
            rng.choice(["Updated %d minutes ago" % rng.randint(2, 59),
                        "Last updated %d:%02d" % (rng.randrange(24), rng.randrange(60)),
                        "Published %d hours ago" % rng.randint(1, 23),
                        "Updated %s, %d:%02d %s" % (
                            rng.choice(["Nov. 20", "November 21, 2026", "21 Nov 2026"]),
                            rng.randint(1, 12), rng.randrange(60), rng.choice(["am", "pm"]))]))

    def cookie():
        return ('<div id="%s" class="consent"><p>%s</p><a href="/privacy">Manage settings</a> '
                '<button>Accept all</button></div>' % (
                    class_of(rng, ["cookie-banner", "cookie-consent"],
                             ["cmp-container", "gdpr", "onetrust-banner"]),
                    rng.choice(COOKIE_TEXTS)))

    def trending():
        items = "".join("<li><a href=\"/story/%d\">%s</a> <span>%s views</span></li>" % (
            rng.randrange(10**6), html.escape(t), "{:,}".format(rng.randrange(10**6)))
            for t in rng.sample(titles, min(5, len(titles))))
        return '<aside class="%s"><h3>Trending</h3><ol>%s</ol></aside>' % (
            class_of(rng, ["trending", "most-read", "popular-widget"], ["widget", "rail"]), items)

    return {"related": related, "read_more": read_more, "ad": ad, "newsletter": newsletter,
            "share": share, "timestamp": timestamp, "cookie": cookie, "trending": trending}


RERENDER_ODDS = [("ad", 0.8), ("share", 0.6), ("timestamp", 0.6), ("cookie", 0.5),
                 ("trending", 0.4), ("related", 0.3), ("read_more", 0.2), ("newsletter", 0.2)]
LIST_RE = re.compile(rb"<(ul|ol)\b[^>]*>((?:(?!<(?:ul|ol)\b).)*?)</\1\s*>", re.S | re.I)


def shuffle_lists(src, rng, skip, limit=4):
    """Shuffles the items of a few short lists outside `skip` (the article):
    related and most-read lists come in another order on every render. The
    length does not change, so offsets into the page stay valid."""
    out, n = bytearray(src), 0
    for m in LIST_RE.finditer(src):
        if skip[0] <= m.start() < skip[1] or n >= limit:
            continue
        inner_start = m.start(2)
        if re.search(rb"<script|<!--", m.group(2), re.I):
            continue  # "<li" inside a script's strings is no list item
        parts = re.split(rb"(?=<li\b)", m.group(2), flags=re.I)
        items = parts[1:]
        if not 3 <= len(items) <= 12:
            continue
        rng.shuffle(items)
        new = parts[0] + b"".join(items)
        out[inner_start:inner_start + len(new)] = new
        n += 1
    return bytes(out), n


def rerender(page, rng, titles, site):
    """The page rendered again: other ads, a cookie banner, newsletter
    boxes, share bars with counts, timestamps, related lists in another
    order and new related links between the article's paragraphs. The
    article's own text is untouched."""
    blocks = rerender_blocks(rng, titles, site)
    container = page.container[1:] if page.container else (0, 0)
    src, shuffled = shuffle_lists(page.source, rng, container)
    # How often each kind changes between two renders of one page: ad slots
    # most, an inline newsletter box (an A/B test) least.
    kinds = [k for k, p in RERENDER_ODDS if rng.random() < p]
    while len(kinds) < 2:
        kinds = sorted(set(kinds) | {rng.choice(["ad", "share", "timestamp", "cookie"])})
    spans = page.article_spans
    closes = [src.find(b">", e) + 1 for _, e in spans]
    first_p = src.rfind(b"<p", 0, spans[0][0])
    inserts = []
    for kind in kinds:
        block = page.enc(blocks[kind]().encode("utf-8"))
        if kind == "cookie":
            m = re.search(rb"<body[^>]*>", src, re.I)
            inserts.append((m.end() if m else 0, block))
        elif kind == "trending":
            end = src.rfind(b"</body")
            inserts.append((end if end >= 0 else len(src), block))
        elif kind in ("share", "timestamp"):
            inserts.append((first_p, block))
            if kind == "share" and rng.random() < 0.5:
                inserts.append((closes[-1], page.enc(blocks["share"]().encode("utf-8"))))
        elif kind == "ad":
            step = rng.randint(3, 5)
            for k in range(step - 1, len(closes) - 1, step):
                inserts.append((closes[k], page.enc(blocks["ad"]().encode("utf-8"))))
        elif kind == "related" and rng.random() < 0.6:  # below the article
            inserts.append((closes[-1], block))
        else:  # related, read_more, newsletter: between paragraphs
            inserts.append((closes[rng.randrange(len(closes) - 1)], block))
    for at, block in sorted(inserts, key=lambda x: -x[0]):
        src = src[:at] + block + src[at:]
    return src, sorted(kinds) + (["shuffled_lists"] if shuffled else [])


# --- hard negatives -------------------------------------------------------------

SYNONYMS = {
    "said": "stated", "says": "states", "told": "informed", "about": "around",
    "also": "additionally", "because": "since", "however": "but", "many": "numerous",
    "big": "large", "new": "fresh", "after": "following", "before": "prior to",
    "help": "assist", "show": "reveal", "shows": "reveals", "use": "employ", "used": "employed",
    "start": "begin", "started": "began", "buy": "purchase", "get": "obtain", "got": "obtained",
    "need": "require", "needs": "requires", "make": "create", "made": "created",
    "think": "believe", "important": "significant", "very": "highly", "often": "frequently",
    "now": "currently", "company": "firm", "people": "individuals", "job": "role",
    "like": "such as", "but": "yet", "so": "thus", "more": "further",
    "most": "the majority of", "only": "just", "still": "nonetheless", "first": "initial",
    "last": "final", "small": "minor", "large": "sizeable", "week": "seven days",
    "year": "twelve months", "years": "decades", "good": "positive", "bad": "negative",
    "way": "manner", "ways": "methods", "problem": "issue", "problems": "issues",
    "change": "shift", "changes": "shifts", "find": "discover", "found": "discovered",
    "want": "wish", "wanted": "wished", "asked": "questioned", "according": "per",
    "while": "whereas", "although": "though", "around": "roughly", "enough": "sufficient",
    "try": "attempt", "tried": "attempted", "give": "provide", "gave": "provided",
    "keep": "retain", "allow": "permit", "allows": "permits", "build": "construct",
    "built": "constructed", "end": "conclusion", "ended": "concluded", "report": "account",
}
FILLERS = ["also", "now", "still", "reportedly", "largely", "notably", "indeed", "already",
           "then", "even"]
LEADS = ["Meanwhile,", "In addition,", "According to reports,", "Separately,", "At the same time,",
         "Notably,", "As a result,", "For now,", "In other words,", "Put simply,"]


def rewrite_sentence(sentence, rng, strength):
    parts = [p for p in sentence.rstrip(".!?").split(", ") if p]
    if len(parts) >= 2 and rng.random() < 0.5:  # move the first clause to the end
        parts = parts[1:] + parts[:1]
        parts[0] = parts[0][:1].upper() + parts[0][1:]
        parts[-1] = parts[-1][:1].lower() + parts[-1][1:] if not parts[-1][1:2].isupper() \
            else parts[-1]
    out = []
    for w in ", ".join(parts).split():
        core = w.strip(".,;:!?\"'()“”‘’")
        low = core.lower()
        if low in SYNONYMS and rng.random() < 0.85:
            rep = SYNONYMS[low]
            rep = rep[:1].upper() + rep[1:] if core[:1].isupper() else rep
            w = w.replace(core, rep, 1)
        out.append(w)
        if rng.random() < strength and not w.endswith((",", ";", ":")):
            out.append(rng.choice(FILLERS))
    text = " ".join(out)
    if rng.random() < 0.25:
        text = rng.choice(LEADS) + " " + text[:1].lower() + text[1:]
    return text + "."


REWRITE_STEPS = [(0.85, 0.0), (0.8, 0.04), (0.75, 0.06), (0.7, 0.08), (0.65, 0.1),
                 (0.6, 0.12), (0.55, 0.15), (0.5, 0.18), (0.5, 0.22), (0.45, 0.26),
                 (0.4, 0.3), (0.35, 0.35)]


def heavy_rewrite(page, rng):
    """The same story retold, shorter: some sentences dropped, the rest
    regrouped with neighbours swapped, clauses reordered, common words
    replaced and, only as far as needed, adverbs added; the gentlest step
    whose 3-word-shingle Jaccard with the original is below 0.3 is kept
    (checked here, and again by the caller). English articles only (the word
    lists are English)."""
    original = shingles(page.text)
    sentences = [s for t in page.texts for s in split_sentences(t)]
    for keep, filler in REWRITE_STEPS:
        r = random.Random(rng.random())
        kept = [s for s in sentences if r.random() < keep] or sentences[:3]
        for k in range(0, len(kept) - 1, 2):
            if r.random() < 0.5:
                kept[k], kept[k + 1] = kept[k + 1], kept[k]
        rewritten = [rewrite_sentence(s, r, filler) for s in kept]
        paragraphs, k = [], 0
        while k < len(rewritten):
            n = r.randint(2, 4)
            paragraphs.append(" ".join(rewritten[k:k + n]))
            k += n
        j = jaccard(original, shingles("\n".join(paragraphs)))
        if j < 0.3:
            return paragraphs, j
    raise AssertionError("crawlgen: could not rewrite %s below Jaccard 0.3" % page.name)


def follow_up(page, pool, rng):
    """A new article (new text) that repeats about a third of the original:
    a run of its paragraphs as background, after and before new paragraphs."""
    words = [len(tokens(t)) for t in page.texts]
    total = sum(words)
    start = rng.randrange(len(words))
    end, got = start, 0
    while got < total / 3 and end < len(words):
        got += words[end]
        end += 1
    while got < total / 3 * 0.8 and start > 0:
        start -= 1
        got += words[start]
    repeated = page.texts[start:end]
    new = pool.paragraphs(rng, page.lang, 2 * got, page.name)
    k = rng.randint(1, max(1, len(new) - 1))
    heading = rng.choice(["Background", "How we got here", "What happened before", ""])
    fragment = p_html(new[:k]) + (b"<h2>" + esc(heading) + b"</h2>\n" if heading else b"") + \
        p_html(repeated) + p_html(new[k:])
    text = "\n".join(new + repeated)
    share = len(tokens("\n".join(repeated))) / max(len(tokens(text)), 1)
    return fragment, share, jaccard(shingles(page.text), shingles(text))


def shared_quote(page, pool, rng):
    """A different article (new text) quoting one long paragraph of the
    original: two stories carrying the same statement."""
    long_ones = [t for t in page.texts if 40 <= len(tokens(t)) <= 200] or \
        [max(page.texts, key=len)]
    quote = rng.choice(long_ones)
    new = pool.paragraphs(rng, page.lang, max(250, int(page.words * rng.uniform(0.5, 1.2))),
                          page.name)
    k = rng.randint(1, max(1, len(new) - 1))
    if rng.random() < 0.5:
        q = b"<blockquote><p>" + esc(quote) + b"</p></blockquote>\n"
    else:
        q = b"<p>" + esc("\u201c" + quote + "\u201d") + b"</p>\n"
    text = "\n".join(new + [quote])
    return p_html(new[:k]) + q + p_html(new[k:]), jaccard(shingles(page.text), shingles(text))


TEMPLATE_KINDS = ["tag", "search", "not_found", "archive", "author", "gone", "subscribe"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]


def template_page(kind, rng, site):
    """(path, headline, fragment) of a near-empty page of a site's template:
    what a site serves, with status 200, for a tag or archive without posts,
    a search without results, a missing page, an expired story, an author
    without articles, a paywall. Most messages name the site, as real ones
    often do; some are the stock texts many sites share."""
    word = rng.choice(WORDS)
    s = html.escape(site)
    if kind == "tag":
        teaser = ""
        if rng.random() < 0.5:
            teaser = '<div class="teaser"><h2><a href="/story/%d">%s</a></h2></div>' % (
                rng.randrange(10**6), rng.choice(HEADLINES))
        return ("/tag/" + word, rng.choice(["Tag: %s", "Posts tagged \u201c%s\u201d",
                                            "Topic: %s"]) % word.title(),
                "<p>%s</p>%s" % (rng.choice([
                    "There are no more posts with this tag.", "No articles found.",
                    "%s has no other stories on this topic yet." % s,
                    "Showing %d result." % (1 if teaser else 0)]), teaser))
    if kind == "search":
        q = " ".join(rng.sample(WORDS, rng.randint(1, 2)))
        return ("/search?q=" + q.replace(" ", "+"), "Search results for \u201c%s\u201d" % q,
                "<p>%s</p><form action=\"/search\"><input name=\"q\" value=\"%s\">"
                "<button>Search</button></form>" % (rng.choice([
                    "Sorry, no results were found for your search. Please try again with "
                    "different keywords.",
                    "Your search of %s returned no results. Check the spelling or try "
                    "a broader term." % s]), q))
    if kind == "not_found":
        return ("/%s/%s-%d" % (rng.choice(["news", "2025/03", "articles"]), word,
                                rng.randrange(10**5)),
                rng.choice(["Page not found", "Oops! That page can\u2019t be found.",
                            "404 - Not found", "Sorry, we couldn\u2019t find that page"]),
                '<p>%s</p><ul><li><a href="/">Home</a></li><li><a href="/news">Latest news</a>'
                '</li><li><a href="/search">Search</a></li></ul>' % rng.choice([
                    "The page you requested could not be found. It may have been moved or "
                    "deleted.", "It looks like nothing was found at this location. Maybe try "
                    "a search?", "The page you were looking for is not on %s any more, or "
                    "the link you followed is broken." % s,
                    "We could not find that page on %s. Try the search or go back to the "
                    "front page." % s]))
    if kind == "archive":
        month = rng.choice(MONTHS)
        year = rng.choice([2019, 2021, 2024, 2026])
        return ("/archive/%d/%02d" % (year, MONTHS.index(month) + 1),
                "Archive: %s %d" % (month, year),
                "<p>%s</p>" % rng.choice(["No articles were published in this period.",
                                          "%s published no stories this month." % s]))
    if kind == "author":
        name = rng.choice(["Anna Berg", "Ben Kowalski", "Carla Ruiz", "Dmitri Ivanov",
                           "Eve Martin", "Farid Haddad"])
        return ("/author/" + name.lower().replace(" ", "-"), "Articles by " + name,
                "<p>%s has not published any articles on %s yet.</p>" % (name, s))
    if kind == "gone":
        return ("/news/%s-%d" % (word, rng.randrange(10**5)),
                "This article is no longer available",
                "<p>The story you are looking for has expired or has been removed from %s.</p>"
                % s)
    return ("/account/subscribe?next=/news/%d" % rng.randrange(10**5),
            "Subscribe to continue reading",
            "<p>%s</p><p><a href=\"/subscribe\">Subscribe now</a> or <a href=\"/login\">log "
            "in</a>.</p>" % rng.choice([
                "You have reached your limit of free articles this month.",
                "You have read all your free articles on %s this month." % s,
                "This story is for %s subscribers only." % s]))


COMMENTS_RE = re.compile(rb"""\b(?:class|id)\s*=\s*["'][^"']*\b(?:comments?|commentlist|"""
                         rb"""comment-list|disqus_thread|respond)\b""", re.I)


def without_comments(src):
    """The page without its comment threads: a tag or error page made from
    an article's template must not carry that article's comments."""
    cuts = []
    for t, start, inner, _, end in sorted(elements(src), key=lambda x: x[1]):
        if cuts and start < cuts[-1][1]:
            continue  # inside a thread already cut
        if t in (b"div", b"section", b"ol", b"ul", b"aside") and COMMENTS_RE.search(
                src, start, inner):
            cuts.append((start, end))
    for start, end in reversed(cuts):
        src = src[:start] + src[end:]
    return src


FORUM_NICKS = ["anna_b", "ben_k", "carla77", "dmitri", "eve", "farid", "gwen", "hiro", "ines",
               "jonas", "kai", "lena", "marco", "nadia", "oskar", "pia", "quentin", "rosa",
               "sven", "tomas", "ulla", "vic", "wren", "yusuf"]
FORUM_TITLES = ["Problem with the {w} after the update", "Anyone been to the {w} lately?",
                "[Help] {w} not working", "Best {w} for beginners?", "WTB: used {w}",
                "{W} question", "Is the {w} worth it?", "Photos from the {w} meetup",
                "Which {w} do you use?", "Weird noise from my {w}", "{W} prices this year",
                "Looking for a {w} near the {w2}"]
FORUM_POSTS = ["Same problem here.", "Thanks for sharing!", "Any update on this?",
               "Did you try restarting it?", "+1", "Bump.", "Works for me now.",
               "Which version are you on?", "I had this last week.", "Following.",
               "Cheers, that fixed it.", "Not sure, sorry.", "Check the settings page.",
               "See my post above.", "Good question.", "Mine arrived yesterday.",
               "Happened to me twice.", "Try the beta.", "Pics or it didn't happen :)",
               "Agreed.", "Nope, still broken.", "PM sent.", "Following this thread.",
               "Thanks, will try tonight.", "The {w} one?", "Ask at the {w}.",
               "Mine is from the {w} too.", "What about the {w}?", "Lol.", "Solved, thanks all."]
FORUM_RULES = [
    "Welcome to the {site} community forums, a place for readers to discuss our stories, ask "
    "questions, share tips and help each other out.",
    "Please be respectful to other members, stay on topic, and do not post personal "
    "information, spam, advertising or links to illegal content.",
    "Before starting a new thread, please use the search function, read the FAQ and check the "
    "pinned threads, because most common questions have already been answered there.",
    "Posts that break the rules may be edited or removed by moderators without notice, and "
    "repeated violations can lead to a temporary or permanent ban.",
    "If you see a post that breaks the rules, please use the report button rather than "
    "replying to it, so that a moderator can take a look.",
    "Registration is free, takes less than a minute, and lets you post, reply, send private "
    "messages, subscribe to threads and customise your profile.",
    "Our moderators are volunteers, so please be patient, and remember that the opinions "
    "expressed here are those of the members, not of {site}.",
    "Buying and selling is only allowed in the marketplace section, with prices, photos and "
    "your location, and all deals are at your own risk.",
]


class Forum:
    """A forum on one site: thread pages of short posts in a table layout
    (one table per post, vBulletin-style), next to a large sidebar of forum
    rules, statistics and latest threads that is the same on every page.
    The posts are short, so a main-text extractor can easily take the
    sidebar's prose for the article, on every page alike (the Common Crawl
    case of two forum threads that came out as exact duplicates)."""

    def __init__(self, page, site, rng):
        self.page, self.site, self.rng = page, site, rng
        name = page.site_name or site
        rules = rng.sample(FORUM_RULES, rng.randint(4, 6))
        paras = []
        for k in range(0, len(rules), 2):
            paras.append(" ".join(r.format(site=name) for r in rules[k:k + 2]))
        latest = "".join('<li><a href="/showthread.php?t=%d">%s</a></li>' % (
            rng.randrange(10**5), html.escape(self._title())) for _ in range(6))
        cls = rng.choice(["sidebar", "forum-sidebar", "col-right", "alt2", "block-right",
                          "rightcol"])
        self.sidebar = ('<div class="%s"><h3>About the %s forums</h3>%s'
                        '<h3>Forum statistics</h3><p>Threads: {:,} &middot; Posts: {:,} &middot; '
                        'Members: {:,}</p><h3>Latest threads</h3><ul>%s</ul></div>' % (
                            cls, html.escape(name), "".join("<p>%s</p>" % html.escape(p)
                                                            for p in paras), latest)).format(
            rng.randrange(10**3, 10**5), rng.randrange(10**5, 10**7), rng.randrange(10**3, 10**5))
        self.sidebar_first = rng.random() < 0.5

    def _title(self):
        w, w2 = self.rng.sample(WORDS, 2)
        return self.rng.choice(FORUM_TITLES).format(w=w, w2=w2, W=w.title())

    def thread(self):
        rng = self.rng
        title = self._title()
        tid = rng.randrange(10**4, 10**6)
        posts = []
        for k in range(rng.randint(3, 8)):
            pid = rng.randrange(10**6, 10**7)
            text = " ".join(p.format(w=rng.choice(WORDS))
                            for p in rng.sample(FORUM_POSTS, rng.randint(1, 2)))
            posts.append(
                '<table class="tborder" id="post%d" width="100%%"><tr><td class="thead">#%d '
                '&middot; %02d.%02d.2026, %02d:%02d</td><td class="thead" align="right">'
                '<a href="/showpost.php?p=%d">Permalink</a></td></tr><tr><td class="alt2" '
                'width="175"><a class="bigusername" href="/member.php?u=%d">%s</a>'
                '<div class="smallfont">%s</div><div class="smallfont">Join Date: %s %d<br>'
                'Posts: {:,}</div></td><td class="alt1" id="td_post_%d"><div '
                'id="post_message_%d">%s</div></td></tr><tr><td class="alt2">'
                '<a href="/report.php?p=%d">Report</a></td><td class="alt1" align="right">'
                '<a href="/newreply.php?do=newreply&amp;p=%d">Reply With Quote</a></td></tr>'
                '</table>'.format(rng.randrange(1, 9000)) % (
                    pid, k + 1, rng.randint(1, 28), rng.randint(1, 12), rng.randrange(24),
                    rng.randrange(60), pid, rng.randrange(10**5), rng.choice(FORUM_NICKS),
                    rng.choice(["Junior Member", "Member", "Senior Member", "Moderator"]),
                    rng.choice(MONTHS)[:3], rng.randint(2008, 2025), pid, pid,
                    html.escape(text), pid, pid))
        body = '<div id="posts"><h2 class="threadtitle">%s</h2>%s</div>' % (
            html.escape(title), "".join(posts))
        side = self.sidebar
        layout = ('<table class="forum-layout" width="100%%"><tr><td valign="top">%s</td>'
                  '<td valign="top" width="300">%s</td></tr></table>')
        fragment = layout % ((side, body) if self.sidebar_first else (body, side))
        url_path = "/showthread.php?t=%d" % tid
        return url_path, title, fragment.encode("utf-8")


# --- the stream ------------------------------------------------------------

MIRROR_PREFIXES = ("www.", "m.", "amp.", "mobile.", "print.", "forum.")


def site_of(host):
    """The registered domain, as far as the generator needs it: exact for
    the generated *.example sites; for the real hosts of trafilatura pages,
    the host without www. and mirror prefixes, which is what the original and
    every variant of one cluster have in common."""
    host = (host or "").lower().rstrip(".")
    if host.endswith(".example"):
        return ".".join(host.split(".")[-2:])
    stripped = True
    while stripped:
        stripped = False
        for prefix in MIRROR_PREFIXES:
            if host.startswith(prefix) and host.count(".") >= 2:
                host = host[len(prefix):]
                stripped = True
    return host


class Stream:
    def __init__(self, rng):
        self.rng = rng
        self.events = []

    def add(self, url, body, when_ms, expect, of, variant, status=200, **extra):
        event_id = "gen-%05d" % len(self.events)
        host = (urlsplit(url).hostname or "").rstrip(".")
        label = {"expect": expect, "of": of, "variant": variant, "site": site_of(host),
                 "host": host}
        label.update(extra)
        self.events.append({"event_id": event_id, "url": url, "fetched_at": when_ms,
                            "status": status, "body": body, "label": label})
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


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:70]


class Context:
    """What every article cluster draws from: the pages, their sites, their
    titles, and the sentence pool for new text."""

    def __init__(self, pages):
        self.pages = pages
        self.site = {p.name: "www.%s.example" % slug(p.name) for p in pages}
        self.titles = [p.title for p in pages if 3 <= len(p.title.split()) <= 16]
        self.pool = SentencePool(pages)


def new_article(page, fragment_paragraphs, title):
    """New text in the page's template: the article element replaced when
    it can be found, else only its paragraphs (the old same_template way)."""
    if page.has_chrome():
        return page.with_main(p_html(fragment_paragraphs), title)
    return page.with_paragraphs([page.enc(esc(t)) for t in fragment_paragraphs])


def article_cluster(stream, page, others, ctx, site, t, rng, nrng, args):
    # The classic variants draw from rng exactly as before, the new ones
    # from nrng, so turning new variants on or off leaves the others alone.
    section = "https://%s/%s/" % (site, rng.choice(["news", "articles", "2026/11"]))
    url = section + page.name
    original = stream.add(url, page.source, t, "unique", None, "original")
    later = lambda: t + rng.randint(1, 48) * HOUR // rng.randint(1, 4)
    nlater = lambda: t + nrng.randint(1, 48) * HOUR // nrng.randint(1, 4)
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
    # Another article in the same template, and the same URL later serving
    # another article: new text (SentencePool), as long as a real article.
    if rng.random() < args.p_negative:
        other = rng.choice(others)
        text = ctx.pool.paragraphs(nrng, page.lang, min(max(other.words, 150), 2500), page.name)
        stream.add(section + other.name, new_article(page, text, ctx.pool.headline(
            nrng, page.lang, page.name)), later(), "unique", None, "same_template")
    if rng.random() < args.p_negative / 2:
        other = rng.choice(others)
        text = ctx.pool.paragraphs(nrng, page.lang, min(max(other.words, 150), 2500), page.name)
        stream.add(url, new_article(page, text, ctx.pool.headline(nrng, page.lang, page.name)),
                   later() + 49 * HOUR, "unique", None, "changed_page")

    # --- issue 20: the missed cases ---
    hosts = [p for p in ctx.pages if p is not page and p.has_chrome()]
    copies = min(1 + (nrng.random() < 0.25), len(hosts))
    if nrng.random() < args.p_syndication:
        for host in nrng.sample(hosts, copies):
            body, credit = syndication(page, host, url, nrng)
            path = "/%s/%s" % (nrng.choice(["news", "syndication", "partners", "world",
                                            "2026/11"]), slug(page.title) or page.name)
            stream.add("https://" + ctx.site[host.name] + path, body, nlater(), "duplicate",
                       original, "syndication")
    if (not page.cjk and page.words >= args.word_edit_min_words
            and nrng.random() < args.p_word_edit):
        body, kinds = word_edit(page, nrng)
        stream.add(url if nrng.random() < 0.5 else url + "?rev=%d" % nrng.randint(2, 9), body,
                   nlater(), "duplicate", original, "word_edit", edits=kinds,
                   words=page.words)
    if nrng.random() < args.p_rerender:
        site_name = page.site_name or site[4:]
        body, kinds = rerender(page, nrng, [x for x in ctx.titles if x != page.title], site_name)
        k = nrng.random()
        where = url if k < 0.5 else mirror_url(url, nrng) if k < 0.75 else url_variant(url, nrng)
        stream.add(where, body, nlater(), "duplicate", original, "rerender", blocks=kinds)

    # --- issue 20: hard negatives ---
    if page.lang == "en" and page.words >= 150 and nrng.random() < args.p_heavy_rewrite:
        paragraphs, j = heavy_rewrite(page, nrng)
        assert j < 0.3, (page.name, j)
        title = nrng.choice(["Explainer: %s", "Analysis: %s", "%s: what we know",
                             "The story behind %s"]) % page.title
        stream.add(section + page.name + nrng.choice(["-explained", "-analysis", "-recap"]),
                   new_article(page, paragraphs, title), nlater(), "unique", None,
                   "heavy_rewrite", jaccard3=round(j, 4))
    if page.has_chrome() and nrng.random() < args.p_follow_up:
        fragment, share, j = follow_up(page, ctx.pool, nrng)
        title = nrng.choice(["%s: what happened next", "Update: %s", "%s, days on",
                             "Follow-up: %s"]) % page.title if page.lang == "en" else page.title
        # One to four days later: the stream stays within url.ttl (7 days), so
        # no verdict depends on how partitions interleave (docs/rekey.md).
        stream.add(section + page.name + nrng.choice(["-follow-up", "-update", "-days-on"]),
                   page.with_main(fragment, title), t + nrng.randint(24, 96) * HOUR, "unique",
                   None, "follow_up", repeated_share=round(share, 3), jaccard3=round(j, 3))
    if page.has_chrome() and nrng.random() < args.p_shared_quote:
        fragment, j = shared_quote(page, ctx.pool, nrng)
        title = ctx.pool.headline(nrng, page.lang, page.name)
        stream.add(section + (slug(title) or "story-%d" % nrng.randrange(10**5)),
                   page.with_main(fragment, title), nlater(), "unique", None, "shared_quote",
                   jaccard3=round(j, 3))
    if page.has_chrome() and nrng.random() < args.p_template:
        site_name = page.site_name or site[4:]
        # Different kinds: two pages of one kind (two archive months, two
        # missing pages) can have the same text once dates are masked.
        for kind in nrng.sample(TEMPLATE_KINDS, nrng.randint(2, 4)):
            path, title, fragment = template_page(kind, nrng, site_name)
            stream.add("https://" + site + path,
                       without_comments(page.with_main(fragment.encode("utf-8"), title,
                                                       site_name)),
                       t + nrng.randint(1, 96) * HOUR, "unique", None, "template_page")
    if page.has_chrome() and nrng.random() < args.p_forum:
        forum = Forum(page, site[4:], nrng)
        host = "forum." + site[4:]
        for _ in range(nrng.randint(2, 4)):
            path, title, fragment = forum.thread()
            stream.add("https://" + host + path,
                       without_comments(page.with_main(fragment, title, "Forums")),
                       t + nrng.randint(1, 96) * HOUR, "unique", None, "forum_page")


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


NEW_VARIANT_FLAGS = ["p_syndication", "p_word_edit", "p_rerender", "p_heavy_rewrite",
                     "p_follow_up", "p_shared_quote", "p_template", "p_forum"]


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
                    help="probability of each classic duplicate variant per cluster")
    ap.add_argument("--p-negative", type=float, default=0.6,
                    help="probability of a same-template hard negative per article cluster "
                         "(half of it for changed_page)")
    ap.add_argument("--p-syndication", type=float, default=0.6,
                    help="probability of a syndicated copy on another site (a second one: 1/4)")
    ap.add_argument("--p-word-edit", type=float, default=0.8,
                    help="probability of a 1-3 word edit, per article of --word-edit-min-words")
    ap.add_argument("--word-edit-min-words", type=int, default=400)
    ap.add_argument("--p-rerender", type=float, default=0.6,
                    help="probability of a re-rendered copy (ads, banners, share bars, lists)")
    ap.add_argument("--p-heavy-rewrite", type=float, default=0.4,
                    help="probability of a heavy rewrite (English articles)")
    ap.add_argument("--p-follow-up", type=float, default=0.4,
                    help="probability of a follow-up repeating a third of the article")
    ap.add_argument("--p-shared-quote", type=float, default=0.4,
                    help="probability of another article quoting one long paragraph")
    ap.add_argument("--p-template", type=float, default=0.3,
                    help="probability that a site gets 2-4 near-empty template pages")
    ap.add_argument("--p-forum", type=float, default=0.2,
                    help="probability that a site gets a forum with 2-4 thread pages")
    ap.add_argument("--classic", action="store_true",
                    help="no variants added by issue 20 (every --p-* above from "
                         "--p-syndication on is 0): the stream's earlier composition")
    ap.add_argument("--output", "-o", default="-")
    args = ap.parse_args()
    if args.articles == 1:
        ap.error("--articles must be 0 (all) or at least 2: variants borrow another page's "
                 "template and text")
    if args.classic:
        for flag in NEW_VARIANT_FLAGS:
            setattr(args, flag, 0.0)

    if not os.path.isdir(args.data):
        sys.exit("crawlgen: no data at %s (the shared folder must sit beside the repo)" % args.data)
    rng = random.Random(args.seed)
    nrng = random.Random("crawlgen-%d" % args.seed)
    stream = Stream(rng)
    articles = load_readability(args.data, args.articles)
    ctx = Context(articles)
    for i, page in enumerate(articles):
        others = [p for p in articles if p is not page]
        article_cluster(stream, page, others, ctx, ctx.site[page.name], T0_MS + i * 7 * MINUTE,
                        rng, nrng, args)
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
