"""`mimebase inspect --html` in Chromium: the page contacts no one, shows baseStriker's link
highlighted, and looks as the golden screenshot in the docs shows.

Oracle: Chromium (Debian's ``chromium``, or ``$CHROMIUM``) driven by Playwright, the page
opened from a ``file:`` URL with every request watched twice: ``page.on("request")`` sees each
request Chromium makes, and a route for every URL records each one sent on towards the network
and aborts it (the page itself excepted, should Chromium route it). The page must make no
request but for itself, scripting on (as a reader's browser has it) after the page has been
idle for a while, so that late requests (fonts, images) would have been made.

The screenshot: the report of ``samples/basestriker.eml`` (as the docs show it, without
``--all``) at a viewport 1000 CSS pixels wide, device scale 1, the full page, compared with
``docs/images/inspect-report.png``: the same size, and at most ``MAX_DIFFERING`` of the
pixels differing by more than ``CHANNEL_TOLERANCE`` (of 255) in a channel, which absorbs
anti-aliasing that differs between builds of the same fonts and catches a change of layout or colour, and of text beyond a few characters (the text is
``tests/it/html_report.rs``'s business). The page uses the generic font families, which Debian's Chromium
draws with DejaVu Sans and DejaVu Sans Mono (fonts-dejavu-core); with other fonts the size
differs and the test fails, saying so. ``MIMEBASE_BLESS=1`` writes the golden image anew
(then look at it before committing it). Images are compared with Pillow.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import REPO, SAMPLES  # noqa: E402

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed (pip install playwright)"
)

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
BASESTRIKER = SAMPLES / "basestriker.eml"
GOLDEN = REPO / "docs" / "images" / "inspect-report.png"
VIEWPORT = {"width": 1000, "height": 700}
# A pixel differs when one of its channels differs by more than this (of 255).
CHANNEL_TOLERANCE = 48
# The largest share of the pixels that may differ.
MAX_DIFFERING = 0.0002


def write_report(cli, out, *args):
    """``mimebase inspect --html -o OUT ARGS`` run in the repository (so that the page names
    the sample ``samples/…`` wherever the checkout is); ``out``."""
    done = subprocess.run(
        [str(cli), "inspect", "--html", "-o", str(out), *map(str, args)],
        cwd=REPO,
        capture_output=True,
    )
    assert done.returncode == 0, f"inspect --html {args}: {done.stderr!r}"
    assert not done.stdout, done.stdout
    return out


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (Debian's chromium package, or set $CHROMIUM)")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM))
        yield browser
        browser.close()


class Watched:
    """A page opened with its requests watched: ``requested`` (every request Chromium made)
    and ``routed`` (every one sent on to the route, towards the network)."""

    def __init__(self, browser, path):
        self.url = path.resolve().as_uri()
        self.requested = []
        self.routed = []
        self.context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1)
        self.page = self.context.new_page()
        self.page.on("request", lambda request: self.requested.append(request.url))

        def record_and_abort(route):
            self.routed.append(route.request.url)
            if route.request.url == self.url:
                route.continue_()
            else:
                route.abort()

        self.page.route("**/*", record_and_abort)
        self.page.goto(self.url, wait_until="networkidle")
        # Fonts and images are asked for once the page is laid out.
        self.page.wait_for_timeout(500)

    def close(self):
        self.context.close()


def test_the_page_makes_no_request(browser, cli, tmp_path):
    for args in ([BASESTRIKER], ["--all", BASESTRIKER], ["--all", *sorted(SAMPLES.glob("*.eml"))]):
        page = Watched(browser, write_report(cli, tmp_path / "report.html", *args))
        try:
            assert page.requested == [page.url], f"{args}: {page.requested}"
            assert set(page.routed) <= {page.url}, f"{args}: {page.routed}"
            # The page is all there: its footer is shown.
            assert "This page runs no script and loads nothing" in page.page.inner_text("footer")
        finally:
            page.close()


ROWS = """rows => rows.map(row => [
    row.className,
    [...row.cells].map(cell => cell.innerText),
    getComputedStyle(row.cells[0]).backgroundColor,
])"""


def test_basestriker_link_is_highlighted(browser, cli, tmp_path):
    """With ``--all``, so that there are plain rows to compare with: the row of the link that
    the ``<base href>`` sent to the phishing host has the highlight class, says
    ``base-decided`` in words, and is drawn on another background than a plain row; the
    summary shows the message's subject, as ``inspect --json`` gives it."""
    record = json.loads(
        subprocess.run(
            [str(cli), "inspect", "--json", str(BASESTRIKER)], capture_output=True, check=True
        ).stdout
    )
    page = Watched(browser, write_report(cli, tmp_path / "report.html", "--all", BASESTRIKER))
    try:
        rows = page.page.eval_on_selector_all("table.links tbody tr", ROWS)
        assert len(rows) == len(record["urls"]), rows
        bad = [row for row in rows if row[1][2] == "verify/login.html"]
        assert len(bad) == 1, rows
        classes, cells, background = bad[0]
        assert "decided" in classes.split(), bad
        assert cells[3] == "http://phish.example.net/bank.example.com/verify/login.html", cells
        assert "base-decided" in cells[5], cells
        plain = [row for row in rows if not row[0]]
        assert plain, rows
        for _, plain_cells, plain_background in plain:
            assert "base-decided" not in plain_cells[5], plain_cells
            assert background != plain_background, (bad, plain)
        subject = record["summary"]["subject"]
        assert subject and subject in page.page.inner_text("table.summary")
        assert page.requested == [page.url], page.requested
    finally:
        page.close()


def differing_share(fresh, golden):
    """The share of pixels of two images of one size whose channels differ by more than
    ``CHANNEL_TOLERANCE``."""
    from PIL import ImageChops

    difference = ImageChops.difference(fresh.convert("RGB"), golden.convert("RGB"))
    red, green, blue = difference.split()
    largest = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    differing = sum(largest.histogram()[CHANNEL_TOLERANCE + 1 :])
    return differing / (fresh.width * fresh.height)


def test_screenshot_matches_the_golden_image(browser, cli, tmp_path):
    image = pytest.importorskip("PIL.Image", reason="Pillow is not installed (pip install pillow)")
    page = Watched(browser, write_report(cli, tmp_path / "report.html", "samples/basestriker.eml"))
    try:
        shot = tmp_path / "inspect-report.png"
        page.page.screenshot(path=str(shot), full_page=True)
    finally:
        page.close()
    if os.environ.get("MIMEBASE_BLESS") == "1":
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_bytes(shot.read_bytes())
        print(f"wrote {GOLDEN}")
        return
    assert GOLDEN.exists(), f"no {GOLDEN}: run with MIMEBASE_BLESS=1 to write it"
    with image.open(shot) as fresh, image.open(GOLDEN) as golden:
        assert fresh.size == golden.size, (
            f"the screenshot is {fresh.size}, the golden image {golden.size} (other fonts, or "
            f"the page changed; see {shot}, and MIMEBASE_BLESS=1 to write it anew)"
        )
        share = differing_share(fresh, golden)
        assert share <= MAX_DIFFERING, (
            f"{share:.2%} of the pixels differ from {GOLDEN} (at most {MAX_DIFFERING:.2%}); "
            f"see {shot}, and MIMEBASE_BLESS=1 to write it anew"
        )
