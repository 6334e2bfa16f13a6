"""Type stubs of the ``mimebase`` extension module (see ``help(mimebase)``)."""

import email.message
import os
from typing import (
    Any,
    ClassVar,
    Dict,
    ItemsView,
    Iterable,
    Iterator,
    KeysView,
    List,
    Literal,
    Mapping,
    Optional,
    Tuple,
    Union,
    ValuesView,
    final,
)

__all__ = [
    "__version__",
    "analyze",
    "rewrite",
    "resolve",
    "scan",
    "Report",
    "Entity",
    "Url",
    "Target",
    "Summary",
    "Diagnostic",
    "Record",
    "Scan",
]

__version__: str

# Names for the annotations below only: the module has no such attributes.
_ResolverName = Literal["rfc1808", "rfc3986", "whatwg"]
_ProfileName = Literal["default", "rfc1808", "mhtml"]
_MessageData = Union[bytes, bytearray, memoryview, email.message.Message]
_PathArg = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

# The classes are made by the module only, and cannot be subclassed (@final).
@final
class Entity:
    """One entity: the root message, a body part or an encapsulated message."""

    @property
    def part(self) -> str:
        """IMAP section specification (RFC 3501 section 6.4.5): "HEADER", "1", "2.1", "2.HEADER"."""
    @property
    def kind(self) -> Literal["message", "body_part", "member"]: ...
    @property
    def parent(self) -> Optional[str]:
        """The enclosing entity's part; None for the root."""
    @property
    def content_type(self) -> str:
        """type/subtype, lowercase."""
    @property
    def header(self) -> Tuple[int, int]:
        """Header block: (start, end) byte offsets, 0-based, half-open."""
    @property
    def body(self) -> Tuple[int, int]:
        """Body: (start, end) byte offsets, 0-based, half-open."""
    @property
    def decoded_from(self) -> Optional[str]:
        """The encoded message/rfc822 part whose decoded body header/body index; None for the raw message."""
    @property
    def base(self) -> Optional[str]:
        """The effective base URL of the content; None when there is none."""
    @property
    def base_source(self) -> str:
        """"html:base", "header:Base", "header:Content-Base", "header:Content-Location", "inherited", "retrieval", "thismessage", "attachment" or "none"."""
    @property
    def inherited_from(self) -> Optional[str]:
        """For an inherited base: the part that set it."""
    @property
    def header_base(self) -> Optional[str]:
        """The header-level base (what header URLs resolve against and enclosed entities inherit)."""
    @property
    def header_base_source(self) -> str: ...
    @property
    def document(
        self,
    ) -> Optional[Literal["html", "svg", "text", "pdf", "calendar", "shortcut", "office", "archive"]]:
        """What the body was read as to find its links; None when it holds none a reader reaches."""
    @property
    def document_by(self) -> Optional[Literal["media_type", "file_name", "content"]]:
        """Why the body was read as document: its media type, its file name, or its content."""
    @property
    def attachment(self) -> bool:
        """True for an attachment (Content-Disposition: attachment, chosen by its file name or content, or a file a reader opens)."""
    @property
    def opened(self) -> Optional[Literal["empty", "stated"]]:
        """For an encrypted file that was opened: with the empty password, or one the message states."""
    @property
    def opened_by_part(self) -> Optional[str]:
        """When opened is "stated": the part that states the password."""
    @property
    def password(self) -> Optional[str]:
        """When opened is "stated": the password."""
    @property
    def summary(self) -> Optional[Summary]:
        """An encapsulated message's Summary; None for a body part and for the root (see Report.summary)."""

@final
class Url:
    """One URL found in the message, and its resolution."""

    @property
    def part(self) -> str: ...
    @property
    def source(self) -> str:
        """"header:<Name>", "html:<tag>@<attribute>", "html:style", "svg:<tag>@<attribute>", "svg:style", "text", or "<kind>:<place>" for a link inside a file ("pdf:annot/URI", "calendar:ATTACH", "shortcut:URL", "office:relationship")."""
    @property
    def reference(self) -> str:
        """The URL as written (unfolded / entity-decoded, trimmed)."""
    @property
    def resolved(self) -> Optional[str]:
        """The absolute URL, or None (see unresolved_reason)."""
    @property
    def unresolved_reason(self) -> Optional[Literal["no_base", "resolver_error"]]: ...
    @property
    def error(self) -> Optional[str]:
        """When unresolved_reason is "resolver_error": the resolver's message saying why."""
    @property
    def base(self) -> Optional[str]:
        """The base URL it was resolved against."""
    @property
    def base_source(self) -> str: ...
    @property
    def base_decided(self) -> bool:
        """True when the resolver took any part of the base (a relative or scheme-relative reference)."""
    @property
    def resolver(self) -> _ResolverName: ...
    @property
    def range(self) -> Optional[Tuple[int, int]]:
        """HTML, SVG and text URLs: (start, end) byte offsets, 0-based, half-open, into the part's decoded body (UTF-8); links inside files: into the file, its member, or its page's text."""
    @property
    def field(self) -> Optional[int]:
        """Header URLs: 0-based position of the field in the entity's header block."""
    @property
    def item(self) -> Optional[int]:
        """Header URLs: 0-based position of the URL within its field."""
    @property
    def member(self) -> Optional[str]:
        """Links inside an office document: the container member that holds it, which range indexes."""
    @property
    def object(self) -> Optional[int]:
        """PDF actions: the number of the object that holds the action."""
    @property
    def page(self) -> Optional[int]:
        """PDF links: the page, 1-based."""
    @property
    def target(self) -> Optional[Target]:
        """The entity of this message the URL names (the record's "target"); None when it names none."""
    @property
    def ignored(self) -> Optional[str]:
        """For a <base href> or base header field that does not set the base: why ("not_first", "in_template", "foreign_content", "unusable", "duplicate", "overridden_by:<source>", "not_in_profile"); else None."""
    @property
    def text(self) -> Optional[str]:
        """The href of an HTML a or area: the text a reader sees as the link (at most 256 characters); else None."""
    @property
    def title(self) -> Optional[str]:
        """The title attribute of that a or area; None when it has none."""
    @property
    def text_host_differs(self) -> bool:
        """True when text reads as a URL or host name whose host is not the one the link reaches."""

@final
class Target:
    """The entity of the same message a URL names; equal to a Target with the same part and by."""

    @property
    def part(self) -> str:
        """The part identifier of the entity named, e.g. "1.2"."""
    @property
    def by(self) -> Literal["cid", "mid", "content-location"]:
        """How the URL was matched: its Content-ID (cid:, RFC 2392), a Message-ID (mid:, RFC 2392) or its resolved Content-Location (RFC 2557)."""

@final
class Summary:
    """What a mail client shows at the top of a message: the first Subject, From, Date and Message-ID
    fields (None when missing); equal to a Summary with the same values."""

    @property
    def subject(self) -> Optional[str]:
        """Subject, RFC 2047 decoded."""
    @property
    def from_(self) -> Optional[str]:
        """From, RFC 2047 decoded, otherwise as written (the record's "from")."""
    @property
    def date(self) -> Optional[str]:
        """Date, as written."""
    @property
    def message_id(self) -> Optional[str]:
        """Message-ID, as written."""

@final
class Diagnostic:
    """A problem found in the message (never fatal)."""

    @property
    def part(self) -> Optional[str]: ...
    @property
    def kind(self) -> str: ...
    @property
    def message(self) -> str: ...

@final
class Report:
    """Everything analyze() found in one message."""

    @property
    def message_id(self) -> Optional[str]: ...
    @property
    def summary(self) -> Summary:
        """The root message's Subject, From, Date and Message-ID (the record's "summary")."""
    @property
    def complete(self) -> bool:
        """False when a limit cut the analysis (the diagnostics say which)."""
    @property
    def entities(self) -> List[Entity]: ...
    @property
    def urls(self) -> List[Url]: ...
    @property
    def diagnostics(self) -> List[Diagnostic]: ...
    def to_dict(self) -> Dict[str, Any]:
        """The `mimebase inspect --json` record without "type" and "path"."""
    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> "Report":
        """The Report whose to_dict() is data (an `inspect --json` record read with json.loads will do)."""
    __hash__: ClassVar[None]  # type: ignore[assignment]
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __reduce__(self) -> Tuple[Any, Tuple[Dict[str, Any]]]: ...

@final
class Record(Mapping[str, Any]):
    """One `mimebase scan` record, a read-only mapping equal to the dict json.loads makes of the
    command's line; each value is made into Python objects when it is first read. A path that is
    not UTF-8 has U+FFFD in "path" and its bytes in "path_bytes" (a list of ints 0-255): open the
    file with open(bytes(record["path_bytes"]), "rb")."""

    __hash__: ClassVar[None]  # type: ignore[assignment]
    def __getitem__(self, key: str, /) -> Any: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[str]: ...
    def __contains__(self, key: object, /) -> bool: ...
    def get(self, key: str, default: Any = None) -> Any: ...
    def keys(self) -> KeysView[str]: ...
    def values(self) -> ValuesView[Any]: ...
    def items(self) -> ItemsView[str, Any]: ...
    def to_dict(self) -> Dict[str, Any]:
        """A new dict of new lists and dicts: what json.loads makes of to_json()."""
    def to_json(self) -> str:
        """The record's line of `mimebase scan` (JSON), without the line break."""
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...

@final
class Scan(Iterator[Record]):
    """The iterator scan() returns: one `mimebase scan` record per message, in input order."""

    def __iter__(self) -> "Scan": ...
    def __next__(self) -> Record: ...

def analyze(
    data: _MessageData,
    *,
    retrieval_url: Optional[str] = None,
    resolver: _ResolverName = "rfc1808",
    profile: _ProfileName = "default",
    max_message_bytes: int = 67108864,
    max_urls: int = 100000,
    max_depth: int = 100,
    max_entities: Optional[int] = None,
    max_encoded_levels: int = 4,
    text_links: bool = True,
    file_links: bool = True,
) -> Report:
    """Every entity's base and every URL of one message resolved; raises ValueError for an unknown
    option value, for data larger than max_message_bytes, and for an mbox of more than one message
    (read those with scan)."""

def rewrite(
    data: _MessageData,
    *,
    retrieval_url: Optional[str] = None,
    resolver: _ResolverName = "rfc1808",
    profile: _ProfileName = "default",
    max_message_bytes: int = 67108864,
    max_urls: int = 100000,
    max_depth: int = 100,
    max_entities: Optional[int] = None,
    max_encoded_levels: int = 4,
    text_links: bool = True,
    file_links: bool = True,
) -> bytes:
    """The message with every resolvable relative HTML URL made absolute; all other bytes unchanged.
    Raises ValueError as analyze does (an mbox of more than one message included)."""

def resolve(base: str, reference: str, resolver: _ResolverName = "rfc1808") -> str:
    """The absolute URL; raises ValueError with the reason when the pair cannot be resolved."""

def scan(
    paths: Union[_PathArg, Iterable[_PathArg]],
    *,
    jobs: Optional[int] = None,
    retrieval_url: Optional[str] = None,
    resolver: _ResolverName = "rfc1808",
    profile: _ProfileName = "default",
    max_message_bytes: int = 67108864,
    max_urls: int = 100000,
    max_depth: int = 100,
    max_entities: Optional[int] = None,
    max_encoded_levels: int = 4,
    text_links: bool = True,
    file_links: bool = True,
) -> Scan:
    """One `mimebase scan` record (a read-only mapping) per message found under paths, lazily, in
    input order; jobs above the available cores are lowered to them."""
