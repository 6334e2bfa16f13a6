"""`mimebase extract` against Chromium: the extracted page shows what the archive shows, and
offline (the default) contacts no one.

Oracle: Chromium (Debian's ``chromium``, or ``$CHROMIUM``) driven by Playwright, scripting off
as MHTML pages have it, every request that is not a ``file:`` URL aborted (no network). Each
archive is opened twice: natively, as Chromium opens MHTML (a CRLF copy named ``.mhtml``:
Chromium shows an empty page for bare-LF MHTML), and as the main page ``extract`` wrote. For
each, Chromium's resource tree (DevTools ``Page.getResourceTree``, every frame) gives the
distinct images (``<img>`` and CSS backgrounds alike), stylesheets and web fonts it loaded, and each
frame's document tells whether it shows anything. The extracted page must load at least as
many of each and show at least as many non-empty frames, and must request no ``file:`` URL
outside the output directory; this holds written offline and ``--online``.

Offline, the page must also make no request that leaves the browser: every request Chromium
sends on (Playwright's route handler sees each one before the network would) is a ``file:``
URL inside the output directory (``data:`` URLs never reach it). Requests that Chromium reports
and ends itself are counted apart: an inert ``about:invalid#…`` URL fails at once (an unknown
scheme, or refused by the page's Content-Security-Policy), and a URL that ``extract`` could
not make inert is refused by the policy (its failure is ``csp``), never sent. Every other
request Chromium reports must be a ``file:`` URL inside the output directory or a ``data:``
URL. ``--online`` is also checked to reach the web where offline does not, so that the check
can fail.

The archives: the MHTML files of ``../shared/corpus`` (pages saved by Chrome, Internet
Explorer and others), the project's own samples that are saved pages, and the archives of
``$MIMEBASE_EXTRA_ARCHIVES`` (a directory, searched for ``*.mht`` and ``*.mhtml``), for
browser-saved pages that cannot be part of the repository.

Run as a script (``python3 python/tests/test_extract_browser.py FILE...``) it prints the
figures of each file instead.
"""

import collections
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import SAMPLES, corpus_cases, find_cli, to_crlf  # noqa: E402

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed (pip install playwright)"
)

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))

# What is counted: resource types of the DevTools protocol's Page.ResourceType.
KINDS = {"Image": "images", "Stylesheet": "stylesheets", "Font": "fonts"}

# Whether a frame's document shows anything: text, or any element in its body.
SHOWS_SOMETHING = """() => !!document.body &&
    (document.body.innerText.trim().length > 0 || document.body.getElementsByTagName('*').length > 0)"""


# The messages of tests/data/offline/ (see its README) that the offline checks open.
OFFLINE_DATA = Path(__file__).resolve().parents[2] / "tests" / "data" / "offline"


def corpus_archives(corpus):
    found = sorted(
        p
        for p in (corpus / "messages").rglob("*")
        if p.suffix.lower() in (".mht", ".mhtml")
    )
    found += sorted(
        p
        for p in (corpus / "bench").rglob("*")
        if p.suffix.lower() in (".mht", ".mhtml")
    )
    assert len(found) >= 9, f"expected the corpus's nine MHTML files, found {len(found)}"
    return found


def archives():
    """The corpus's archives (one skipped case when the corpus is absent), the samples that
    are saved pages, and ``$MIMEBASE_EXTRA_ARCHIVES``."""
    found = corpus_cases("", corpus_archives)
    found += [SAMPLES / "mhtml-saved-page.eml", SAMPLES / "mhtml-stylesheets-frames.eml"]
    extra = os.environ.get("MIMEBASE_EXTRA_ARCHIVES")
    if extra:
        found += sorted(
            p for p in Path(extra).rglob("*") if p.suffix.lower() in (".mht", ".mhtml")
        )
    return found


def loaded_resources(frame_tree, loaded):
    """Adds ``(kind, URL)`` of every resource of a frame tree that loaded to ``loaded``.

    Distinct URLs are counted, not entries: a file that several frames load is listed under
    each for a while, then under one (Chromium's resource tree follows its memory cache)."""
    for resource in frame_tree.get("resources", []):
        kind = KINDS.get(resource["type"])
        if kind and not resource.get("failed") and not resource.get("canceled"):
            loaded.add((kind, resource["url"]))
    for child in frame_tree.get("childFrames", []):
        loaded_resources(child, loaded)


class Requests:
    """What a page asked for: every request Chromium reported (``requested``), those it sent on
    towards the network (``sent``: the route handler sees them), and why each failed one
    failed (``failures``, by URL)."""

    def __init__(self):
        self.requested = []
        self.sent = []
        self.failures = {}

    def outside(self, out):
        """The requests that are neither a ``file:`` URL inside ``out`` nor a ``data:`` URL,
        each with its failure: (URL, failure or None)."""
        inside = out.resolve().as_uri() + "/"
        return [
            (url, self.failures.get(url))
            for url in self.requested
            if not (url.startswith(inside) or url.startswith("data:"))
        ]


def measure(context, url):
    """What Chromium loads for the page at ``url``: counts by kind, and its :class:`Requests`."""
    requests = Requests()
    page = context.new_page()
    page.on("request", lambda request: requests.requested.append(request.url))
    page.on(
        "requestfailed",
        lambda request: requests.failures.setdefault(request.url, request.failure),
    )

    def only_files(route):
        requests.sent.append(route.request.url)
        if route.request.url.startswith("file:"):
            route.continue_()
        else:
            route.abort()

    page.route("**/*", only_files)
    # Fonts, background images and frames are asked for once the page is laid out, later on a
    # busy machine: the counts are taken once no request has been made for 500 ms, then again
    # every 300 ms until two readings agree (at most 20).
    page.goto(url, wait_until="networkidle")
    cdp = context.new_cdp_session(page)
    loaded = None
    for _ in range(20):
        page.wait_for_timeout(300)
        reading = set()
        loaded_resources(cdp.send("Page.getResourceTree")["frameTree"], reading)
        reading.add(("frames", len(page.frames)))
        if reading == loaded:
            break
        loaded = reading
    counts = collections.Counter({kind: 0 for kind in KINDS.values()})
    counts.update(kind for kind, _ in loaded if kind != "frames")
    counts["main page shows something"] = int(page.main_frame.evaluate(SHOWS_SOMETHING))
    for frame in page.frames:
        if frame is page.main_frame:
            continue
        try:
            shows = frame.evaluate(SHOWS_SOMETHING)
        except sync_api.Error:
            shows = False  # a frame that went away or never loaded
        counts["non-empty frames"] += int(shows)
    cdp.detach()
    page.close()
    return counts, requests


def extract(cli, message, out, mode):
    """``mimebase extract --MODE`` of ``message`` into ``out``; the main page's path."""
    done = subprocess.run(
        [str(cli), "extract", f"--{mode}", "--dir", str(out), str(message)], capture_output=True
    )
    assert done.returncode == 0, f"{message}: {done.stderr!r}"
    main = Path(done.stdout.decode().strip()).resolve()
    assert main.is_file() and main.parent == out.resolve(), main
    return main


def compare(context, cli, archive, work, mode="offline"):
    """Opens ``archive`` and the page ``extract --MODE`` writes of it; both counts, the main
    page, the ``file:`` URLs requested outside the output directory, and the extracted page's
    :class:`Requests` and output directory."""
    work.mkdir(parents=True)
    native = work / (archive.stem + ".mhtml")
    native.write_bytes(to_crlf(archive.read_bytes()))
    out = work / "out"
    main = extract(cli, archive, out, mode)
    before, _ = measure(context, native.as_uri())
    after, requests = measure(context, main.as_uri())
    inside = out.resolve().as_uri() + "/"
    outside = [u for u in requests.requested if u.startswith("file:") and not u.startswith(inside)]
    return before, after, main, outside, requests, out


def assert_contacts_no_one(requests, out, where, allow_csp=False):
    """Offline: no request was sent on but for files inside ``out``; every other request was
    inert (``about:invalid#``) or, with ``allow_csp``, refused by the policy."""
    inside = out.resolve().as_uri() + "/"
    sent = [u for u in requests.sent if not u.startswith(inside)]
    assert not sent, f"{where}: sent towards the network: {sent[:5]}"
    for url, failure in requests.outside(out):
        if url.startswith("about:invalid"):
            assert failure is not None, f"{where}: {url} did not fail"
        else:
            assert allow_csp and failure == "csp", f"{where}: {url}: {failure}"


@pytest.fixture(scope="module")
def browser_context():
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (Debian's chromium package, or set $CHROMIUM)")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM))
        context = browser.new_context(java_script_enabled=False)
        yield context
        browser.close()


@pytest.fixture(scope="module")
def scripting_context(browser_context):
    """A context of the same browser with scripting on, as a reader's browser has it."""
    context = browser_context.browser.new_context(java_script_enabled=True)
    yield context
    context.close()


@pytest.mark.parametrize("mode", ["offline", "online"])
@pytest.mark.parametrize("archive", archives(), ids=lambda p: p.name if isinstance(p, Path) else None)
def test_extracted_page_loads_what_the_archive_loads(browser_context, cli, archive, mode, tmp_path):
    before, after, main, outside, requests, out = compare(
        browser_context, cli, archive, tmp_path / "work", mode
    )
    for kind in ("images", "stylesheets", "fonts", "non-empty frames", "main page shows something"):
        assert after[kind] >= before[kind], f"{archive}: {kind}: archive {before}, extracted {after}"
    assert not outside, f"{main}: file: URLs outside the output directory: {outside[:5]}"
    if mode == "offline":
        assert_contacts_no_one(requests, out, main)


def test_basestriker_offline_contacts_no_one(browser_context, scripting_context, cli, tmp_path):
    """baseStriker's page: offline, its image and link on the phishing host are inert and
    nothing is sent, scripting off or on; online, the image is asked of that host."""
    sample = SAMPLES / "basestriker.eml"
    for number, context in enumerate((browser_context, scripting_context)):
        out = tmp_path / f"offline-{number}"
        main = extract(cli, sample, out, "offline")
        counts, requests = measure(context, main.as_uri())
        assert counts["main page shows something"] == 1
        assert_contacts_no_one(requests, out, main)
        assert any(u.startswith("about:invalid") for u, _ in requests.outside(out))
    main = extract(cli, sample, tmp_path / "online", "online")
    _, requests = measure(browser_context, main.as_uri())
    assert "http://phish.example.net/logo.gif" in requests.sent, requests.sent


def test_every_kind_of_fetch_is_inert(browser_context, scripting_context, cli, tmp_path):
    """tests/data/offline/every-fetch.eml (every URL a browser fetches or follows, and an
    inline script that loads an image), its page and its SVG document opened by themselves:
    offline nothing is sent and nothing but inert URLs is even asked for, scripting off or on;
    online the page asks the web for a dozen things."""
    message = OFFLINE_DATA / "every-fetch.eml"
    for number, context in enumerate((browser_context, scripting_context)):
        out = tmp_path / f"offline-{number}"
        main = extract(cli, message, out, "offline")
        counts, requests = measure(context, main.as_uri())
        assert_contacts_no_one(requests, out, main)
        # The page still shows what the message holds: its logo (by cid: and by the
        # stylesheet), its stylesheet, its SVG document and its data: image.
        assert counts["main page shows something"] == 1
        assert counts["stylesheets"] >= 1 and counts["images"] >= 2, counts
        _, requests = measure(context, (out / "map.svg").as_uri())
        assert_contacts_no_one(requests, out, "map.svg")
    main = extract(cli, message, tmp_path / "online", "online")
    _, requests = measure(scripting_context, main.as_uri())
    web = [u for u in requests.sent if u.startswith("http")]
    assert len(web) >= 12, web
    assert "https://pixel.example.net/script.gif" in web


@pytest.mark.parametrize("name", ["unchangeable.eml", "svg-entity.eml"])
def test_the_policy_stops_what_was_not_made_inert(browser_context, cli, name, tmp_path):
    """A page whose URLs could not be written back, and an SVG image brought in by an entity,
    keep URLs on the web: Chromium asks for them and the Content-Security-Policy refuses each,
    so that none is sent. Online the same page sends them."""
    out = tmp_path / "offline"
    main = extract(cli, OFFLINE_DATA / name, out, "offline")
    _, requests = measure(browser_context, main.as_uri())
    assert_contacts_no_one(requests, out, main, allow_csp=True)
    refused = [
        u
        for u, failure in requests.outside(out)
        if failure == "csp" and not u.startswith("about:")
    ]
    assert refused, requests.requested
    online = extract(cli, OFFLINE_DATA / name, tmp_path / "online", "online")
    _, requests = measure(browser_context, online.as_uri())
    assert set(refused) <= set(requests.sent), (refused, requests.sent)


def test_the_sample_loads_every_saved_resource(browser_context, cli, tmp_path):
    """The sample's page, its stylesheets and its frame name 7 saved images (4 of them
    backgrounds set by CSS: a stylesheet, an imported one, a `<style>` element, a `style`
    attribute), 3 saved stylesheets and a frame: the extracted page loads them all.
    Chromium opening the archive misses one: it loads the frame as its `cid:` URL, against
    which the frame's relative `<img src>` does not resolve, while `extract` resolves it
    against the frame's Content-Location, its base (RFC 2557 §5)."""
    archive = SAMPLES / "mhtml-stylesheets-frames.eml"
    before, after, _, outside, _, _ = compare(browser_context, cli, archive, tmp_path / "work")
    figures = ["images", "stylesheets", "non-empty frames"]
    assert [before[k] for k in figures] == [6, 3, 1], before
    assert [after[k] for k in figures] == [7, 3, 1], after
    assert not outside


if __name__ == "__main__":
    binary = find_cli()
    scratch = Path(os.environ.get("TMPDIR", "/tmp")) / "mimebase-extract-browser"
    shutil.rmtree(scratch, ignore_errors=True)
    shown = ["images", "stylesheets", "fonts", "non-empty frames"]
    print(
        "file\tmode\t"
        + "\t".join(f"{k} (archive/extracted)" for k in shown)
        + "\tfile: outside OUT\tsent outside OUT\tinert\tother refused by a policy"
    )
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM))
        context = chromium.new_context(java_script_enabled=False)
        for number, path in enumerate(map(Path, sys.argv[1:]) if sys.argv[1:] else archives()):
            for mode in ("offline", "online"):
                work = scratch / f"{number}-{mode}"
                native, extracted, _, beyond, requests, out = compare(
                    context, binary, path, work, mode
                )
                figures = "\t".join(f"{native[k]}/{extracted[k]}" for k in shown)
                inside = out.resolve().as_uri() + "/"
                sent = [u for u in requests.sent if not u.startswith(inside)]
                others = requests.outside(out)
                inert = sum(1 for u, _ in others if u.startswith("about:invalid"))
                refused = sum(
                    1
                    for url, failure in others
                    if failure == "csp" and not url.startswith("about:")
                )
                print(
                    f"{path.name}\t{mode}\t{figures}\t{len(beyond)}\t{len(sent)}\t{inert}\t{refused}",
                    flush=True,
                )
        chromium.close()
