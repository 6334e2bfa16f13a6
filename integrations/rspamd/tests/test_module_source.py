"""The module's FFI declarations against the library's header: LuaJIT cannot read the header
(it has no preprocessor), so mimebase.lua repeats the declarations it uses, and this test checks
that each is written exactly as in capi/include/mimebase.h (comments and spacing aside). A
changed signature or struct in the header fails here before it corrupts memory in a worker."""

import re

from conftest import HEADER_DIR, TESTS

MODULE = TESTS.parent / "mimebase.lua"


def normalized(c_text):
    """C text without comments, with every run of whitespace one space, and none around
    punctuation."""
    c_text = re.sub(r"/\*.*?\*/", " ", c_text, flags=re.S)
    c_text = re.sub(r"//[^\n]*", " ", c_text)
    c_text = re.sub(r"\s+", " ", c_text)
    return re.sub(r"\s*([{}();,*])\s*", r"\1", c_text).strip()


def module_declarations():
    source = MODULE.read_text()
    [block] = re.findall(r"local cdef = \[\[\n(.*?)\]\]", source, flags=re.S)
    # One declaration per top-level statement: split at each `;` outside braces.
    statements, depth, current = [], 0, ""
    for char in normalized(block):
        current += char
        depth += {"{": 1, "}": -1}.get(char, 0)
        if char == ";" and depth == 0:
            statements.append(current)
            current = ""
    assert current == ""
    return statements


def test_module_declarations_match_the_header():
    header = normalized((HEADER_DIR / "mimebase.h").read_text())
    declarations = module_declarations()
    assert len(declarations) >= 15
    missing = [d for d in declarations if d not in header]
    assert missing == [], "declarations of mimebase.lua not written so in mimebase.h"


def test_every_library_function_the_module_calls_is_declared():
    source = MODULE.read_text()
    called = set(re.findall(r"lib\.(mimebase_\w+)", source))
    declared = {m for d in module_declarations() for m in re.findall(r"(mimebase_\w+)\(", d)}
    assert called and called <= declared, called - declared
