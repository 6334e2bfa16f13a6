"""The Python surface: accepted inputs, option errors, resolve, rewrite, scan's arguments and
laziness, the documentation and the typing files."""

import base64
import email
import email.policy
import importlib.util
import inspect
from pathlib import Path

import pytest

import mimebase
from conftest import SAMPLES

MESSAGE = (
    b"Content-Base: http://example.com/news/\r\n"
    b"Content-Type: text/html\r\n\r\n"
    b'<a href="today.html">today</a>'
)


def resolved(report):
    return [u.resolved for u in report.urls]


@pytest.mark.parametrize(
    "wrap",
    [bytes, bytearray, memoryview, lambda b: memoryview(bytearray(b))],
    ids=["bytes", "bytearray", "memoryview", "memoryview-of-bytearray"],
)
def test_every_buffer_type_gives_the_same_report(wrap):
    report = mimebase.analyze(wrap(MESSAGE))
    assert report.to_dict() == mimebase.analyze(MESSAGE).to_dict()
    assert resolved(report) == ["http://example.com/news/", "http://example.com/news/today.html"]


@pytest.mark.parametrize("policy", [email.policy.compat32, email.policy.default])
def test_email_message_is_serialized_with_as_bytes(policy):
    message = email.message_from_bytes(MESSAGE, policy=policy)
    assert mimebase.analyze(message).to_dict() == mimebase.analyze(message.as_bytes()).to_dict()
    assert resolved(mimebase.analyze(message))[-1] == "http://example.com/news/today.html"
    assert mimebase.rewrite(message) == mimebase.rewrite(message.as_bytes())


@pytest.mark.parametrize("value", ["text", 42, None, ["a"]])
def test_other_data_types_raise_type_error(value):
    with pytest.raises(TypeError, match="data: expected bytes, bytearray, memoryview or email.message.Message"):
        mimebase.analyze(value)


@pytest.mark.parametrize("function", [mimebase.analyze, mimebase.rewrite])
@pytest.mark.parametrize(
    "option, value",
    [("resolver", "rfc2396"), ("resolver", ""), ("profile", "RFC1808"), ("profile", "mime")],
)
def test_unknown_option_values_raise_value_error_naming_the_option(function, option, value):
    with pytest.raises(ValueError, match=f"^{option}: unknown value"):
        function(MESSAGE, **{option: value})


def test_scan_rejects_bad_options():
    with pytest.raises(ValueError, match="^jobs: must be at least 1"):
        mimebase.scan([], jobs=0)
    with pytest.raises(ValueError, match="^resolver: unknown value"):
        mimebase.scan([], resolver="x")


# Every keyword (and resolve's positional arguments) with a value of the wrong type and one
# out of range: the error's message starts with the argument's name.
WRONG_TYPES = [
    ("retrieval_url", 5),
    ("retrieval_url", b"http://a/"),
    ("resolver", 1808),
    ("resolver", None),
    ("profile", b"default"),
    ("max_message_bytes", "64M"),
    ("max_message_bytes", 1.5),
    ("max_message_bytes", None),
    ("max_urls", "10"),
    ("max_urls", True),
    ("max_depth", None),
    ("max_depth", 1.0),
    ("max_entities", "10"),
    ("max_encoded_levels", None),
]
OUT_OF_RANGE = [
    ("max_message_bytes", -1),
    ("max_message_bytes", 2**64),
    ("max_urls", -1),
    ("max_urls", 2**64),
    ("max_depth", -1),
    ("max_entities", -1),
    ("max_encoded_levels", -1),
    ("resolver", "RFC1808"),
    ("profile", ""),
]


@pytest.mark.parametrize("function", [mimebase.analyze, mimebase.rewrite])
@pytest.mark.parametrize("option, value", WRONG_TYPES)
def test_an_argument_of_the_wrong_type_raises_type_error_naming_it(function, option, value):
    with pytest.raises(TypeError, match=f"^{option}: expected "):
        function(MESSAGE, **{option: value})


@pytest.mark.parametrize("function", [mimebase.analyze, mimebase.rewrite])
@pytest.mark.parametrize("option, value", OUT_OF_RANGE)
def test_an_argument_out_of_range_raises_value_error_naming_it(function, option, value):
    with pytest.raises(ValueError, match=f"^{option}: "):
        function(MESSAGE, **{option: value})


@pytest.mark.parametrize(
    "option, value, error",
    [(o, v, TypeError) for o, v in WRONG_TYPES]
    + [(o, v, ValueError) for o, v in OUT_OF_RANGE]
    + [("jobs", "2", TypeError), ("jobs", 1.0, TypeError), ("jobs", 0, ValueError), ("jobs", -1, ValueError)],
)
def test_scan_arguments_name_themselves_in_errors(tmp_path, option, value, error):
    with pytest.raises(error, match=f"^{option}: "):
        mimebase.scan([tmp_path], **{option: value})
    with pytest.raises(TypeError, match="^paths: "):
        mimebase.scan(5)
    with pytest.raises(TypeError, match="^paths: "):
        mimebase.scan([tmp_path, 5])


def test_resolve_arguments_name_themselves_in_errors():
    with pytest.raises(TypeError, match="^base: expected str, got bytes"):
        mimebase.resolve(b"http://a/", "b")
    with pytest.raises(TypeError, match="^reference: expected str, got int"):
        mimebase.resolve("http://a/", 5)
    with pytest.raises(TypeError, match="^resolver: expected str, got NoneType"):
        mimebase.resolve("http://a/", "b", resolver=None)
    with pytest.raises(ValueError, match="^resolver: unknown value"):
        mimebase.resolve("http://a/", "b", "x")
    assert mimebase.resolve(base="http://a/b", reference="c", resolver="rfc3986") == "http://a/c"


def test_the_largest_counts_are_accepted():
    assert mimebase.analyze(MESSAGE, max_message_bytes=2**64 - 1, max_urls=0).urls == []
    assert mimebase.analyze(MESSAGE, max_message_bytes=len(MESSAGE)).complete
    with pytest.raises(ValueError, match="^data: "):
        mimebase.analyze(MESSAGE, max_message_bytes=len(MESSAGE) - 1)


def test_reports_compare_by_value_and_pickle():
    import copy
    import json
    import pickle

    report = mimebase.analyze(MESSAGE)
    assert report == mimebase.analyze(MESSAGE)
    assert report != mimebase.analyze(MESSAGE, resolver="whatwg", retrieval_url="http://r/")
    assert report != mimebase.analyze(MESSAGE + b"<a href=x>")
    assert report != report.to_dict() and report != None  # noqa: E711
    with pytest.raises(TypeError):
        hash(report)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(report, protocol))
        assert type(again) is mimebase.Report
        assert again == report and again.to_dict() == report.to_dict()
    assert copy.deepcopy(report) == report
    # from_dict reads what `inspect --json` writes (its "type" and "path" keys ignored).
    line = dict(report.to_dict(), type="message", path="-")
    assert mimebase.Report.from_dict(json.loads(json.dumps(line))) == report
    with pytest.raises(ValueError, match="^data: not a report"):
        mimebase.Report.from_dict({"entities": []})
    with pytest.raises(TypeError, match="^data: not a report"):
        mimebase.Report.from_dict({"entities": object()})


def test_scan_takes_str_bytes_and_path_like_paths(tmp_path):
    import os

    class PathLike:
        def __init__(self, path):
            self.path = path

        def __fspath__(self):
            return self.path

    (tmp_path / "a.eml").write_bytes(MESSAGE)
    path = tmp_path / "a.eml"
    expected = [r.to_dict() for r in mimebase.scan(str(path))]
    for given in [path, os.fsencode(path), PathLike(str(path)), PathLike(os.fsencode(path)), [path], (os.fsencode(path),)]:
        assert [r.to_dict() for r in mimebase.scan(given)] == expected, given


# A message whose body part holds an encapsulated message, base64-encoded, whose HTML body has
# a link: depth 0 the message, 1 the body part, 2 the encapsulated message, 3 its HTML body.
NESTED = (
    b"Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: message/rfc822\n"
    b"Content-Transfer-Encoding: base64\n\n"
    + base64.b64encode(
        b"Content-Base: http://inner.example/\nContent-Type: text/html\n\n<a href=x.html>x</a>\n"
    )
    + b"\n--b--\n"
)


@pytest.mark.parametrize(
    "limits, kind",
    [
        ({"max_depth": 1}, "depth_limit"),
        ({"max_entities": 2}, "entity_limit"),
        ({"max_encoded_levels": 0}, "encoded_level_limit"),
    ],
)
def test_the_entity_limits_are_keyword_arguments(tmp_path, limits, kind):
    inner = ["http://inner.example/", "http://inner.example/x.html"]
    assert resolved(mimebase.analyze(NESTED)) == inner
    report = mimebase.analyze(NESTED, **limits)
    assert resolved(report) == []
    assert kind in [d.kind for d in report.diagnostics]
    assert not report.complete
    assert mimebase.rewrite(NESTED, **limits) == NESTED
    (tmp_path / "m.eml").write_bytes(NESTED)
    [line] = list(mimebase.scan(tmp_path, jobs=1, **limits))
    assert line["urls"] == []
    assert kind in [d["kind"] for d in line["diagnostics"]]


def test_max_urls_leaves_urls_out_with_a_diagnostic_and_rewrite_leaves_the_part(tmp_path):
    raw = MESSAGE + b'<a href="b.html">b</a><a href="c.html">c</a>'
    assert len(mimebase.analyze(raw).urls) == 4
    assert mimebase.analyze(raw).complete
    report = mimebase.analyze(raw, max_urls=2)
    assert not report.complete
    assert report.to_dict()["complete"] is False
    assert resolved(report) == ["http://example.com/news/", "http://example.com/news/today.html"]
    assert [d.kind for d in report.diagnostics] == ["url_limit"]
    assert mimebase.rewrite(raw, max_urls=2) == raw
    assert mimebase.rewrite(raw) != raw
    (tmp_path / "m.eml").write_bytes(raw)
    [line] = list(mimebase.scan(tmp_path, jobs=1, max_urls=2))
    assert len(line["urls"]) == 2
    assert line["complete"] is False
    assert [d["kind"] for d in line["diagnostics"]] == ["url_limit"]


def test_options_change_the_result():
    raw = b"Content-Type: text/html\r\n\r\n<a href='../g'>"
    assert resolved(mimebase.analyze(raw)) == [None]
    report = mimebase.analyze(raw, retrieval_url="http://a/b/c/d")
    assert resolved(report) == ["http://a/b/g"]
    assert report.entities[0].base_source == "retrieval"
    deep = b"Content-Type: text/html\r\n\r\n<a href='../../../g'>"
    assert resolved(mimebase.analyze(deep, retrieval_url="http://a/b/c/d")) == ["http://a/../g"]
    assert resolved(mimebase.analyze(deep, retrieval_url="http://a/b/c/d", resolver="rfc3986")) == [
        "http://a/g"
    ]
    mhtml = mimebase.analyze(b"Content-Location: http://x/y/\r\nBase: http://z/\r\n\r\n", profile="mhtml")
    assert mhtml.entities[0].base == "http://x/y/"
    # A retrieval URL without a scheme is not used, and a diagnostic says so (as in the CLI).
    report = mimebase.analyze(raw, retrieval_url="example.com/x")
    assert resolved(report) == [None]
    assert [d.kind for d in report.diagnostics] == ["unusable_retrieval_url"]


def test_resolve():
    # RFC 1808 §5.1 and RFC 3986 §5.4.1 differ on "..": the tail segment stays in RFC 1808.
    assert mimebase.resolve("http://a/b/c/d;p?q", "../g") == "http://a/b/g"
    assert mimebase.resolve("http://a/b/c/d;p?q", "../../../g") == "http://a/../g"
    assert mimebase.resolve("http://a/b/c/d;p?q", "../../../g", resolver="rfc3986") == "http://a/g"
    assert mimebase.resolve("http://a/b/c/d;p?q", "../../../g", "whatwg") == "http://a/g"
    assert mimebase.resolve("http://a/b/c/d;p?q", "") == "http://a/b/c/d;p?q"


@pytest.mark.parametrize(
    "base, reference, resolver, reason",
    [
        ("no-scheme/", "g", "rfc1808", "base URL has no scheme"),
        ("", "g", "rfc1808", "base URL has no scheme"),
        ("mailto:x", "g", "whatwg", "the URL Standard's parser rejects the reference"),
        ("http://[::1", "g", "whatwg", "the URL Standard's parser rejects the base URL"),
    ],
)
def test_resolve_raises_value_error_with_the_reason(base, reference, resolver, reason):
    with pytest.raises(ValueError, match=reason):
        mimebase.resolve(base, reference, resolver)


def test_resolve_rejects_an_unknown_resolver():
    with pytest.raises(ValueError, match='^resolver: unknown value "rfc2396"'):
        mimebase.resolve("http://a/", "g", resolver="rfc2396")


def test_rewrite_writes_absolute_urls_and_keeps_every_other_byte():
    out = mimebase.rewrite(MESSAGE)
    assert out == MESSAGE.replace(b'"today.html"', b'"http://example.com/news/today.html"')
    untouched = b"Subject: x\r\n\r\nplain text\r\n"
    assert mimebase.rewrite(untouched) == untouched


def test_report_records():
    report = mimebase.analyze((SAMPLES / "forwarded-message.eml").read_bytes())
    assert report.message_id is not None and report.message_id.startswith("<")
    parts = [e.part for e in report.entities]
    assert parts[0] == "HEADER" and any(p.endswith(".HEADER") for p in parts)
    for entity in report.entities:
        assert entity.kind in ("message", "body_part")
        assert 0 <= entity.header[0] <= entity.header[1] <= entity.body[0] <= entity.body[1]
        assert (entity.parent is None) == (entity.part == "HEADER")
    for url in report.urls:
        if url.source.startswith("header:"):
            assert url.range is None and url.field is not None and url.item is not None
        else:
            assert url.range is not None and url.field is None
        assert (url.resolved is None) == (url.unresolved_reason is not None)
    assert "mimebase.Report" in repr(report)
    assert "mimebase.Url" in repr(report.urls[0])


def test_url_target_is_the_part_the_url_names_as_in_the_record():
    data = (SAMPLES / "html-mail-inline-images.eml").read_bytes()
    urls = {u.reference: u for u in mimebase.analyze(data).urls}
    logo = urls["cid:logo.png@01DA0000.5A5A5A5A"].target
    assert (logo.part, logo.by) == ("1.2", "cid")
    assert repr(logo) == '<mimebase.Target part="1.2" by="cid">'
    assert urls["https://tracker.example.net/open.gif?u=42"].target is None
    # A value: equal (and hashing alike) when part and by are.
    again = {u.reference: u for u in mimebase.analyze(data).urls}
    assert again["cid:logo.png@01DA0000.5A5A5A5A"].target == logo
    assert len({logo, again["cid:logo.png@01DA0000.5A5A5A5A"].target}) == 1
    # Every URL's target is its record's "target" (absent when None), for each way of matching.
    seen = set()
    for sample in ("html-mail-inline-images.eml", "mhtml-page.eml", "mid-reference.eml"):
        report = mimebase.analyze((SAMPLES / sample).read_bytes())
        targets = [u.target and {"part": u.target.part, "by": u.target.by} for u in report.urls]
        assert targets == [record.get("target") for record in report.to_dict()["urls"]], sample
        seen.update(u.target.by for u in report.urls if u.target)
    assert seen == {"cid", "content-location", "mid"}


def test_link_text_and_base_decided_are_the_records_fields():
    message = (
        b"Content-Type: text/html\r\n\r\n"
        b'<base href="http://phish.example.net/">'
        b'<a href="login.html" title="Your &amp; bank">Sign <b>in</b></a>'
        b'<a href="http://evil.example.net/">https://bank.example.com</a>'
        b'<img src="x.png"><map><area href="http:area" alt=" Area "></map>'
    )
    urls = {u.reference: u for u in mimebase.analyze(message, resolver="whatwg").urls}
    login = urls["login.html"]
    assert (login.text, login.title, login.base_decided, login.text_host_differs) == (
        "Sign in",
        "Your & bank",
        True,
        False,
    )
    evil = urls["http://evil.example.net/"]
    assert (evil.text, evil.title, evil.base_decided, evil.text_host_differs) == (
        "https://bank.example.com",
        None,
        False,
        True,
    )
    # An image has no link text; `http:area` takes the base's host under the URL Standard.
    assert (urls["x.png"].text, urls["x.png"].base_decided) == (None, True)
    area = urls["http:area"]
    assert (area.text, area.resolved, area.base_decided) == ("Area", "http://phish.example.net/area", True)
    # The attributes are the record's fields (absent ones are None or False).
    report = mimebase.analyze(message, resolver="whatwg")
    for url, record in zip(report.urls, report.to_dict()["urls"]):
        assert url.base_decided == record["base_decided"]
        assert (url.text, url.title) == (record.get("text"), record.get("title"))
        assert url.text_host_differs == record.get("text_host_differs", False)


def test_resolver_error_message_is_an_attribute():
    message = (
        b"Content-Base: http://example.com/\r\nContent-Type: text/html\r\n\r\n"
        b'<a href="http://[::1/x">x</a><a href="ok.html">ok</a>'
    )
    urls = mimebase.analyze(message, resolver="whatwg").urls
    refused = [u for u in urls if u.reference == "http://[::1/x"]
    assert len(refused) == 1
    assert refused[0].unresolved_reason == "resolver_error"
    assert refused[0].error == "the URL Standard's parser rejects the reference: invalid IPv6 address"
    # The same message as the record's dictionary form, and none on a resolved URL.
    assert mimebase.analyze(message, resolver="whatwg").to_dict()["urls"][1]["error"] == refused[0].error
    assert [u.error for u in urls if u.resolved is not None] == [None, None]


def test_diagnostics():
    report = mimebase.analyze(b"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n\r\nx\r\n")
    kinds = [(d.part, d.kind) for d in report.diagnostics]
    assert ("HEADER", "missing_close_delimiter") in kinds
    assert all(d.message and not d.message.endswith(".") for d in report.diagnostics)


def test_scan_takes_one_path_or_an_iterable_and_is_lazy(tmp_path):
    (tmp_path / "a.eml").write_bytes(MESSAGE)
    (tmp_path / "b.eml").write_bytes(b"Subject: b\r\n\r\n")
    one = list(mimebase.scan(tmp_path / "a.eml"))
    assert [r["path"] for r in one] == [str(tmp_path / "a.eml")]
    assert list(mimebase.scan(str(tmp_path / "a.eml"))) == one
    records = mimebase.scan(tmp_path, jobs=1)
    (tmp_path / "c.eml").write_bytes(b"Subject: c\r\n\r\n")  # found: the walk starts on next()
    assert [Path(r["path"]).name for r in records] == ["a.eml", "b.eml", "c.eml"]
    generator = (p for p in [tmp_path / "b.eml", tmp_path / "missing.eml"])
    records = list(mimebase.scan(generator, jobs=2))
    assert [r["type"] for r in records] == ["message", "error"]
    assert records[1]["kind"] == "read" and records[1]["format"] is None


def test_scan_iterator_can_be_dropped_early(tmp_path):
    for i in range(200):
        (tmp_path / f"{i:03}.eml").write_bytes(MESSAGE)
    records = mimebase.scan(tmp_path, jobs=4)
    assert next(records)["path"].endswith("000.eml")
    del records  # the threads stop; nothing hangs


def test_scan_records_are_read_only_mappings_equal_to_the_cli_line(tmp_path):
    import collections.abc
    import json

    (tmp_path / "a.eml").write_bytes(MESSAGE)
    [record, error] = mimebase.scan([tmp_path / "a.eml", tmp_path / "missing.eml"], jobs=1)
    line = json.loads(record.to_json())
    assert record == line and line == record and not record != line
    assert record.to_dict() == line and dict(record) == line and type(record.to_dict()) is dict
    assert list(record) == list(record.keys()) == list(line) and len(record) == len(line) == 11
    assert record["complete"] is True
    assert list(record.items()) == list(line.items())
    assert list(record.values()) == list(line.values())
    assert record["type"] == "message" and record.get("type") == "message"
    assert [u["resolved"] for u in record["urls"]] == [
        "http://example.com/news/",
        "http://example.com/news/today.html",
    ]
    assert record["urls"] is record["urls"]  # made once
    assert "urls" in record and "kind" not in record and 0 not in record
    assert record.get("kind") is None and record.get("kind", 7) == 7
    with pytest.raises(KeyError):
        record["kind"]
    with pytest.raises(TypeError):
        record["type"] = "x"
    with pytest.raises(TypeError):
        hash(record)
    assert isinstance(record, collections.abc.Mapping) and not isinstance(record, dict)
    assert record != {**line, "path": "other"} and record != dict(line, extra=1) and record != 1
    assert record != error and record == next(iter(mimebase.scan(tmp_path / "a.eml")))
    assert repr(record).startswith("<mimebase.Record type='message' path=") and "urls=2" in repr(record)
    assert list(error) == ["type", "path", "format", "offset", "length", "kind", "message"]
    assert error == json.loads(error.to_json()) and error["kind"] == "read"
    assert "kind='read'" in repr(error)


def test_scan_jobs_beyond_the_cores_are_lowered_to_them(tmp_path):
    import time

    for i in range(20):
        (tmp_path / f"{i:02}.eml").write_bytes(MESSAGE)
    one = [r.to_json() for r in mimebase.scan(tmp_path, jobs=1)]
    for jobs in (4000, 65535):
        started = time.monotonic()
        assert [r.to_json() for r in mimebase.scan(tmp_path, jobs=jobs)] == one
        assert time.monotonic() - started < 10


def test_scan_passes_over_dangling_links_in_order(tmp_path):
    (tmp_path / "a.eml").write_bytes(MESSAGE)
    (tmp_path / "b.eml").symlink_to(tmp_path / "gone.eml")
    (tmp_path / "c.eml").write_bytes(MESSAGE)
    for jobs in (1, 2):
        assert [Path(r["path"]).name for r in mimebase.scan(tmp_path, jobs=jobs)] == ["a.eml", "c.eml"]


def test_scan_too_large_message(tmp_path):
    (tmp_path / "big.eml").write_bytes(MESSAGE)
    [record] = mimebase.scan(tmp_path, max_message_bytes=10)
    assert (record["type"], record["kind"], record["length"]) == ("error", "too_large", len(MESSAGE))
    # Said in the library's terms: no command-line option, which Python does not take.
    assert record["message"] == (
        f"the message has {len(MESSAGE)} bytes, more than the size limit of 10 bytes"
    )


# Two messages, the second starting at a `From ` line after an empty line: Python's
# `mailbox.mbox` finds 2 messages in it (checked in the test).
TWO_MBOX = (
    b"From a@example.com Mon Jan  1 00:00:00 2024\n"
    b"Content-Base: http://first.example/\nContent-Type: text/html\n\n"
    b'<a href="x.html">x</a>\n'
    b"\n"
    b"From b@example.com Mon Jan  1 00:00:01 2024\n"
    b"Content-Type: text/html\n\n"
    b'<a href="y.html">y</a>\n'
)
# One message with a leading `From ` line and, in its header, the From field in the obsolete
# syntax of RFC 5322 section 4.5.2 (`From :`), which is not a separator there: GMime keeps it in
# the header (see src/mailbox/mbox.rs); the command reads the whole as one message.
ONE_MBOX = (
    b"From a@example.com Mon Jan  1 00:00:00 2024\n"
    b"From : a@example.com\n"
    b"Content-Base: http://first.example/\nContent-Type: text/html\n\n"
    b'<a href="x.html">x</a>\n'
)


def mbox_count(tmp_path, data):
    """How many messages Python's `mailbox.mbox` (the oracle) finds in `data`."""
    import mailbox

    path = tmp_path / "oracle.mbox"
    path.write_bytes(data)
    box = mailbox.mbox(str(path), create=False)
    try:
        return len(box.keys())
    finally:
        box.close()


@pytest.mark.parametrize("function", [mimebase.analyze, mimebase.rewrite])
def test_an_mbox_of_several_messages_raises_value_error_pointing_at_scan(tmp_path, function):
    assert mbox_count(tmp_path, TWO_MBOX) == 2
    for data in (TWO_MBOX, bytearray(TWO_MBOX), TWO_MBOX.replace(b"\n", b"\r\n")):
        with pytest.raises(ValueError, match=r"^data: an mbox of more than one message.*scan"):
            function(data)
    # A body line that starts with `From ` starts a message for every mbox reader (Python's
    # `mailbox.mbox` finds 2 here), so these bytes are two messages too.
    body_from = b"From a Mon Jan  1 00:00:00 2024\nSubject: s\n\nline\nFrom here on\n"
    assert mbox_count(tmp_path, body_from) == 2
    with pytest.raises(ValueError, match="scan"):
        function(body_from)
    # What `scan` gives for the same bytes: two messages, each with its own base.
    (tmp_path / "two.mbox").write_bytes(TWO_MBOX)
    records = list(mimebase.scan(tmp_path / "two.mbox"))
    assert [[u["resolved"] for u in r["urls"]] for r in records] == [
        ["http://first.example/", "http://first.example/x.html"],
        [None],
    ]


def test_one_message_with_a_leading_from_line_is_read_as_one(tmp_path):
    # Python's `mailbox.mbox` reads the obsolete `From :` field as a second message (the
    # disagreement src/mailbox/mbox.rs documents); GMime keeps it in the header, as mimebase.
    assert mbox_count(tmp_path, ONE_MBOX) == 2
    simple = ONE_MBOX.replace(b"From : a@example.com\n", b"")
    assert mbox_count(tmp_path, simple) == 1
    for data in (ONE_MBOX, simple):
        report = mimebase.analyze(data)
        assert resolved(report) == ["http://first.example/", "http://first.example/x.html"]
        (tmp_path / "one.mbox").write_bytes(data)
        [record] = mimebase.scan(tmp_path / "one.mbox")
        assert report.to_dict() == {k: v for k, v in record.items() if k in report.to_dict()}
        assert mimebase.rewrite(data) == data.replace(b'"x.html"', b'"http://first.example/x.html"')


@pytest.mark.parametrize("function", [mimebase.analyze, mimebase.rewrite])
def test_data_over_max_message_bytes_raises_value_error(function):
    function(MESSAGE, max_message_bytes=len(MESSAGE))
    with pytest.raises(ValueError, match=rf"^data: the message has {len(MESSAGE)} bytes, more than max_message_bytes \({len(MESSAGE) - 1} bytes\)"):
        function(MESSAGE, max_message_bytes=len(MESSAGE) - 1)
    # The limit is checked before the mbox split: an mbox over it says it is too large.
    with pytest.raises(ValueError, match="more than max_message_bytes"):
        function(TWO_MBOX, max_message_bytes=10)
    assert inspect.signature(function).parameters["max_message_bytes"].default == 64 * 1024 * 1024


def test_documentation():
    assert "RFC 1808" in mimebase.__doc__
    for function in (mimebase.analyze, mimebase.rewrite, mimebase.resolve, mimebase.scan):
        assert function.__doc__ and len(function.__doc__) > 200, function
    assert str(inspect.signature(mimebase.analyze)) == (
        "(data, *, retrieval_url=None, resolver='rfc1808', profile='default', "
        "max_message_bytes=67108864, max_urls=100000, max_depth=100, max_entities=None, "
        "max_encoded_levels=4, text_links=True, file_links=True)"
    )
    assert "html:base" in mimebase.Entity.base_source.__doc__
    assert "0-based" in mimebase.Url.range.__doc__


def test_typing_files_are_installed():
    package = Path(importlib.util.find_spec("mimebase").origin).parent
    assert (package / "py.typed").is_file()
    stub = next(package.glob("*.pyi")).read_text()
    assert "def analyze(" in stub and "class Report" in stub


def test_analyze_releases_the_gil():
    """Not a timing: with a switch interval far longer than the analysis, a thread that kept
    the GIL inside analyze() would let the main thread run only after it returned. Here the
    main thread must run while the worker is inside the engine."""
    import sys
    import threading

    links = b"".join(b'<a href="p/%d.html">x</a>\r\n' % i for i in range(200_000))
    big = b"Content-Base: http://example.com/\r\nContent-Type: text/html\r\n\r\n" + links
    inside, done = threading.Event(), threading.Event()

    def worker():
        inside.set()
        mimebase.analyze(big)
        done.set()

    interval = sys.getswitchinterval()
    sys.setswitchinterval(30.0)
    try:
        thread = threading.Thread(target=worker)
        thread.start()
        inside.wait()
        spins = 0
        while not done.is_set() and spins < 1_000:
            spins += 1
        thread.join(60)
    finally:
        sys.setswitchinterval(interval)
    assert spins > 0 and not thread.is_alive()


LINKS_BEYOND_HTML = (
    b"Content-Base: http://base.example/\n"
    b"Content-Type: multipart/mixed; boundary=b\n\n"
    b"--b\nContent-Type: text/plain\n\nSee www.example.com or mail joe@example.net.\n"
    b"--b\nContent-Type: application/octet-stream; name=\"invoice.html\"\n\n"
    b"<a href=\"login\">x</a><a href=\"https://e.example/\">e</a>\n"
    b"--b--\n"
)


def test_plain_text_links_and_attachments_read_by_name():
    report = mimebase.analyze(LINKS_BEYOND_HTML)
    text = [u for u in report.urls if u.source == "text"]
    assert [(u.reference, u.resolved, u.base_source) for u in text] == [
        ("www.example.com", "http://www.example.com", "none"),
        ("joe@example.net", "mailto:joe@example.net", "none"),
    ]
    body = LINKS_BEYOND_HTML.split(b"\n\n")[2]
    for url in text:
        start, end = url.range
        assert body[start:end].decode() == url.reference
    documents = {e.part: (e.document, e.document_by, e.attachment) for e in report.entities}
    assert documents == {
        "HEADER": (None, None, False),
        "1": ("text", "media_type", False),
        "2": ("html", "file_name", True),
    }
    page = {u.reference: (u.resolved, u.unresolved_reason, u.base_source) for u in report.urls if u.part == "2"}
    # Opened from a temporary file: a relative reference reaches no network address.
    assert page == {
        "login": (None, "no_base", "attachment"),
        "https://e.example/": ("https://e.example/", None, "attachment"),
    }
    # rewrite leaves attachments as they are.
    assert mimebase.rewrite(LINKS_BEYOND_HTML) == LINKS_BEYOND_HTML


def test_text_links_can_be_left_out():
    report = mimebase.analyze(LINKS_BEYOND_HTML, text_links=False)
    assert not [u for u in report.urls if u.source == "text"]
    assert [e.document for e in report.entities] == [None, None, "html"]
    with pytest.raises(TypeError, match="^text_links: expected bool, got int"):
        mimebase.analyze(LINKS_BEYOND_HTML, text_links=1)


def test_summary_of_the_message_and_of_an_encapsulated_one():
    data = (SAMPLES / "forwarded-message.eml").read_bytes()
    report = mimebase.analyze(data)
    # Python's email package is the oracle of which fields a message has, and what they say.
    message = email.message_from_bytes(data, policy=email.policy.default)
    summary = report.summary
    assert (summary.subject, summary.from_, summary.date, summary.message_id) == (
        str(message["Subject"]),
        str(message["From"]),
        str(message["Date"]),
        str(message["Message-ID"]),
    )
    assert summary.message_id == report.message_id
    dict_summary = report.to_dict()["summary"]
    assert dict_summary == {
        "subject": summary.subject,
        "from": summary.from_,
        "date": summary.date,
        "message_id": summary.message_id,
    }
    inner = [e for e in report.entities if e.part == "2.HEADER"][0]
    forwarded = message.get_payload()[1].get_payload()[0]
    assert inner.summary.subject == str(forwarded["Subject"])
    assert [e.summary for e in report.entities if e.part != "2.HEADER"] == [None, None, None]
    assert "mimebase.Summary" in repr(summary)


def test_summary_decodes_encoded_words_and_says_none_for_missing_fields():
    data = (
        b"Subject: =?utf-8?q?Caf=C3=A9?= =?iso-8859-1?q?_=E9t=E9?=\r\n"
        b"From: =?utf-8?b?QmFuaw==?= <a@b.example>\r\n\r\nbody\r\n"
    )
    summary = mimebase.analyze(data).summary
    decoded = email.message_from_bytes(data, policy=email.policy.default)
    assert summary.subject == str(decoded["Subject"]) == "Café été"
    assert summary.from_ == "Bank <a@b.example>"
    assert (summary.date, summary.message_id) == (None, None)
    assert summary == mimebase.analyze(data).summary
    assert len({summary, mimebase.analyze(data).summary}) == 1


def test_ignored_bases_are_the_records_ignored(tmp_path):
    data = (SAMPLES / "base-after-links.eml").read_bytes()
    report = mimebase.analyze(data)
    ignored = [(u.reference, u.ignored) for u in report.urls if u.ignored is not None]
    assert ignored == [("http://evil.example.net/phish/", "not_first")]
    assert [u.ignored for u in report.urls] == [r.get("ignored") for r in report.to_dict()["urls"]]
    # The same in a scan record, with the summary.
    path = tmp_path / "m.eml"
    path.write_bytes(data)
    (record,) = mimebase.scan(path)
    assert [r.get("ignored") for r in record["urls"]] == [u.ignored for u in report.urls]
    assert record["summary"] == report.to_dict()["summary"]
    assert record["summary"]["subject"] == "This week's deals"


FILE_MESSAGES = Path(__file__).resolve().parent.parent.parent / "tests" / "data" / "filters" / "files"


def test_links_inside_files_are_records_with_where_they_are():
    """The filters' messages of links inside files (tests/data/filters/files/): each link's
    record says the file's kind and place; the encrypted PDF's entity says how it was opened."""
    pdf = mimebase.analyze((FILE_MESSAGES / "pdf-encrypted.eml").read_bytes())
    entity = pdf.entities[2]
    assert (entity.document, entity.document_by, entity.attachment) == ("pdf", "content", True)
    assert (entity.opened, entity.opened_by_part, entity.password) == ("stated", "1", "7214")
    [link] = [u for u in pdf.urls if u.source.startswith("pdf:")]
    assert (link.source, link.resolved, link.page) == (
        "pdf:annot/URI",
        "https://bad-encrypted-pdf-example.com/acesso",
        1,
    )
    assert link.object is not None and link.member is None
    assert pdf.to_dict()["entities"][2]["opened"] == {"with": "stated", "part": "1", "password": "7214"}

    docx = mimebase.analyze((FILE_MESSAGES / "docx-hyperlink.eml").read_bytes())
    [link] = [u for u in docx.urls if u.source.startswith("office:")]
    assert (link.source, link.member, link.resolved) == (
        "office:relationship",
        "word/_rels/document.xml.rels",
        "https://bad-docx-example.com/share",
    )
    assert link.range is not None and link.page is None

    archive = mimebase.analyze((FILE_MESSAGES / "zip-html.eml").read_bytes())
    member = archive.entities[3]
    assert (member.part, member.kind, member.parent, member.document) == (
        "2!/scans/index.html",
        "member",
        "2",
        "html",
    )
    assert entity.opened is not None and archive.entities[2].opened is None


def test_file_links_can_be_left_out():
    data = (FILE_MESSAGES / "zip-html.eml").read_bytes()
    report = mimebase.analyze(data, file_links=False)
    assert [e.kind for e in report.entities] == ["message", "body_part", "body_part"]
    assert report.entities[2].document is None
    assert not [u for u in report.urls if u.part.startswith("2")]
    with pytest.raises(TypeError, match="^file_links: expected bool, got int"):
        mimebase.analyze(data, file_links=1)
