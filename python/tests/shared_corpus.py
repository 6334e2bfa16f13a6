"""The one gate in front of the test corpus for the Python tests (python/tests and
integrations/rspamd/tests), as tests/support/corpus.rs is for the Rust tests.

The corpus is ``../shared/corpus`` beside the checkout: real mail, saved pages and URL test
vectors that other projects wrote, read in place and never copied into the repository
(CONTRIBUTING.md says what it holds and where each file came from). A fresh clone has none: a
test that needs it is then skipped, the reason naming the missing path (``pytest -rs`` lists
them). With ``MIMEBASE_REQUIRE_CORPUS`` set to anything but empty or ``0``, as ``.ci/run`` does,
a missing corpus fails the test instead.
"""

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO.parent / "shared" / "corpus"
REQUIRE = "MIMEBASE_REQUIRE_CORPUS"


def _absent(path: Path) -> str:
    return f"{path} is absent (see CONTRIBUTING.md)"


def _required() -> bool:
    return os.environ.get(REQUIRE, "") not in ("", "0")


def corpus_or_skip(relative: str = "") -> Path:
    """``CORPUS / relative`` when it exists. When it does not, skips the calling test (or
    fixture), the reason naming the test and the path; under ``MIMEBASE_REQUIRE_CORPUS``, fails
    it."""
    path = CORPUS / relative
    if path.exists():
        return path
    # pytest's summary places a skip where it was raised, here; the test's node id, which pytest
    # puts in PYTEST_CURRENT_TEST for people to read, says which test it was.
    test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0]
    reason = f"{test}: {_absent(path)}" if test else _absent(path)
    if _required():
        pytest.fail(f"{reason}, and {REQUIRE} is set", pytrace=False)
    pytest.skip(reason)


def corpus_cases(relative, files_of):
    """The cases of a parametrized test that come from the corpus, listed when pytest collects
    the module: ``files_of(CORPUS / relative)`` when that path exists; when it does not, one
    case (id ``corpus-absent``) that is skipped, the reason naming the path, so that the
    summary says what was left out. Under ``MIMEBASE_REQUIRE_CORPUS`` an absent path is an
    error of the collection, which fails the run."""
    path = CORPUS / relative
    if path.exists():
        return files_of(path)
    if _required():
        raise FileNotFoundError(f"{_absent(path)}, and {REQUIRE} is set")
    return [pytest.param(path, id="corpus-absent", marks=pytest.mark.skip(reason=_absent(path)))]
