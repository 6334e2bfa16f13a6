#!/usr/bin/env python3
"""The entity tree of messages as Python's `email` package parses them, in mimebase's shape.

Usage: email_tree.py [--mbox] FILE...

Prints one JSON object per line and per file, in the order given:

    {"file": FILE, "entities": [{"part": "HEADER", "kind": "message", "parent": null,
                                 "content_type": "multipart/mixed"}, ...]}

A FILE after `--mbox` is an mbox, split by `mailbox.mbox` (at every line that starts with
`From `; it undoes no `>From ` quoting); its line has the entities of each of its messages, in the order of the file, and no
`entities`:

    {"file": FILE, "messages": [[{"part": "HEADER", ...}, ...], ...]}

Entities come in document order (depth first, a parent before its children) and are numbered
as mimebase numbers them (IMAP section specifications, RFC 3501 §6.4.5): the root message is
`HEADER`; the body parts of a multipart entity are `N`, `N.M`, ... under the section of their
parent (the root's section is empty, `2.HEADER`'s is `2`); the message carried by body part `2`
is `2.HEADER`, and the message carried by the body of message entity `X` (a message whose own
type is `message/rfc822`) is `X`'s body part `1`'s message: `HEADER` -> `1.HEADER`,
`2.HEADER` -> `2.1.HEADER`.

The policy is `compat32`, what `email.message_from_bytes` uses when given none: the tree is
built by the same feed parser under every policy, and `compat32` reads header values as they
are written (the `default` policy's header registry re-parses and may re-fold them), which is
the closer model of a lenient mail client. `get_content_type()` applies RFC 2045 §5.2: a value
without exactly one `/` is `text/plain` (`message/rfc822` inside `multipart/digest`).

`email` treats the body of every `message/*` type as a message, except `message/delivery-status`,
whose body it reads as a list of header blocks (RFC 3464 §2.1): those blocks are not MIME
entities, so a delivery status is written here as a leaf, as mimebase has it.
"""

import email
import email.policy
import json
import mailbox
import sys


def section(part):
    if part == "HEADER":
        return ""
    if part.endswith(".HEADER"):
        return part[: -len(".HEADER")]
    return part


def child(part, index):
    prefix = section(part)
    return f"{prefix}.{index}" if prefix else str(index)


def encapsulated(part):
    is_message = part == "HEADER" or part.endswith(".HEADER")
    body = child(part, 1) if is_message else part
    return body + ".HEADER"


def walk(message, part, kind, parent, out):
    content_type = message.get_content_type()
    out.append(
        {"part": part, "kind": kind, "parent": parent, "content_type": content_type}
    )
    if not message.is_multipart() or content_type == "message/delivery-status":
        return
    payload = message.get_payload()
    if message.get_content_maintype() == "message":
        # The feed parser puts the encapsulated message alone in a list.
        for inner in payload[:1]:
            walk(inner, encapsulated(part), "message", part, out)
    else:
        for index, body_part in enumerate(payload, 1):
            walk(body_part, child(part, index), "body_part", part, out)


def entities(data):
    message = email.message_from_bytes(data, policy=email.policy.compat32)
    out = []
    walk(message, "HEADER", "message", None, out)
    return out


def main(arguments):
    is_mbox = False
    for argument in arguments:
        if argument == "--mbox":
            is_mbox = True
            continue
        if is_mbox:
            # The bytes of each message without its `From ` line, parsed as any message is.
            box = mailbox.mbox(argument, create=False)
            messages = [entities(box.get_bytes(key)) for key in box.iterkeys()]
            print(json.dumps({"file": argument, "messages": messages}))
        else:
            with open(argument, "rb") as file:
                data = file.read()
            print(json.dumps({"file": argument, "entities": entities(data)}))
        is_mbox = False


if __name__ == "__main__":
    main(sys.argv[1:])
