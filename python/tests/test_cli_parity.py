"""The Python API and the `mimebase` command give the same records for every corpus message:
`Report.to_dict()` against `inspect --json` and `urls --json`, `rewrite` against
`mimebase rewrite` byte for byte, `scan` against `mimebase scan`, each with the default options
and with other resolvers, profiles and a retrieval URL. Also: every message of the corpus
(messages/ and bench/) is analyzed and rewritten without an exception, and file names that are
not UTF-8 name their files in `scan` records and in the command's text output."""

import os
import subprocess
import sys

import pytest

import mimebase
from conftest import bench_messages, corpus_messages, corpus_or_skip, ndjson, run_cli, samples


def all_messages():
    """The corpus's messages and the samples; the calling test is skipped when the corpus is
    absent."""
    return corpus_messages() + samples()


OPTION_SETS = [
    {},
    {"resolver": "rfc3986", "profile": "mhtml"},
    {"resolver": "whatwg", "profile": "rfc1808", "retrieval_url": "https://archive.example/m/1"},
]


def cli_flags(options):
    flags = []
    for name, value in options.items():
        flags += ["--" + name.replace("_", "-"), value]
    return flags


def option_id(options):
    return ",".join(f"{k}={v}" for k, v in options.items()) or "defaults"


def report_dict(path, options):
    """What `inspect --json` reports for a file holding one message: `analyze` of its bytes;
    for a file that starts with an mbox `From ` line, which every command reads as an mbox (of
    one message here: its final empty line belongs to the mbox, `>From ` lines are unquoted),
    the report of `scan`'s record, which reads it the same way."""
    raw = path.read_bytes()
    if not raw.startswith(b"From "):
        return mimebase.analyze(raw, **options).to_dict()
    (record,) = list(mimebase.scan([path], jobs=1, **options))
    record = dict(record)  # a record is read-only
    for key in ("type", "path", "format", "offset", "length"):
        del record[key]
    return record


@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_to_dict_equals_inspect_json(cli, options):
    messages = all_messages()
    lines = ndjson(run_cli(cli, "inspect", "--json", *cli_flags(options), *messages))
    assert len(lines) == len(messages)
    from_lines = 0
    for path, line in zip(messages, lines):
        assert line.pop("type") == "message"
        assert line.pop("path") == str(path)
        assert report_dict(path, options) == line, path
        from_lines += path.read_bytes().startswith(b"From ")
    # Both kinds of file are compared.
    assert 0 < from_lines < len(messages)


@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_urls_equal_urls_json(cli, options):
    messages = all_messages()
    lines = ndjson(run_cli(cli, "urls", "--json", *cli_flags(options), *messages))
    expected = []
    for path in messages:
        for url in mimebase.analyze(path.read_bytes(), **options).to_dict()["urls"]:
            expected.append({"type": "url", "path": str(path), **url})
    assert len(expected) > 1000
    assert lines == expected


@pytest.mark.parametrize("options", OPTION_SETS, ids=option_id)
def test_rewrite_is_byte_identical_to_the_cli(cli, options):
    messages = all_messages()
    changed = 0
    for path in messages:
        raw = path.read_bytes()
        ours = mimebase.rewrite(raw, **options)
        assert ours == run_cli(cli, "rewrite", *cli_flags(options), path), path
        changed += ours != raw
    # The comparison covers messages that do change, not only copies of the input.
    assert changed >= 10


@pytest.mark.parametrize("jobs", [1, 3])
def test_scan_equals_the_cli_scan(cli, jobs):
    messages = all_messages()
    roots = [corpus_or_skip("messages"), *samples()]
    expected = ndjson(run_cli(cli, "scan", "--jobs", "1", "--resolver", "whatwg", *roots))
    ours = list(mimebase.scan(roots, jobs=jobs, resolver="whatwg"))
    assert len(ours) == len(expected) >= len(messages)
    assert ours == expected


def test_scan_of_the_bench_corpus_equals_the_cli_scan(cli):
    bench = corpus_or_skip("bench")
    expected = ndjson(run_cli(cli, "scan", "--jobs", "2", bench))
    assert list(mimebase.scan(bench, jobs=2)) == expected


def test_every_corpus_message_is_analyzed_and_rewritten():
    paths = corpus_messages() + bench_messages()
    urls = diagnostics = 0
    for path in paths:
        raw = path.read_bytes()
        report = mimebase.analyze(raw)
        assert isinstance(mimebase.rewrite(raw), bytes)
        assert report.entities and report.entities[0].part == "HEADER", path
        urls += len(report.urls)
        diagnostics += len(report.diagnostics)
        # Attribute access builds every record; to_dict() agrees with it.
        as_dict = report.to_dict()
        assert [u.resolved for u in report.urls] == [u["resolved"] for u in as_dict["urls"]]
        assert [e.base for e in report.entities] == [e["base"]["url"] for e in as_dict["entities"]]
    assert len(paths) > 9000 and urls > 50_000
    print(f"{len(paths)} messages, {urls} URLs, {diagnostics} diagnostics")


def test_every_bench_message_is_scanned():
    records = list(mimebase.scan(corpus_or_skip("bench"), jobs=2))
    assert len(records) == len(bench_messages())
    assert all(r["type"] == "message" for r in records)


def non_utf8_files(tmp_path):
    """`a\\xff.eml` and `a\\xfe.eml` (Latin-1 names, not UTF-8; Linux takes any bytes), each with
    its own base, and `b.eml`; the names as `os.listdir` (the oracle: the file system) gives
    them back."""
    root = os.fsencode(tmp_path)
    for name, base in [(b"a\xff.eml", "ff"), (b"a\xfe.eml", "fe"), (b"b.eml", "b")]:
        with open(os.path.join(root, name), "wb") as f:
            f.write(
                f"Content-Base: http://{base}.example/\nContent-Type: text/html\n\n"
                '<a href="x.html">x</a>\n'.encode()
            )
    assert sorted(os.listdir(root)) == [b"a\xfe.eml", b"a\xff.eml", b"b.eml"]
    return root


def base_of(path: bytes) -> str:
    """The Content-Base written in the file at `path`: what its record must say."""
    with open(path, "rb") as f:
        return f.readline().split(b": ")[1].strip().decode()


@pytest.mark.skipif(sys.platform == "win32", reason="a path is bytes on POSIX systems only")
def test_scan_records_name_non_utf8_files_by_their_bytes(cli, tmp_path):
    root = non_utf8_files(tmp_path)
    # `bytes`, `str` and `os.PathLike` paths all name the directory; a name that is not UTF-8
    # given as `str` with surrogate escapes (as `os.listdir` gives it) or as `bytes` opens its file.
    alone = list(mimebase.scan([os.path.join(root, b"a\xff.eml"), os.path.join(tmp_path, "a\udcfe.eml")]))
    assert [bytes(r["path_bytes"]) for r in alone] == [os.path.join(root, n) for n in (b"a\xff.eml", b"a\xfe.eml")]
    assert [r["type"] for r in alone] == ["message", "message"]
    for given in (tmp_path, str(tmp_path), root):
        records = list(mimebase.scan(given, jobs=1))
        paths = [bytes(r["path_bytes"]) if "path_bytes" in r else os.fsencode(r["path"]) for r in records]
        assert paths == [os.path.join(root, n) for n in (b"a\xfe.eml", b"a\xff.eml", b"b.eml")]
        # Each name given back opens the file the record is about.
        for record, path in zip(records, paths):
            assert record["entities"][0]["base"]["url"] == base_of(path)
        # The lossy `path` is the same for both; `path_bytes` only where it is needed.
        assert records[0]["path"] == records[1]["path"] == os.fsdecode(root) + "/a\ufffd.eml"
        assert list(records[0])[:3] == ["type", "path", "path_bytes"]
        assert "path_bytes" not in records[2]
        assert os.fsdecode(bytes(records[1]["path_bytes"])) == os.path.join(os.fsdecode(root), "a\udcff.eml")
    # The same records as the command's lines, parsed.
    done = subprocess.run([str(cli), "scan", root], capture_output=True, check=True)
    assert records == ndjson(done.stdout)
    assert [r.to_json().encode() for r in records] == done.stdout.splitlines()


@pytest.mark.skipif(sys.platform == "win32", reason="a path is bytes on POSIX systems only")
def test_urls_and_inspect_text_name_non_utf8_files_reversibly(cli, tmp_path):
    root = non_utf8_files(tmp_path)
    names = [b"a\xff.eml", b"a\xfe.eml"]
    done = subprocess.run([str(cli), "urls", "-H", *names], cwd=root, capture_output=True, check=True)
    lines = done.stdout.decode("utf-8").splitlines()
    shown = [line.split("\t")[0] for line in lines]
    assert shown == ["a\\xff.eml"] * 2 + ["a\\xfe.eml"] * 2
    for line in lines:
        name, resolved = line.split("\t")[:2]
        # `\xHH` reads back to the byte, as in a Python bytes literal.
        path = name.encode("ascii").decode("unicode_escape").encode("latin-1")
        assert resolved.startswith(base_of(os.path.join(root, path)))
    done = subprocess.run([str(cli), "inspect", *names], cwd=root, capture_output=True, check=True)
    headings = [l for l in done.stdout.decode("utf-8").splitlines() if l.startswith("== ")]
    assert headings == ["== a\\xff.eml", "== a\\xfe.eml"]
