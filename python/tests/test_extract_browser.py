"""`mimebase extract` against Chromium: the extracted page shows what the archive shows.

Oracle: Chromium (Debian's ``chromium``, or ``$CHROMIUM``) driven by Playwright, scripting off
as MHTML pages have it, every request that is not a ``file:`` URL aborted (no network). Each
archive is opened twice: natively, as Chromium opens MHTML (a CRLF copy named ``.mhtml``:
Chromium shows an empty page for bare-LF MHTML), and as the main page ``extract`` wrote. For
each, Chromium's resource tree (DevTools ``Page.getResourceTree``, every frame) gives the
distinct images (``<img>`` and CSS backgrounds alike), stylesheets and web fonts it loaded, and each
frame's document tells whether it shows anything. The extracted page must load at least as
many of each and show at least as many non-empty frames, and must request no ``file:`` URL
outside the output directory.

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
from conftest import CORPUS, SAMPLES, find_cli, to_crlf  # noqa: E402

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed (pip install playwright)"
)

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))

# What is counted: resource types of the DevTools protocol's Page.ResourceType.
KINDS = {"Image": "images", "Stylesheet": "stylesheets", "Font": "fonts"}

# Whether a frame's document shows anything: text, or any element in its body.
SHOWS_SOMETHING = """() => !!document.body &&
    (document.body.innerText.trim().length > 0 || document.body.getElementsByTagName('*').length > 0)"""


def archives():
    found = sorted(
        p
        for p in (CORPUS / "messages").rglob("*")
        if p.suffix.lower() in (".mht", ".mhtml")
    )
    found += sorted(
        p
        for p in (CORPUS / "bench").rglob("*")
        if p.suffix.lower() in (".mht", ".mhtml")
    )
    assert len(found) >= 9, f"expected the corpus's nine MHTML files, found {len(found)}"
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


def measure(context, url):
    """What Chromium loads for the page at ``url``: counts by kind, and every URL requested."""
    requested = []
    page = context.new_page()
    page.on("request", lambda request: requested.append(request.url))

    def only_files(route):
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
    return counts, requested


def compare(context, cli, archive, work):
    """Opens ``archive`` and the page ``extract`` writes of it; both counts, the main page
    and the ``file:`` URLs requested outside the output directory."""
    work.mkdir(parents=True)
    native = work / (archive.stem + ".mhtml")
    native.write_bytes(to_crlf(archive.read_bytes()))
    out = work / "out"
    done = subprocess.run(
        [str(cli), "extract", "--dir", str(out), str(archive)], capture_output=True
    )
    assert done.returncode == 0, f"{archive}: {done.stderr!r}"
    main = Path(done.stdout.decode().strip()).resolve()
    assert main.is_file() and main.parent == out.resolve(), main
    before, _ = measure(context, native.as_uri())
    after, requested = measure(context, main.as_uri())
    inside = out.resolve().as_uri() + "/"
    outside = [u for u in requested if u.startswith("file:") and not u.startswith(inside)]
    return before, after, main, outside


@pytest.fixture(scope="module")
def browser_context():
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (Debian's chromium package, or set $CHROMIUM)")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM))
        context = browser.new_context(java_script_enabled=False)
        yield context
        browser.close()


@pytest.mark.parametrize("archive", archives(), ids=lambda p: p.name)
def test_extracted_page_loads_what_the_archive_loads(browser_context, cli, archive, tmp_path):
    before, after, main, outside = compare(browser_context, cli, archive, tmp_path / "work")
    for kind in ("images", "stylesheets", "fonts", "non-empty frames", "main page shows something"):
        assert after[kind] >= before[kind], f"{archive}: {kind}: archive {before}, extracted {after}"
    assert not outside, f"{main}: file: URLs outside the output directory: {outside[:5]}"


def test_the_sample_loads_every_saved_resource(browser_context, cli, tmp_path):
    """The sample's page, its stylesheets and its frame name 7 saved images (4 of them
    backgrounds set by CSS: a stylesheet, an imported one, a `<style>` element, a `style`
    attribute), 3 saved stylesheets and a frame: the extracted page loads them all.
    Chromium opening the archive misses one: it loads the frame as its `cid:` URL, against
    which the frame's relative `<img src>` does not resolve, while `extract` resolves it
    against the frame's Content-Location, its base (RFC 2557 §5)."""
    archive = SAMPLES / "mhtml-stylesheets-frames.eml"
    before, after, _, outside = compare(browser_context, cli, archive, tmp_path / "work")
    figures = ["images", "stylesheets", "non-empty frames"]
    assert [before[k] for k in figures] == [6, 3, 1], before
    assert [after[k] for k in figures] == [7, 3, 1], after
    assert not outside


if __name__ == "__main__":
    binary = find_cli()
    scratch = Path(os.environ.get("TMPDIR", "/tmp")) / "mimebase-extract-browser"
    shutil.rmtree(scratch, ignore_errors=True)
    shown = ["images", "stylesheets", "fonts", "non-empty frames"]
    print("file\t" + "\t".join(f"{k} (archive/extracted)" for k in shown) + "\tfile: outside OUT")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM))
        context = chromium.new_context(java_script_enabled=False)
        for number, path in enumerate(map(Path, sys.argv[1:]) if sys.argv[1:] else archives()):
            native, extracted, _, beyond = compare(context, binary, path, scratch / str(number))
            figures = "\t".join(f"{native[k]}/{extracted[k]}" for k in shown)
            print(f"{path.name}\t{figures}\t{len(beyond)}", flush=True)
        chromium.close()
