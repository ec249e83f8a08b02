"""Type stubs of chaff's compiled module (re-exported by ``chaff``)."""

import os
from typing import Any, Literal, Sequence, TypedDict, overload

__version__: str

Output = Literal["cleaned", "text", "keep-tags"]

class ChaffError(ValueError):
    """Bad input: a malformed rules file (the message names file, line and column), an invalid rule,
    too few documents to mine. The message is the one the ``chaff`` command line prints."""

class BatchError(ChaffError):
    """Some documents of a ``clean_many`` batch could not be cleaned (None or a number instead of a
    document, binary bytes, a source with no source= or url=, an unusable rules file): the others were.
    Raised at the batch's end; the message names the first few."""

    results: list[Any]
    """Every result, in the order of the documents: None where a document failed."""
    errors: list[tuple[int, str]]
    """The failures: each document's index in the batch and why."""

Doc = str | bytes | bytearray
"""A document: a ``str`` (an unpaired surrogate, as ``json.loads`` makes of ``"\\ud800"``, is read as
U+FFFD, with a ``UserWarning``), or its bytes, read as ``chaff clean`` reads a file (a byte order mark,
UTF-8, the encoding an HTML page declares, else a detector's guess) and cleaned into the bytes it writes
(in the document's encoding; a legacy page's ``output="text"`` in UTF-8)."""

class Span(TypedDict):
    """A removed span. ``start``/``end`` are UTF-8 byte offsets (as ``chaff clean --explain``);
    ``char_start``/``char_end`` index the Python string: ``doc[char_start:char_end]`` was removed."""

    start: int
    end: int
    char_start: int
    char_end: int
    kind: Literal["removed", "cut-before", "cut-after", "kept"]
    rules: list[str]
    stages: list[str]

class Rules:
    """A source's rules file, loaded or mined. Immutable; safe to share between threads; pickles as the
    rules file's text."""

    @staticmethod
    def load(path: str | os.PathLike[str]) -> Rules:
        """Loads a rules file, as ``chaff clean --rules PATH`` does. Raises ChaffError (file:line:col).
        Keys chaff does not read (a misspelled ``stauts``) are each a ``UserWarning`` (file:line:col), as
        the command line warns."""
    @staticmethod
    def from_toml(text: str, name: str = "<string>") -> Rules:
        """Rules from the text of a rules file; ``name`` stands for the file in error messages and
        warnings."""
    def to_toml(self) -> str:
        """The rules file's text, as ``save`` writes it."""
    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the rules file atomically."""
    @property
    def source(self) -> str: ...
    @property
    def tokenizer(self) -> Literal["text", "html"]: ...
    @property
    def input(self) -> Literal["text", "html"]:
        """The kind of the source's documents; HTML is mined and cleaned on its page view."""
    @property
    def documents(self) -> int:
        """Documents the rules were mined from."""
    def rule_ids(self, *, include_pending: bool = False) -> list[str]:
        """Ids of the rules that clean: accepted, and with include_pending the pending ones at or above
        the chosen cutoff."""
    def __len__(self) -> int: ...
    @overload
    def clean(self, doc: str, *, include_pending: bool = False, output: Output = "cleaned") -> str: ...
    @overload
    def clean(self, doc: bytes | bytearray, *, include_pending: bool = False, output: Output = "cleaned") -> bytes:
        """The document without its template, as ``chaff clean`` writes it: a ``str`` for a ``str``,
        bytes for bytes (see ``Doc``). ``include_pending`` is ``--include-pending``; ``output`` "text" /
        "keep-tags" are ``--text`` / ``--keep-tags`` (HTML rules only; with text rules they change
        nothing). Neither str nor bytes: TypeError; binary bytes (NUL): ChaffError."""
    def clean_many(
        self, docs: Sequence[Doc], *, include_pending: bool = False, output: Output = "cleaned"
    ) -> list[str | bytes]:
        """``clean`` for many documents, on all cores with the GIL released; results in order. A
        document that cannot be cleaned (None, binary bytes) fails alone: the others are cleaned and the
        batch raises ``BatchError`` at its end, every result in its ``results``."""
    def explain(self, doc: str, *, include_pending: bool = False) -> list[Span]:
        """The ranges of ``doc`` removed or given back ("kept"), every rule that matched each and the
        stages that decided, as ``chaff clean --explain``."""
    def diff(self, other: Rules, docs: Sequence[str], *, include_pending: bool = False) -> dict[str, Any]:
        """What changing these rules into ``other`` does to ``docs``: the numbers ``chaff diff --json``
        prints (``documents``, ``changed_documents``, words removed and given back inside and outside the
        article, ``changed`` per document, and ``stages_start`` where no rule was in force before)."""

def source_of(
    *, source: str | None = None, url: str | None = None, group: Literal["host", "domain"] = "host"
) -> str | None:
    """The source a document belongs to, as ``chaff clean --rules-dir`` finds it: ``source``, else its
    URL's host (without port or ``www.``) or registrable domain; None when neither names one."""

class Workspace:
    """A folder of rules files, one a source (``chaff mine --all CRAWL --rules-dir DIR``); each document
    cleaned with its own source's rules, as ``chaff clean --rules-dir DIR`` routes it. Pickles as its
    folder: it must be reachable where it is unpickled."""

    @staticmethod
    def load(dir: str | os.PathLike[str], group: Literal["host", "domain"] = "host") -> Workspace:
        """The folder's rules, loaded when their source is first met. ``group``: a URL's source is its
        host (without port or ``www.``) or its registrable domain, as ``--group``. A source's rules file
        is read once (its absence too, and a malformed file's error): a file written or changed later is
        read by a new ``Workspace``."""
    def source_of(self, *, source: str | None = None, url: str | None = None) -> str:
        """The source a document belongs to: ``source``, else its URL's host (or domain)."""
    @property
    def sources(self) -> list[str]:
        """The sources that have a rules file in the folder, sorted."""
    def clean(
        self,
        doc: Doc,
        *,
        source: str | None = None,
        url: str | None = None,
        include_pending: bool = False,
        output: Output = "cleaned",
        unknown: Literal["pass", "skip"] = "pass",
    ) -> str | bytes | None:
        """The document without its source's template (a ``str`` for a ``str``, bytes for bytes, as
        ``Rules.clean``). A source with no rules file: the document as it came ("pass") or None ("skip").
        Raises ChaffError with neither source nor url, or when the source's rules file is unusable."""
    def clean_many(
        self,
        docs: Sequence[Doc],
        *,
        sources: Sequence[str | None] | None = None,
        urls: Sequence[str | None] | None = None,
        include_pending: bool = False,
        output: Output = "cleaned",
        unknown: Literal["pass", "skip"] = "pass",
    ) -> list[str | bytes | None]:
        """``clean`` for many documents (``sources`` and ``urls`` as long as ``docs``), on all cores with
        the GIL released; results in order. A document that cannot be cleaned (None, no source or url, a
        source whose rules file is unusable or whose name cannot be a rules file's) fails alone: the
        others are cleaned and the batch raises ``BatchError`` at its end. A rules file's warnings are
        ``UserWarning``s when it is loaded."""

def mine(docs: Sequence[str], source: str, preset: Literal["text", "html"] = "text") -> Rules:
    """The automatic rules of ``chaff mine`` for a new source whose documents are ``docs`` (in this
    order). HTML pages (most of ``docs`` starting with ``<!doctype``, ``<html`` …) are mined on their
    page views; preset "html" mines their raw markup instead. Its rules are pending: clean with ``include_pending=True``. Raises ChaffError with fewer
    than two documents."""
