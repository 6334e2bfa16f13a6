#!/usr/bin/python3
"""GMime 3's entity tree of messages, in the shape `email_tree.py` writes.

Usage: /usr/bin/python3 gmime_tree.py [--mbox] FILE...

`tests/it/tree_differential.rs` runs it, where GMime's Python bindings can be imported
(Debian: `apt-get install gir1.2-gmime-3.0 python3-gi`, which `.ci/run` does where it can), to
compare our entity trees with GMime's. Same output as `email_tree.py`, one JSON line per file,
with one more key on the entities that are `text/html` leaves (a message whose body is one
included): `html`, the part's content with
its transfer encoding undone (`g_mime_part_get_content`), as UTF-8 (bytes that are not become
U+FFFD). A file GMime reads no message from gets `"entities": null`. A FILE after `--mbox`
is read in GMime's mbox format (`GMIME_FORMAT_MBOX`: a message starts at each `From ` line;
`Content-Length` is not respected, GMime's default), and its line has `messages`, the
entities of each message in the order of the file, in place of `entities`.

GMime names a message's media type by its body (`g_mime_message_get_mime_part`); a
`message/rfc822` part is walked into only when GMime made it a `GMimeMessagePart` (it does not
for a base64 or quoted-printable body, nor for `message/partial` or `message/external-body`).
"""

import json
import os
import sys

import gi

gi.require_version("GMime", "3.0")
from gi.repository import GMime  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from email_tree import child, encapsulated  # noqa: E402


def media_type(obj):
    content_type = obj.get_content_type()
    if content_type is None:
        return "text/plain"
    return f"{content_type.get_media_type()}/{content_type.get_media_subtype()}".lower()


def html_content(obj):
    wrapper = obj.get_content()
    if wrapper is None:
        return ""
    stream = GMime.StreamMem.new()
    wrapper.write_to_stream(stream)
    stream.flush()
    return bytes(stream.get_byte_array()).decode("utf-8", "replace")


def walk(obj, part, kind, parent, out):
    if isinstance(obj, GMime.Message):
        body = obj.get_mime_part()
        entity = {
            "part": part,
            "kind": kind,
            "parent": parent,
            "content_type": media_type(body) if body else "text/plain",
        }
        if isinstance(body, GMime.Part) and entity["content_type"] == "text/html":
            entity["html"] = html_content(body)
        out.append(entity)
        if body is not None:
            walk_body(body, part, out)
    else:
        entity = {"part": part, "kind": kind, "parent": parent, "content_type": media_type(obj)}
        if isinstance(obj, GMime.Part) and entity["content_type"] == "text/html":
            entity["html"] = html_content(obj)
        out.append(entity)
        walk_body(obj, part, out)


def walk_body(obj, part, out):
    if isinstance(obj, GMime.Multipart):
        for index in range(obj.get_count()):
            walk(obj.get_part(index), child(part, index + 1), "body_part", part, out)
    elif isinstance(obj, GMime.MessagePart):
        inner = obj.get_message()
        if inner is not None:
            walk(inner, encapsulated(part), "message", part, out)


def entities(message):
    if message is None:
        return None
    out = []
    walk(message, "HEADER", "message", None, out)
    return out


def main(arguments):
    GMime.init()
    is_mbox = False
    for argument in arguments:
        if argument == "--mbox":
            is_mbox = True
            continue
        parser = GMime.Parser.new_with_stream(GMime.StreamFile.open(argument, "r"))
        if is_mbox:
            parser.set_format(GMime.Format.MBOX)
            messages = []
            while not parser.eos():
                message = parser.construct_message(None)
                if message is None:
                    break
                messages.append(entities(message))
            print(json.dumps({"file": argument, "messages": messages}))
        else:
            parser.set_format(GMime.Format.MESSAGE)
            message = parser.construct_message(None)
            print(json.dumps({"file": argument, "entities": entities(message)}))
        is_mbox = False


if __name__ == "__main__":
    main(sys.argv[1:])
