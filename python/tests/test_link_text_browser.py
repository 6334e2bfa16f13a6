"""The text a reader sees of each link (``text`` and ``title`` of the ``href`` records of HTML
``a`` and ``area`` elements) against Chromium's.

Oracle: Chromium driven by Playwright, each HTML part opened as ``test_links_browser.py`` opens
it (scripting off, as mail clients render; nothing fetched), in the page and in every
``about:srcdoc`` frame. mimebase's text is the element's rendered text as a browser lays it
out with its default style sheet alone, so the page's own style sheets are taken away first
(``<style>``, ``<link rel=stylesheet>``, every ``style`` attribute). Then, for every ``a`` and
``area`` element with an ``href`` in the HTML namespace:

- an ``a``'s text is its ``innerText`` with every run of white space (space, tab, line feed,
  carriage return, form feed) made one space and none at either end; when that is empty, the
  ``alt`` texts of the rendered ``img`` elements inside it, each collapsed, joined by a space;
- an ``area``'s text is its ``alt``, collapsed;
- the ``title`` attribute, collapsed, or none;
- both cut to 256 characters, without a space at the end.

Elements and records are matched by (``srcdoc`` depth, element, ``href`` value with its white
space removed): for each such key, every record of mimebase must find an element of Chromium
with the same text and title, each element used once (Chromium's tree can hold more elements
than the source has start tags: the adoption agency algorithm copies an ``<a>`` that a
misnested end tag crosses, so extra elements are not counted against mimebase). At least 99%
of the records must agree; the others are listed in ``KNOWN`` with the reason, and a listed one
that agrees fails the test, so that the list stays true.

Run as a script (``python3 python/tests/test_link_text_browser.py [FILE...]``) it prints every
record that disagrees and the agreement.
"""

import re
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import SAMPLES, corpus_or_skip, find_cli  # noqa: E402

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed (pip install playwright)"
)

# browser: the Chromium fixture of the link comparison, launched the same way.
from test_links_browser import CHROMIUM, browser, inspect_record, open_parts  # noqa: E402,F401

# The longest text mimebase keeps, in characters (`LinkText::MAX_CHARS`).
MAX_CHARS = 256

LINK_TEXTS = """() => {
  const XHTML = "http://www.w3.org/1999/xhtml";
  // The default style sheet alone: the page's own rules and style attributes are taken away.
  for (const element of document.querySelectorAll('style, link[rel~="stylesheet" i]')) element.remove();
  for (const element of document.querySelectorAll("[style]")) element.removeAttribute("style");
  const collapse = (text) => text.replace(/[ \\t\\n\\r\\f]+/g, " ").replace(/^ | $/g, "");
  const links = [];
  for (const element of document.querySelectorAll("a[href], area[href]")) {
    if (element.namespaceURI !== XHTML) continue;
    let text;
    if (element.localName === "area") {
      text = collapse(element.getAttribute("alt") || "");
    } else {
      text = collapse(element.innerText);
      if (!text) {
        text = [...element.querySelectorAll("img")]
          .filter((img) => img.checkVisibility())
          .map((img) => collapse(img.getAttribute("alt") || ""))
          .filter((alt) => alt)
          .join(" ");
      }
    }
    const title = element.hasAttribute("title") ? collapse(element.getAttribute("title")) : null;
    links.push([element.localName, element.getAttribute("href"), text, title, element.checkVisibility()]);
  }
  return links;
}"""

WHITE_SPACE = re.compile(r"[ \t\n\r\f]+")


def cut(text):
    """`text` as mimebase cuts it: at most MAX_CHARS characters, without a space at the end."""
    return text if text is None else text[:MAX_CHARS].rstrip(" ")


def key(depth, tag, href):
    return (depth, tag, WHITE_SPACE.sub("", href))


def messages():
    found = sorted(SAMPLES.glob("*.eml"))
    found += sorted(
        p
        for p in corpus_or_skip("messages").rglob("*")
        if p.is_file() and p.name != "FEATURES.jsonl"
    )
    assert len(found) >= 70, f"expected the samples and the corpus's messages, found {len(found)}"
    return found


def chromium_texts(frame):
    """{key: [(text, title, rendered)]} of every link of a frame and its srcdoc frames."""
    found = defaultdict(list)

    def visit(frame, depth):
        for tag, href, text, title, rendered in frame.evaluate(LINK_TEXTS):
            found[key(depth, tag, href)].append((cut(text), cut(title), rendered))
        for child in frame.child_frames:
            if child.url == "about:srcdoc":
                visit(child, depth + 1)

    visit(frame, 0)
    return found


def compare(path, browser, cli, workdir):
    """(records compared, [(part, record, Chromium's candidates)] that disagree, skipped parts)."""
    record = inspect_record(cli, path)
    compared = 0
    differ = []
    skipped = []
    for entity, page, _own, svg, reason in open_parts(path, browser, record, workdir):
        part = entity["part"]
        ours = [
            url
            for url in record["urls"]
            if url["part"] == part and url["source"] in ("html:a@href", "html:area@href")
        ]
        if reason or svg:
            if ours:
                skipped.append((part, reason or "an SVG document"))
            continue
        theirs = chromium_texts(page.main_frame)
        for url in ours:
            compared += 1
            assert "text" in url, f"{path} part {part}: a link record without text: {url}"
            tag = url["source"][len("html:") : -len("@href")]
            candidates = theirs.get(key(url.get("srcdoc", 0), tag, url["reference"]), [])
            match = next(
                (
                    i
                    for i, (text, title, _) in enumerate(candidates)
                    if text == url["text"] and title == url.get("title")
                ),
                None,
            )
            if match is None:
                differ.append((part, url, list(candidates)))
            else:
                candidates.pop(match)
    return compared, differ, skipped


# Why a link written straight inside a table row differs: tree construction moves it out of the
# table ("foster parenting"), and the next `<table>` start tag, met in the "in row" insertion
# mode, closes the outer table and the link with it; mimebase, which does not follow the
# insertion modes of tables, ends the link only at the next link.
FOSTER_PARENTED = (
    "a link written directly in a table row (foster-parented) ends at a nested <table> in "
    "Chromium, at the next link in mimebase"
)

# (file name, part, reference, mimebase's text): records known to differ from Chromium, each
# with the reason.
KNOWN = {
    (
        "sample-1284.eml",
        "HEADER",
        "https://is.gd/bFlg4J",
        "Wilt u zich afmelden, klik dan op",
    ): FOSTER_PARENTED,
    (
        "sample-1696.eml",
        "HEADER",
        "http://revision-online.info/bVI1QmFhY1REaHUxMFRTWXhIMExvWk42U1Ezemg2OXJGOW5zaGFEeVRSZitpRHBtS3ZULzB1M2hIL0xHMHdoTzhybWh2Y0d2bnUydGFLRSsxUWJla0NPSSt4SGhJYU4vSythRndncTNlamNHc21BdWNNWE5DclF5WW04bXRTNGsrOGtQM0hrQXVQQm5oWlFqWTg0c0lBPT0_",
        "Wenn Sie sich abmelden möchten, klicken Sie bitte",
    ): FOSTER_PARENTED,
}


def test_link_texts_agree_with_chromium(browser, tmp_path):
    cli = find_cli()
    compared = 0
    agreed = 0
    problems = []
    seen_known = set()
    for path in messages():
        count, differ, skipped = compare(path, browser, cli, tmp_path)
        compared += count
        agreed += count - len(differ)
        for part, reason in skipped:
            print(f"skipped: {path} part {part}: {reason}")
        for part, url, candidates in differ:
            known = (path.name, part, url["reference"], url["text"])
            if known in KNOWN:
                seen_known.add(known)
                continue
            problems.append(
                f"{path} part {part}: {url['reference']!r}: mimebase {url['text']!r} "
                f"(title {url.get('title')!r}), Chromium {candidates!r}"
            )
    for known, reason in KNOWN.items():
        if known not in seen_known:
            problems.append(f"listed in KNOWN ({reason}) but agrees now, or is gone: {known}")
    print(f"link texts: {agreed} of {compared} agree with Chromium ({agreed / max(compared, 1):.1%})")
    assert compared >= 500, f"only {compared} link records were compared"
    assert agreed >= 0.99 * compared, f"{agreed} of {compared} agree"
    assert not problems, "\n".join(problems)


if __name__ == "__main__":
    paths = [Path(p) for p in sys.argv[1:]] or messages()
    cli = find_cli()
    total = agreeing = 0
    with sync_api.sync_playwright() as playwright, tempfile.TemporaryDirectory() as workdir:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        for path in paths:
            count, differ, skipped = compare(path, browser, cli, Path(workdir))
            total += count
            agreeing += count - len(differ)
            for part, reason in skipped:
                print(f"{path} {part}: skipped: {reason}")
            for part, url, candidates in differ:
                print(f"{path} {part} {url['reference']!r}")
                print(f"  mimebase: {url['text']!r} title {url.get('title')!r}")
                print(f"  Chromium: {candidates!r}")
        browser.close()
    print(f"{agreeing} of {total} agree")
