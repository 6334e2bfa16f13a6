"""The samples' expectations, as the Rust golden tests hold them: every entity's base, where it
came from and whom it was inherited from, and every URL's source, reference and resolved form
(whether a base decided it, and a link's text and title, for those `inspect` shows; the count of
those it leaves out), read from tests/data/golden/<sample>.inspect.txt and .urls.txt; each
sample also with CRLF line endings. Plus the RFC 1808 examples and the baseStriker split spelled
out."""

import re

import pytest

import mimebase
from conftest import GOLDEN, SAMPLES, samples, to_crlf

PART = re.compile(r"HEADER|[0-9]+(\.[0-9]+)*(\.HEADER)?")
TARGET = re.compile(r"  -> part \S+ \([a-z-]+\)$")
IGNORED = re.compile(r"  \(ignored: [^)]*\)$")
SUMMARY_FIELDS = {"Subject": "subject", "From": "from_", "Date": "date", "Message-ID": "message_id"}
BASE_LINE = re.compile(
    r"^(?:header-level )?base  (?:none(?:  \((?P<none_source>attachment), [^)]*\))?|(?P<url>\S+)  \((?P<source>[^)]*)\))$"
)


LEFT_OUT = re.compile(r"^\((?P<count>[0-9]+) absolute URLs? unchanged, not shown: --all shows (?:it|them)\)$")
LINK_LINE = re.compile(r'^(?:text "(?P<text>(?:[^"\\]|\\.)*)")?(?:  )?(?:title "(?P<title>(?:[^"\\]|\\.)*)")?')


def parse_inspect(text: str):
    """(entities, urls, left_out) of a golden `mimebase inspect` output: entities as
    (part, content_type, base, base_source or None, inherited_from, and for a message its
    summary), URLs as (part, source, reference, resolved or None, base_decided, whether it is
    an ignored base, text, title), and per part the count of absolute URLs left out unchanged."""
    entities, urls, left_out = [], [], {}
    lines = text.splitlines()
    assert lines[0].startswith("== ")
    part = "HEADER"
    for line in lines[1:]:
        body = line.lstrip(" ")
        words = body.split("  ")
        if body.startswith("! "):
            continue
        # `2  text/html`, or with a note: `2  application/octet-stream  (attachment, …)`.
        if len(words) in (2, 3) and PART.fullmatch(words[0]) and (
            len(words) == 2 or words[2].startswith("(attachment")
        ):
            part = words[0]
            entities.append({"part": part, "content_type": words[1]})
            continue
        # A message's summary: `Subject  text`, `(none)` for a missing field.
        if len(words) >= 2 and words[0] in SUMMARY_FIELDS:
            value = body[len(words[0]) + 2:]
            entities[-1].setdefault("summary", {})[SUMMARY_FIELDS[words[0]]] = (
                None if value == "(none)" else unescape(value)
            )
            continue
        match = BASE_LINE.match(body)
        if match:
            key = "header_base" if body.startswith("header-level") else "base"
            source, inherited = match.group("source") or match.group("none_source"), None
            if source and source.startswith("inherited from "):
                source, inherited = "inherited", source[len("inherited from "):]
            entities[-1][key] = (match.group("url"), source or "none", inherited)
            continue
        match = LEFT_OUT.match(body)
        if match:
            left_out[part] = int(match.group("count"))
            continue
        if body.startswith(('text "', 'title "')):
            # What a reader sees of the link on the line above.
            match = LINK_LINE.match(body)
            previous = urls[-1]
            urls[-1] = previous[:6] + (
                unescape(match.group("text") or ""),
                match.group("title") and unescape(match.group("title")),
            )
            continue
        source, rest = body.split("  ", 1)
        # `html:a@href (srcdoc)`: a URL of an <iframe srcdoc> document.
        source = re.sub(r" \(srcdoc(?: [0-9]+)?\)$", "", source)
        # A base that does not apply ends with `  (ignored: why)`.
        ignored = IGNORED.search(rest) is not None
        rest = IGNORED.sub("", rest)
        reference, resolved = rest.split("  ->  ", 1)
        # A URL naming a part of the same message ends with `  -> part 2 (cid)`, one whose
        # destination a base decided is marked `  (base-decided)` before that.
        resolved = TARGET.sub("", resolved)
        decided = resolved.endswith("  (base-decided)")
        resolved = resolved.removesuffix("  (base-decided)")
        if resolved.startswith("unresolved: "):
            resolved = None
        urls.append((part, source, reference, resolved, decided, ignored, None, None))
    return entities, urls, left_out


def shown_in_inspect(url) -> bool:
    """Whether `inspect` shows the URL without `--all`: not an absolute URL left unchanged
    (an ignored base is always shown)."""
    return not (
        url.resolved == url.reference
        and not url.base_decided
        and url.target is None
        and not url.text_host_differs
        and url.ignored is None
    )


def unescape(text: str) -> str:
    return text.replace("\\t", "\t").replace("\\n", "\n").replace("\\r", "\r")


@pytest.mark.parametrize("crlf", [False, True], ids=["lf", "crlf"])
@pytest.mark.parametrize("sample", samples(), ids=lambda p: p.stem)
def test_sample_matches_golden(sample, crlf):
    raw = sample.read_bytes()
    if crlf:
        raw = to_crlf(raw)
    report = mimebase.analyze(raw)

    entities, urls, left_out = parse_inspect((GOLDEN / f"{sample.stem}.inspect.txt").read_text())
    assert [e["part"] for e in entities] == [e.part for e in report.entities]
    for expected, entity in zip(entities, report.entities):
        assert expected["content_type"] == entity.content_type
        assert expected["base"] == (entity.base, entity.base_source, entity.inherited_from)
        header_base = expected.get("header_base", expected["base"])
        assert header_base[:2] == (entity.header_base, entity.header_base_source)
        summary = report.summary if entity.part == "HEADER" else entity.summary
        if entity.kind == "message":
            said = {key: getattr(summary, key) for key in SUMMARY_FIELDS.values()}
            assert expected["summary"] == said
        else:
            assert "summary" not in expected and summary is None
    shown = [u for u in report.urls if shown_in_inspect(u)]
    assert urls == [
        (
            u.part,
            u.source,
            unescape(u.reference),
            u.resolved,
            u.base_decided,
            u.ignored is not None,
            u.text if u.text or u.title is not None else None,
            u.title,
        )
        for u in shown
    ]
    hidden = {}
    for u in report.urls:
        if not shown_in_inspect(u):
            hidden[u.part] = hidden.get(u.part, 0) + 1
    assert left_out == hidden

    golden_urls = (GOLDEN / f"{sample.stem}.urls.txt").read_text().splitlines()
    assert golden_urls == [
        f"{u.resolved or ''}\t{u.reference}".replace("\n", "\\n").replace("\r", "\\r")
        for u in report.urls
    ]


def test_rfc1808_appendix():
    report = mimebase.analyze((SAMPLES / "rfc1808-appendix.eml").read_bytes())
    resolved = {u.reference: u.resolved for u in report.urls if u.source.startswith("html:")}
    # RFC 1808 §5.1 and §5.2, base <URL:http://a/b/c/d;p?q#f> rewritten to the sample's base.
    assert resolved["../x"] == "http://www.ics.uci.edu/Test/a/x"
    assert resolved["g"] == "http://www.ics.uci.edu/Test/a/b/g"
    assert resolved["../../../../g"] == "http://www.ics.uci.edu/../g"
    assert resolved["g:h"] == "g:h"
    root = report.entities[0]
    assert (root.base, root.base_source) == ("http://www.ics.uci.edu/Test/a/b/c", "header:Base")


def test_basestriker_split_is_resolved_against_the_html_base():
    report = mimebase.analyze((SAMPLES / "basestriker.eml").read_bytes())
    html = [e for e in report.entities if e.content_type == "text/html"][0]
    assert (html.base, html.base_source) == ("http://phish.example.net/bank.example.com/", "html:base")
    assert (html.header_base, html.header_base_source) == (None, "none")
    link = [u for u in report.urls if u.source == "html:a@href"][0]
    assert (link.reference, link.resolved) == (
        "verify/login.html",
        "http://phish.example.net/bank.example.com/verify/login.html",
    )
    assert (link.base, link.base_source) == ("http://phish.example.net/bank.example.com/", "html:base")
    raw = (SAMPLES / "basestriker.eml").read_bytes()
    body = raw[html.body[0]:html.body[1]]
    # The HTML part is us-ascii and not transfer-encoded: its decoded body is its raw body.
    assert body[link.range[0]:link.range[1]] == b"verify/login.html"


def test_inherited_base_names_its_source():
    report = mimebase.analyze((SAMPLES / "nested-content-base.eml").read_bytes())
    by_part = {e.part: e for e in report.entities}
    assert by_part["1.2"].base_source == "inherited"
    assert by_part["1.2"].inherited_from == "1"
    assert by_part["2"].inherited_from == "HEADER"
    assert by_part["HEADER"].inherited_from is None
