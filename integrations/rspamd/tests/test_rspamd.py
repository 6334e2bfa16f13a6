"""The mimebase module on the real rspamd daemon (Debian's rspamd, stock configuration, a local
blocklist of bad hosts as a multimap): what stock rspamd does with each message of
tests/data/filters/, whose one bad link a base decides, and what it does with the module.

The stock column is what Debian's rspamd 3.4 was measured to do (``STOCK_CATCHES`` in
conftest.py): a test fails when it changes, so that the gap the module closes stays shown. With
the module, every bad host is caught by the multimap (rspamd's own rule, reading the URLs the
module added), and the module's informational symbol names it. The whole corpus goes through
both daemons with no error in rspamd's log; the module's failures (no library, no FFI, a message
over ``max_size``, an error inside the library) leave the message scanned as stock rspamd scans
it.
"""

import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from conftest import (
    FILE_MESSAGES,
    FILTER_MESSAGES,
    HEADER_DIR,
    MESSAGES,
    SKIP,
    STOCK_CATCHES,
    STOCK_CATCHES_FILES,
    TESTS,
    corpus_or_skip,
    record,
)
from rspamd_daemon import BAD_HOST_SYMBOL, BAD_URL_SYMBOL, symbol_options

pytestmark = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")

# The shared messages with a bad host (all but the control).
CASES = [m for m in FILTER_MESSAGES if m.bad_host]
CLEAN = next(m for m in FILTER_MESSAGES if m.bad_host is None)

SYMBOL_DECIDED = "MIMEBASE_BASE_DECIDED"
SYMBOL_INCOMPLETE = "MIMEBASE_INCOMPLETE"
SYMBOL_FAIL = "MIMEBASE_FAIL"
SYMBOL_FILE = "MIMEBASE_ATTACHMENT_LINK"
SYMBOL_OPENED = "MIMEBASE_ENCRYPTED_OPENED"
MODULE_SYMBOLS = (SYMBOL_DECIDED, SYMBOL_INCOMPLETE, SYMBOL_FAIL, SYMBOL_FILE, SYMBOL_OPENED)


def by_name(name):
    """The shared message ``name`` (its file's stem)."""
    [message] = [m for m in FILTER_MESSAGES if m.name == name]
    return message


def read(name):
    """One of the rspamd tests' own messages (messages/)."""
    return (MESSAGES / name).read_bytes()


def caught(reply, bad_host):
    """Whether the local blocklist fired on ``bad_host``."""
    return bad_host in (symbol_options(reply, BAD_HOST_SYMBOL) or [])


@pytest.mark.parametrize("message", CASES, ids=[m.name for m in CASES])
def test_stock_and_with_module(stock, with_plugin, message):
    """Stock rspamd misses the bad host unless it is in ``STOCK_CATCHES`` (then it catches it);
    with the module it is caught, and named by the module's symbol as the host of a link a base
    decided (the message's one such link: tests/data/filters/README.md)."""
    plain = stock.scan(message.data)
    found = with_plugin.scan(message.data)
    record(message, "stock", caught(plain, message.bad_host))
    record(message, "module", caught(found, message.bad_host))

    if message.name in STOCK_CATCHES:
        assert symbol_options(plain, BAD_HOST_SYMBOL) == [message.bad_host], plain["symbols"]
        assert plain["action"] == "reject"
    else:
        assert symbol_options(plain, BAD_HOST_SYMBOL) is None, (
            f"stock rspamd now catches {message.name}: update STOCK_CATCHES in conftest.py",
            plain["symbols"],
        )
        assert message.bad_host not in plain.get("urls", []), plain.get("urls")
    assert symbol_options(plain, SYMBOL_DECIDED) is None

    assert symbol_options(found, BAD_HOST_SYMBOL) == [message.bad_host], (message.name, found["symbols"])
    assert found["action"] == "reject", found
    assert symbol_options(found, SYMBOL_DECIDED) == [message.bad_host], found["symbols"]
    assert symbol_options(found, SYMBOL_FAIL) is None
    assert symbol_options(found, SYMBOL_INCOMPLETE) is None


@pytest.mark.parametrize("message", FILE_MESSAGES, ids=[m.name for m in FILE_MESSAGES])
def test_links_inside_files_stock_and_with_module(stock, with_plugin, message):
    """Stock rspamd misses the bad host hidden in the attachment (``STOCK_CATCHES_FILES``, as
    measured); with the module it is caught by the multimap, and named by the module's symbol
    of links inside files. The encrypted PDF is opened with the password its text states, which
    the module's other symbol names (the part that states it)."""
    plain = stock.scan(message.data)
    found = with_plugin.scan(message.data)
    record(message, "stock", caught(plain, message.bad_host))
    record(message, "module", caught(found, message.bad_host))

    if message.name in STOCK_CATCHES_FILES:
        assert symbol_options(plain, BAD_HOST_SYMBOL) == [message.bad_host], plain["symbols"]
    else:
        assert symbol_options(plain, BAD_HOST_SYMBOL) is None, (
            f"stock rspamd now catches {message.name}: update STOCK_CATCHES_FILES in conftest.py",
            plain["symbols"],
        )

    assert symbol_options(found, BAD_HOST_SYMBOL) == [message.bad_host], (message.name, found["symbols"])
    assert found["action"] == "reject", found
    assert symbol_options(found, SYMBOL_FILE) == [message.bad_host], found["symbols"]
    assert found["symbols"][SYMBOL_FILE]["score"] == 0.0
    assert symbol_options(found, SYMBOL_DECIDED) is None
    assert symbol_options(found, SYMBOL_FAIL) is None
    assert symbol_options(found, SYMBOL_INCOMPLETE) is None
    if message.name == "pdf-encrypted":
        assert symbol_options(found, SYMBOL_OPENED) == ["1"], found["symbols"]
    else:
        assert symbol_options(found, SYMBOL_OPENED) is None


def test_clean_message_is_not_flagged(stock, with_plugin):
    plain, found = stock.scan(CLEAN.data), with_plugin.scan(CLEAN.data)
    record(CLEAN, "stock", symbol_options(plain, BAD_HOST_SYMBOL) is not None)
    record(CLEAN, "module", symbol_options(found, BAD_HOST_SYMBOL) is not None)
    for reply in (plain, found):
        assert symbol_options(reply, BAD_HOST_SYMBOL) is None
        assert reply["action"] != "reject"
    # Its link too is the base's doing (informational, score 0): the symbol names the host of
    # its <base href>.
    [base] = re.findall(rb'<base href="([^"]+)"', CLEAN.data)
    assert symbol_options(found, SYMBOL_DECIDED) == [urlsplit(base.decode()).hostname]
    assert found["symbols"][SYMBOL_DECIDED]["score"] == 0.0


def test_basestriker_sample(stock, with_plugin):
    message = (TESTS.parent.parent.parent / "samples" / "basestriker.eml").read_bytes()
    for reply in (stock.scan(message), with_plugin.scan(message)):
        assert symbol_options(reply, BAD_HOST_SYMBOL) == ["phish.example.net"]


def test_image_source_keeps_the_image_flag(stock, with_plugin):
    """rspamd flags an `<img src>` URL as an image, and multimap `type = "url"` leaves images out
    (task:get_urls without images); an image the module adds is treated the same way: listed
    among the task's URLs, not matched by the URL multimap. The same URL as a link is matched."""
    image = "http://bad-image.com/spring/banner.gif"
    absolute = stock.scan(read("image-absolute.eml"))
    assert "bad-image.com" in absolute["urls"]
    assert symbol_options(absolute, BAD_URL_SYMBOL) is None

    relative = read("image-content-base.eml")
    assert "bad-image.com" not in stock.scan(relative).get("urls", [])
    added = with_plugin.scan(relative)
    assert "bad-image.com" in added["urls"]
    assert symbol_options(added, BAD_URL_SYMBOL) is None, "the added image lost rspamd's image flag"
    assert symbol_options(added, SYMBOL_DECIDED) == ["bad-image.com"]

    link = with_plugin.scan(read("anchor-content-base.eml"))
    assert symbol_options(link, BAD_URL_SYMBOL) == [image]


def test_module_logs_that_it_loaded(with_plugin):
    text = "\n".join(with_plugin.log_since(0))
    assert re.search(r"mimebase: libmimebase \S+ loaded from \S+; resolver whatwg, max_size 10485760 bytes", text), (
        with_plugin.log_tail()
    )


# Log lines that are not errors of the scan: the tests point rspamd's resolver at a port where
# nothing answers, so every DNS query fails (DNS lists, SPF, DMARC, ASN, maps fetched over HTTP).
DNS_FAILURE = re.compile(r"query timed out|cannot resolve|DNS (request|query) failed|timeout while")
ERROR_LEVEL = re.compile(r"^\S+ \S+ \[(error|critical|crit|alert|emerg)\]")


def corpus_messages():
    root = corpus_or_skip("messages")
    found = sorted(p for p in root.rglob("*") if p.is_file() and p.name != "FEATURES.jsonl")
    assert len(found) >= 70, f"expected the corpus's 75 messages under {root}, found {len(found)}"
    return found


def scan_all(daemon, paths):
    """Every message through the daemon (four at a time: the worker is asynchronous and DNS
    waits dominate); the replies in order."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(lambda p: daemon.scan(p.read_bytes(), timeout=120), paths))


def scan_errors(lines):
    return [line for line in lines if ERROR_LEVEL.match(line) and not DNS_FAILURE.search(line)]


def test_corpus_scans_without_errors(stock, with_plugin):
    paths = corpus_messages()
    for daemon in (stock, with_plugin):
        offset = daemon.log_size()
        replies = scan_all(daemon, paths)
        for path, reply in zip(paths, replies):
            assert "action" in reply and "error" not in reply, (daemon.name, path, reply)
        lines = daemon.log_since(offset)
        assert scan_errors(lines) == [], (daemon.name, scan_errors(lines))
        if daemon is with_plugin:
            # The module said nothing above info level, and never failed.
            loud = [l for l in lines if "mimebase" in l and not re.search(r"\[(info|debug|notice)\]", l)]
            assert loud == []
            assert not any(symbol_options(r, SYMBOL_FAIL) for r in replies)
        print(f"{daemon.name}: {len(paths)} corpus messages, {len(lines)} log lines, no error")


def test_missing_library_leaves_mail_scanned(daemons, stock):
    missing = daemons.start("missing-library", plugin={"library": "/nonexistent/libmimebase.so.0"})
    text = "\n".join(missing.log_since(0))
    assert "mimebase: cannot load the library /nonexistent/libmimebase.so.0" in text, missing.log_tail()
    assert "module disabled, mail is scanned without it" in text
    for message in CASES:
        reply = missing.scan(message.data)
        assert not set(reply["symbols"]) & set(MODULE_SYMBOLS)
        # As stock rspamd scans it: the blocklist sees rspamd's own links only. (The rest of the
        # reply is compared by nothing: with a resolver that never answers, the symbols of
        # rspamd's DNS checks depend on timing.)
        assert symbol_options(reply, BAD_HOST_SYMBOL) == symbol_options(stock.scan(message.data), BAD_HOST_SYMBOL)


def test_rspamd_without_ffi_leaves_mail_scanned(daemons, stock, library):
    """An rspamd whose Lua has no FFI (built with PUC Lua, not LuaJIT)."""
    no_ffi = daemons.start("no-ffi", plugin={"library": str(library)}, lua_scripts=[TESTS / "no_ffi.lua"])
    text = "\n".join(no_ffi.log_since(0))
    assert "mimebase: LuaJIT FFI is not available in this rspamd" in text, no_ffi.log_tail()
    assert "module disabled, mail is scanned without it" in text
    reply = no_ffi.scan(by_name("content-base").data)
    assert not set(reply["symbols"]) & set(MODULE_SYMBOLS)
    assert symbol_options(reply, BAD_HOST_SYMBOL) is None


def failing_library(directory: Path) -> Path:
    """A libmimebase whose every analysis fails with MIMEBASE_ERROR_INTERNAL, as a panic caught
    at the boundary would (failing_mimebase.c, built now with the system's C compiler)."""
    out = directory / "libmimebase-failing.so"
    subprocess.run(
        ["cc", "-std=c99", "-shared", "-fPIC", "-Wall", "-Wextra", "-Werror", f"-I{HEADER_DIR}", "-o", str(out),
         str(TESTS / "failing_mimebase.c")],
        check=True,
    )
    return out


def test_library_errors_and_size_limit_leave_mail_scanned(daemons, session_dir):
    lib = failing_library(session_dir)
    limit = 600
    failing = daemons.start("failing-library", plugin={"library": str(lib), "max_size": limit})
    small, large = by_name("content-base").data, by_name("rfc822-inherited").data
    assert len(small) <= limit < len(large)

    offset = failing.log_size()
    reply = failing.scan(small)
    assert symbol_options(reply, SYMBOL_FAIL) == ["internal error"]
    assert symbol_options(reply, BAD_HOST_SYMBOL) is None
    assert any("mimebase: mimebase_analyze failed: internal error" in l for l in failing.log_since(offset))

    offset = failing.log_size()
    reply = failing.scan(large)
    # Over max_size, the library is not called (it would have failed): the message is skipped.
    assert symbol_options(reply, SYMBOL_FAIL) == ["too large"]
    assert symbol_options(reply, BAD_HOST_SYMBOL) is None
    assert any(f"over max_size ({limit})" in l for l in failing.log_since(offset))
