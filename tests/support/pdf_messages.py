#!/usr/bin/env python3
"""The URIs that pypdf reads from the PDF files of messages, an oracle independent of
mimebase's MIME and PDF readers: Python's `email` finds the parts (a part is a PDF when its
decoded body has `%PDF-` in its first 1,024 bytes or its file name ends `.pdf`), pypdf reads
the URI actions of every page's link annotations.

Usage: pdf_messages.py MESSAGE[=PASSWORD,...] ...

An encrypted file is decrypted with the empty password, else with each PASSWORD given after
the message's path (the passwords the message states). Prints JSON: {path: {"uris": [...],
"closed": N, "unreadable": N}}, the URIs in the order read, `closed` the encrypted files no
password opened, `unreadable` the files pypdf cannot read at all.
"""

import email
import email.policy
import io
import json
import sys

import pypdf


def uris_of(data, passwords):
    reader = pypdf.PdfReader(io.BytesIO(data), strict=False)
    if reader.is_encrypted and not any(reader.decrypt(p) for p in [""] + passwords):
        return None
    found = []
    for page in reader.pages:
        for annotation in page.get("/Annots") or []:
            action = annotation.get_object().get("/A")
            if action is None:
                continue
            action = action.get_object()
            if action.get("/S") == "/URI" and "/URI" in action:
                uri = action["/URI"]
                found.append(uri.decode("latin-1") if isinstance(uri, bytes) else str(uri))
    return found


def main():
    out = {}
    for arg in sys.argv[1:]:
        path, _, passwords = arg.partition("=")
        passwords = [p for p in passwords.split(",") if p]
        message = email.message_from_binary_file(open(path, "rb"), policy=email.policy.compat32)
        result = {"uris": [], "closed": 0, "unreadable": 0}
        for part in message.walk():
            if part.is_multipart():
                continue
            data = part.get_payload(decode=True) or b""
            name = (part.get_filename() or "").lower()
            if b"%PDF-" not in data[:1024] and not name.endswith(".pdf"):
                continue
            try:
                found = uris_of(data, passwords)
            except Exception:
                result["unreadable"] += 1
                continue
            if found is None:
                result["closed"] += 1
            else:
                result["uris"].extend(found)
        out[path] = result
    print(json.dumps(out))


if __name__ == "__main__":
    main()
