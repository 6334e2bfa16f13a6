"""The links of every HTML and SVG document part against Chromium's: the oracle for HTML pages,
for the HTML alternatives some clients render (``text/x-amp-html``, ``text/watch-html``), for
HTML and SVG files sent under another media type, for SVG documents, and for ``<iframe srcdoc>``
documents.

Oracle: Chromium (Debian's ``chromium``, or ``$CHROMIUM``) driven by Playwright, scripting off as
mail clients render, every request aborted (no network). Each document part is opened as a
reader's client opens it:

- a part read by its media type is shown in the message, with the part's base: Chromium loads
  its decoded body as the page at the part's header-level base URL (intercepted and answered
  with the body, so that nothing is fetched), with the part's ``charset``;
- a part read by its file name (``application/octet-stream; name="invoice.html"``) is opened
  from a temporary file: Chromium opens the decoded body written to a file of that name, and a
  relative reference there resolves to a ``file:`` URL beside it, which mimebase reports
  unresolved (base source ``attachment``).

For every element in the HTML namespace with a URL attribute of the table below, in the page
and in every ``about:srcdoc`` frame inside it (and in the contents of their ``<template>``
elements, which the parser fills as it fills the page), Chromium's URL property (``a.href``,
``img.src``, ``form.action``, …: the attribute's value parsed against the document's base, as
the element uses it) is compared with mimebase's resolved URL for the same element and
attribute (``mimebase inspect --json --resolver whatwg``), as sets of (``srcdoc`` depth, element,
attribute, URL): the parser's tree can hold an element more often than the source does (the
adoption agency algorithm clones an ``<a>`` that formatting elements cross), so the counts of
equal links are not compared. A relative reference that Chromium resolves against the
document's own address (the file, or the page address when the part has no base) is what
mimebase reports unresolved. In an SVG document (opened as ``image/svg+xml``, or from a
``.svg`` file) the links compared are the ``href`` and XLink ``href`` of every SVG ``a``,
``image``, ``use`` and ``feImage`` element of the document Chromium built (up to the first XML
error, where its parser stops), resolved against the document's base.

The messages: this repository's ``samples/`` and ``tests/data/reach/`` (written here in the
shapes phishing and real mail use), and ``../shared/corpus/messages/`` and
``../shared/corpus/suites/`` (mail and saved pages other projects wrote), and the saved pages
of ``../shared/corpus/bench/``. Parts that cannot be
shown as the client shows them are left out, each with its reason in ``skipped`` (printed when
run as a script): a part inside an encoded ``message/rfc822`` (its bytes are not in the file),
one whose base is not an ``http``/``https`` URL (Chromium cannot be made to load a page there),
one whose transfer encoding mimebase found damaged.

Run as a script (``python3 python/tests/test_links_browser.py [FILE...]``) it prints the
comparison of each part.
"""

import base64
import binascii
import email.parser
import email.policy
import json
import os
import quopri
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import REPO, SAMPLES, corpus_or_skip, find_cli  # noqa: E402

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed (pip install playwright)"
)

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))

# The address a part without a base is shown at: relative references resolve against it in
# Chromium, and are unresolved in mimebase.
NO_BASE = "http://no-base.invalid/page.html"

# (element, attribute, DOM property): the URL attributes whose element exposes the URL the
# document uses as a property (the HTML Standard's reflection of a URL attribute).
URL_PROPERTIES = [
    ("a", "href", "href"),
    ("area", "href", "href"),
    ("link", "href", "href"),
    ("base", "href", "href"),
    ("img", "src", "src"),
    ("iframe", "src", "src"),
    ("frame", "src", "src"),
    ("embed", "src", "src"),
    ("script", "src", "src"),
    ("source", "src", "src"),
    ("track", "src", "src"),
    ("audio", "src", "src"),
    ("video", "src", "src"),
    ("input", "src", "src"),
    ("form", "action", "action"),
    ("button", "formaction", "formAction"),
    ("input", "formaction", "formAction"),
    ("video", "poster", "poster"),
    ("blockquote", "cite", "cite"),
    ("q", "cite", "cite"),
    ("del", "cite", "cite"),
    ("ins", "cite", "cite"),
    ("object", "data", "data"),
]

# The SVG elements and attributes compared in SVG documents.
SVG_TABLE = {
    (tag, attribute) for tag in ("a", "image", "use", "feImage") for attribute in ("href", "xlink:href")
}

LINKS = """(table) => {
  const XHTML = "http://www.w3.org/1999/xhtml";
  const links = [];
  // The document, and the contents of its <template> elements (a fragment of their own, which
  // the parser fills as it fills the document; a script could put it in the page).
  const roots = [[document, false]];
  for (let i = 0; i < roots.length; i++) {
    const [root, inTemplate] = roots[i];
    for (const element of root.querySelectorAll("*")) {
      if (element.localName === "template" && element.content) roots.push([element.content, true]);
      if (element.namespaceURI !== XHTML) continue;
      for (const [tag, attribute, property] of table) {
        if (element.localName !== tag || !element.hasAttribute(attribute)) continue;
        const raw = element.getAttribute(attribute);
        // An element in template contents belongs to an inert document without a base of its
        // own: its URL is the attribute parsed against this document's base.
        let url = inTemplate ? raw.trim() : element[property];
        try { url = new URL(url, document.baseURI).href; } catch (e) { url = null; }
        links.push([tag, attribute, raw, url]);
      }
    }
  }
  return {base: document.baseURI, links};
}"""

SVG_LINKS = """() => {
  const SVG = "http://www.w3.org/2000/svg", XLINK = "http://www.w3.org/1999/xlink";
  const links = [];
  for (const element of document.getElementsByTagNameNS(SVG, "*")) {
    if (!["a", "image", "use", "feImage"].includes(element.localName)) continue;
    for (const [namespace, name] of [[null, "href"], [XLINK, "xlink:href"]]) {
      const raw = element.getAttributeNS(namespace, "href");
      if (raw === null) continue;
      let url;
      try { url = new URL(raw.trim(), document.baseURI).href; } catch (e) { url = null; }
      links.push([element.localName, name, raw, url]);
    }
  }
  return {base: document.baseURI, links};
}"""

# A reference with a scheme (RFC 3986 §3.1), after the leading white space a URL parser trims.
HAS_SCHEME = re.compile(r"^[\x00-\x20]*[A-Za-z][A-Za-z0-9+.-]*:")


def messages():
    found = sorted(SAMPLES.glob("*.eml"))
    found += sorted((REPO / "tests" / "data" / "reach").glob("*.eml"))
    corpus = corpus_or_skip()
    found += sorted(
        p for p in (corpus / "messages").rglob("*") if p.is_file() and p.name != "FEATURES.jsonl"
    )
    found += sorted(
        p
        for p in (corpus / "suites").rglob("*")
        if p.is_file() and p.suffix.lower() not in (".xml", ".md")
    )
    # The saved web pages of the throughput corpus (its SVG parts among them).
    found += sorted(p for p in (corpus / "bench").rglob("*") if p.suffix.lower() in (".mht", ".mhtml"))
    assert len(found) >= 100, f"expected the samples and the corpus, found {len(found)}"
    return found


def transfer_decoded(header: bytes, body: bytes):
    """The body with its Content-Transfer-Encoding undone, as mail clients do; None for an
    encoding this test does not decode."""
    fields = email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(header + b"\n\n")
    encoding = (fields.get("Content-Transfer-Encoding") or "").strip().lower()
    if encoding in ("", "7bit", "8bit", "binary"):
        return body
    if encoding == "base64":
        return base64.b64decode(b"".join(body.split()) + b"===", validate=False)
    if encoding == "quoted-printable":
        return quopri.decodestring(body)
    if encoding in ("x-uuencode", "x-uue", "uuencode"):
        lines = body.splitlines()
        out = b""
        inside = False
        for line in lines:
            if line.startswith(b"begin "):
                inside = True
            elif line.strip() == b"end":
                break
            elif inside and line.strip():
                try:
                    out += binascii.a2b_uu(line)
                except binascii.Error:
                    return None
        return out
    return None


def origin(url):
    """The scheme and authority of a URL: ``http://no-base.invalid``, ``file://``."""
    scheme, _, rest = url.partition("://")
    return scheme + "://" + rest.split("/", 1)[0]


def chromium_svg_links(frame, own_address):
    """(0, tag, attribute, URL) of every `href` and XLink `href` of an SVG `a`, `image`, `use`
    and `feImage` of an SVG document, resolved against its base; relative ones against its own
    address are None, as for HTML."""
    seen = frame.evaluate(SVG_LINKS)
    against_own = own_address is not None and origin(seen["base"]) == origin(own_address)
    return [
        (0, tag, attribute, None if against_own and not HAS_SCHEME.match(raw) else url)
        for tag, attribute, raw, url in seen["links"]
    ]


def chromium_links(frame, own_address):
    """(srcdoc depth, tag, attribute, URL) of every link of a frame and its srcdoc frames. A
    relative reference that Chromium resolved against the document's own address
    (``own_address``: the temporary file, or the address of a part without a base) is None,
    as mimebase reports it unresolved."""
    found = []

    def visit(frame, depth):
        seen = frame.evaluate(LINKS, URL_PROPERTIES)
        # The document's base came from its own address (perhaps through a relative
        # `<base href>`, which mimebase does not use, having no base to resolve it against).
        against_own = own_address is not None and origin(seen["base"]) == origin(own_address)
        for tag, attribute, raw, url in seen["links"]:
            if against_own and not HAS_SCHEME.match(raw):
                url = None
            found.append((depth, tag, attribute, url))
        for child in frame.child_frames:
            if child.url == "about:srcdoc":
                visit(child, depth + 1)

    visit(frame, 0)
    return found


def open_parts(path, browser, record, workdir):
    """Opens each document part of the message ``path`` (whose ``inspect --json`` record is
    ``record``) in Chromium as a reader's client shows it (see the module's docstring), and
    yields ``(entity, page, own_address, svg, None)`` for each, the page open until the next
    part is asked for; or ``(entity, None, None, svg, reason)`` for a part that cannot be shown
    so."""
    raw = path.read_bytes()
    for entity in record["entities"]:
        document = entity.get("document")
        if not document or document["kind"] not in ("html", "svg"):
            continue
        svg = document["kind"] == "svg"
        part = entity["part"]
        damaged = any(
            d["part"] == part and d["kind"] == "bad_transfer_encoding" for d in record["diagnostics"]
        )
        if entity["kind"] == "member":
            yield entity, None, None, svg, "a member of a ZIP archive (its bytes are compressed in the archive)"
            continue
        if entity["decoded_from"] is not None:
            yield entity, None, None, svg, "inside an encoded message/rfc822"
            continue
        if damaged:
            yield entity, None, None, svg, "damaged transfer encoding"
            continue
        header = raw[entity["header"]["start"] : entity["header"]["end"]]
        body = transfer_decoded(header, raw[entity["body"]["start"] : entity["body"]["end"]])
        if body is None:
            yield entity, None, None, svg, "a transfer encoding this test does not decode"
            continue
        fields = email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(
            header + b"\n\n"
        )
        charset = fields.get_param("charset") if fields.get("Content-Type") else None
        attachment = document["by"] == "file_name"
        own_address = None
        if attachment:
            file = workdir / f"part-{part}.{'svg' if svg else 'html'}"
            file.write_bytes(body)
            address = file.as_uri()
            own_address = address
        else:
            base = entity["header_base"]["url"]
            if base is None:
                address = NO_BASE
                own_address = NO_BASE
            elif base.startswith(("http://", "https://")):
                address = base
            else:
                yield entity, None, None, svg, f"base {base!r} is not http(s)"
                continue
        page = browser.new_page(java_script_enabled=False)
        served = []

        def route(request_route, _request, address=address, body=body, charset=charset):
            url = request_route.request.url
            if not served and url.split("#")[0] == address.split("#")[0] and not attachment:
                served.append(url)
                content_type = ("image/svg+xml" if svg else "text/html") + (
                    f"; charset={charset}" if isinstance(charset, str) else ""
                )
                request_route.fulfill(status=200, headers={"Content-Type": content_type}, body=body)
            elif url.startswith("file:") and url == address:
                request_route.continue_()
            else:
                request_route.abort()

        page.route("**/*", route)
        try:
            page.goto(address, wait_until="load", timeout=20000)
        except Exception as error:  # a page that never loads is a failure of the test
            page.close()
            raise AssertionError(f"{path} part {part}: Chromium could not open it: {error}")
        try:
            yield entity, page, own_address, svg, None
        finally:
            page.close()


def inspect_record(cli, path):
    """The ``mimebase inspect --json --resolver whatwg`` record of the first message of
    ``path``."""
    return json.loads(
        subprocess.run(
            [str(cli), "inspect", "--json", "--resolver", "whatwg", str(path)],
            check=False,
            capture_output=True,
        ).stdout.splitlines()[0]
    )


def compare_message(path, browser, cli, workdir):
    """For each document part of the message: (part, Chromium's links, mimebase's, skipped)."""
    record = inspect_record(cli, path)
    results = []
    table = {(tag, attribute) for tag, attribute, _ in URL_PROPERTIES}
    for entity, page, own_address, svg, skipped in open_parts(path, browser, record, workdir):
        part = entity["part"]
        if skipped:
            results.append((part, None, None, skipped))
            continue
        if svg:
            theirs = set(chromium_svg_links(page.main_frame, own_address))
        else:
            theirs = set(chromium_links(page.main_frame, own_address))
        prefix = "svg:" if svg else "html:"
        ours = set(
            (
                url.get("srcdoc", 0),
                url["source"][len(prefix) :].split("@")[0],
                url["source"].split("@", 1)[1],
                url["resolved"],
            )
            for url in record["urls"]
            if url["part"] == part
            and url["source"].startswith(prefix)
            and "@" in url["source"]
            and tuple(url["source"][len(prefix) :].split("@", 1)) in (SVG_TABLE if svg else table)
        )
        results.append((part, theirs, ours, None))
    return results


# (file name, part): parts where Chromium and mimebase are known to differ, each with why.
KNOWN = {}


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (Debian: apt-get install chromium)")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield browser
        browser.close()


def test_every_html_link_agrees_with_chromium(browser, tmp_path):
    cli = find_cli()
    compared = 0
    mismatches = []
    for path in messages():
        written_here = path.parent.name == "reach" or path.parent == SAMPLES
        for part, theirs, ours, skipped in compare_message(path, browser, cli, tmp_path):
            if skipped:
                # The messages written here are made to be compared whole.
                if written_here:
                    mismatches.append(f"{path} part {part}: skipped: {skipped}")
                continue
            compared += 1
            key = (path.name, part)
            if theirs != ours and key not in KNOWN:
                mismatches.append(
                    f"{path} part {part}:\n  only Chromium: {sorted(theirs - ours, key=str)}"
                    f"\n  only mimebase: {sorted(ours - theirs, key=str)}"
                )
            elif theirs == ours and key in KNOWN:
                mismatches.append(f"{path} part {part}: listed in KNOWN but agrees now")
    assert compared >= 50, f"only {compared} HTML parts were compared"
    assert not mismatches, "\n".join(mismatches)


if __name__ == "__main__":
    paths = [Path(p) for p in sys.argv[1:]] or messages()
    cli = find_cli()
    with sync_api.sync_playwright() as playwright, tempfile.TemporaryDirectory() as workdir:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        for path in paths:
            for part, theirs, ours, skipped in compare_message(path, browser, cli, Path(workdir)):
                if skipped:
                    print(f"{path} {part}: skipped: {skipped}")
                elif theirs == ours:
                    print(f"{path} {part}: {len(ours)} links agree")
                else:
                    print(f"{path} {part}: DIFFER")
                    print(f"  only Chromium: {sorted(theirs - ours, key=str)}")
                    print(f"  only mimebase: {sorted(ours - theirs, key=str)}")
        browser.close()
