#!/usr/bin/env python3
"""Writes seed corpora for the resolver fuzz targets from the shared URL vectors.

Usage (from the repository root or anywhere):

    python3 fuzz/seed_corpus.py [VECTORS_DIR]

VECTORS_DIR defaults to ../shared/corpus/vectors next to the repository. Every
(base, ref) pair of the *.jsonl files, and the first rows of the *.csv files, become one
file `base '\\n' ref` in fuzz/corpus/resolve_rfc1808, resolve_rfc3986 and resolve_whatwg,
and the same with a selector byte (0, 1, 2) in fuzz/corpus/resolve. The corpus directories
are git-ignored: the vectors stay in ../shared, nothing is copied into the repository.
"""

import csv
import hashlib
import json
import pathlib
import sys

CSV_ROWS = 300  # per CSV file: enough variety, small corpus

fuzz_dir = pathlib.Path(__file__).resolve().parent
vectors = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else fuzz_dir.parent.parent / "shared" / "corpus" / "vectors"

pairs = set()
for path in sorted(vectors.glob("*.jsonl")):
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            case = json.loads(line)
            if isinstance(case.get("base"), str) and isinstance(case.get("ref"), str):
                pairs.add((case["base"], case["ref"]))
for path in sorted(vectors.glob("*.csv")):
    with path.open(encoding="utf-8", newline="") as f:
        for i, row in enumerate(csv.DictReader(f)):
            if i >= CSV_ROWS:
                break
            pairs.add((row["base"], row["relative"]))

# The base ends at the first '\n', so a base containing one cannot be written as a seed.
pairs = sorted((b, r) for b, r in pairs if "\n" not in b)

targets = {"resolve_rfc1808": None, "resolve_rfc3986": None, "resolve_whatwg": None, "resolve": None}
for target in targets:
    (fuzz_dir / "corpus" / target).mkdir(parents=True, exist_ok=True)


def write(target, data):
    name = hashlib.sha1(data).hexdigest()
    (fuzz_dir / "corpus" / target / name).write_bytes(data)


for base, ref in pairs:
    data = base.encode("utf-8") + b"\n" + ref.encode("utf-8")
    for selector, target in enumerate(["resolve_rfc1808", "resolve_rfc3986", "resolve_whatwg"]):
        write(target, data)
        write("resolve", bytes([selector]) + data)

print(f"{len(pairs)} seeds from {vectors} in {fuzz_dir / 'corpus'}")

# The analyze target: every message of ../shared/corpus/messages and of samples/, as it is.
messages = vectors.parent / "messages"
analyze_dir = fuzz_dir / "corpus" / "analyze"
analyze_dir.mkdir(parents=True, exist_ok=True)
count = 0
for path in sorted(list(messages.rglob("*")) + list((fuzz_dir.parent / "samples").glob("*.eml"))):
    if path.is_file() and path.name != "FEATURES.jsonl":
        data = path.read_bytes()
        (analyze_dir / hashlib.sha1(data).hexdigest()).write_bytes(data)
        count += 1
print(f"{count} message seeds in {analyze_dir}")

# The focused targets: small seeds, cut to the -max_len each runs with (CONTRIBUTING.md,
# "Fuzzing"), from samples/, tests/data/ and the smallest messages of the corpus.
import email
import re

MAX_LEN = {"mime_split": 4096, "headers": 2048, "html_scan": 4096, "css": 1024, "rewrite_part": 4096,
           "svg_scan": 4096, "srcdoc": 4096, "text_links": 4096, "extract_policy": 2048}
small = []
for path in sorted(list((fuzz_dir.parent / "samples").glob("*.eml"))
                   + list((fuzz_dir.parent / "tests" / "data").rglob("*.eml"))
                   + [p for p in messages.rglob("*") if p.is_file() and p.name != "FEATURES.jsonl"]):
    if path.is_file() and path.stat().st_size <= 16384:
        small.append(path.read_bytes())
small = small[:400]


def seed(target, data):
    data = data[: MAX_LEN[target]]
    if data:
        (fuzz_dir / "corpus" / target).mkdir(parents=True, exist_ok=True)
        write(target, data)


def text_bodies(raw, subtype):
    """The decoded text/SUBTYPE bodies of a message, as bytes."""
    try:
        message = email.message_from_bytes(raw)
    except Exception:
        return []
    return [part.get_payload(decode=True) or b"" for part in message.walk()
            if part.get_content_type() == "text/" + subtype]


def html_bodies(raw):
    """The decoded text/html bodies of a message, as bytes."""
    try:
        message = email.message_from_bytes(raw)
    except Exception:
        return []
    bodies = []
    for part in message.walk():
        if part.get_content_type() in ("text/html", "application/xhtml+xml"):
            payload = part.get_payload(decode=True)
            if payload:
                bodies.append(payload)
    return bodies


for raw in small:
    seed("mime_split", raw)
    header_end = re.search(rb"\r?\n\r?\n", raw)
    seed("headers", raw[: header_end.end()] if header_end else raw)
    for body in html_bodies(raw):
        seed("html_scan", body)
        # rewrite_part: selector byte (charset, transfer encoding, resolver, line ending)
        # then the body; two selectors per body: UTF-8 8bit rfc1808 LF, and windows-1252
        # 8bit whatwg CRLF.
        seed("rewrite_part", b"\x00" + body)
        seed("rewrite_part", b"\x61" + body)
        # extract_policy: selector byte (even HTML, odd XML), then the page.
        seed("extract_policy", b"\x00" + body)
        for style in re.findall(rb"(?is)<style[^>]*>(.*?)</style>", body):
            seed("css", style)
        for style in re.findall(rb"(?i)style\s*=\s*\"([^\"]*)\"", body):
            seed("css", style)
    # text_links: selector byte (0 plain, 1 flowed, 2 flowed delsp=yes, 3 enriched), then a
    # body: plain bodies as plain and as flowed, enriched ones as enriched.
    for body in text_bodies(raw, "plain"):
        seed("text_links", b"\x00" + body)
        seed("text_links", b"\x02" + body)
    for body in text_bodies(raw, "enriched"):
        seed("text_links", b"\x03" + body)
# And every line of the plain-text link table.
import json
for case in json.loads((fuzz_dir.parent / "tests" / "data" / "text-links.json").read_text())["cases"]:
    seed("text_links", b"\x00" + case["input"].encode())
for css in [b"a{background:url(x.png)}", b"@import url('a.css');", b"b{x:url( \"q\\\"r\" )}",
            b"c{mask:image-set(url(a) 1x)}", b"d{e:url(#clip)}"]:
    seed("css", css)
# svg_scan: the SVG documents of tests/data/svg/, and the SVG elements of the HTML bodies.
for path in sorted((fuzz_dir.parent / "tests" / "data" / "svg").glob("*.svg")):
    seed("svg_scan", path.read_bytes())
    seed("extract_policy", b"\x01" + path.read_bytes())
for raw in small:
    for body in html_bodies(raw):
        for svg in re.findall(rb"(?is)<svg\b.*?</svg>", body):
            seed("svg_scan", svg)
# srcdoc: HTML bodies with an <iframe srcdoc>: the messages written for it, and a few shapes
# (nested, single-quoted, unquoted, references at a URL's ends).
for path in sorted((fuzz_dir.parent / "tests" / "data" / "reach").glob("*.eml")):
    for body in html_bodies(path.read_bytes()):
        if b"srcdoc" in body:
            seed("srcdoc", body)
for html in [b'<iframe srcdoc="<a href=&quot;x&amp;y&quot;>">',
             b"<iframe srcdoc='<base href=\"http://b/\"><img src=\"i\">'>",
             b"<iframe srcdoc=<a&#32;href=z>>",
             b'<iframe srcdoc="<iframe srcdoc=&quot;<a href=&amp;quot;d&amp;quot;>&quot;>">',
             b'<iframe srcdoc="<a href=&#34;&lt;u&gt;&#34;>">']:
    seed("srcdoc", html)
for target in MAX_LEN:
    print(f"{len(list((fuzz_dir / 'corpus' / target).glob('*')))} seeds in fuzz/corpus/{target}")
