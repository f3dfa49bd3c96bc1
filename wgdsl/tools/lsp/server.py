"""The language server: :mod:`.documents` spoken over the protocol with pygls.

Documents are synchronised whole (``TextDocumentSyncKind.Full``): the server keeps each
open document's text itself and counts its lines as the parser does (see
:mod:`.positions`).  A change is checked after :data:`DEBOUNCE` seconds of quiet, only
for the newest text: typing fast checks once, not once per key.
"""

from __future__ import annotations

import asyncio
import logging
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Optional

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .documents import CARD, Document

# seconds of quiet after a change before the document is checked again
DEBOUNCE = float(os.environ.get("WGDSL_LSP_DEBOUNCE", "0.05"))

_SEVERITY = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning}
_KIND = {"keyword": T.CompletionItemKind.Keyword, "zone": T.CompletionItemKind.Enum,
         "value": T.CompletionItemKind.EnumMember, "card": T.CompletionItemKind.Constant}

log = logging.getLogger(__name__)


def _range(start, end) -> T.Range:
    return T.Range(start=T.Position(line=start[0], character=start[1]),
                   end=T.Position(line=end[0], character=end[1]))


class WgdslServer(LanguageServer):
    def __init__(self):
        super().__init__("wgdsl", "", text_document_sync_kind=T.TextDocumentSyncKind.Full)
        self.texts: dict[str, str] = {}  # uri -> the open document's text
        self.languages: dict[str, str] = {}  # uri -> the editor's language id
        self.documents: dict[str, Document] = {}  # uri -> the document as last checked
        self._pending: dict[str, asyncio.TimerHandle] = {}
        # checks run one at a time beside the protocol, so that a long check (a set of
        # thousands of cards takes seconds) leaves hover and completion answering
        self.checker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wgdsl-check")

    # ---------------------------------------------------------------- documents
    def path_of(self, uri: str) -> str:
        return to_fs_path(uri) or uri

    def _buffer(self, path: str) -> Optional[str]:
        """The text of an open document by its path (read instead of the disk)."""
        uri = from_fs_path(os.path.abspath(path)) if path else None
        return self.texts.get(uri) if uri else None

    def encoding(self) -> str:
        return str(self.workspace.position_encoding or "utf-16")

    def _new(self, uri: str, text: str) -> Document:
        return Document(self.path_of(uri), text, self.encoding(), self._buffer,
                        self.languages.get(uri, ""))

    def document(self, uri: str) -> Optional[Document]:
        """The document as now typed, with the cards learnt at its last check (a text
        typed since is not checked again here: hover and completion answer at once)."""
        text = self.texts.get(uri)
        if text is None:
            return None
        last = self.documents.get(uri)
        if last is not None and last.text == text:
            return last
        doc = self._new(uri, text)
        if last is not None and last.kind == doc.kind:
            doc.cards, doc.declared, doc.set_file = last.cards, last.declared, last.set_file
        return doc

    async def check(self, uri: str) -> None:
        """Check the document's text and publish its problems, unless it changed meanwhile
        (the check of the newer text, scheduled by that change, publishes then)."""
        self._pending.pop(uri, None)
        text = self.texts.get(uri)
        if text is None:
            return
        doc = self._new(uri, text)
        loop = asyncio.get_running_loop()
        try:
            problems = await loop.run_in_executor(self.checker, doc.problems)
        except Exception as err:  # a bug in a checker must not stop the server
            log.exception("checking %s", uri)
            problems = []
            self.window_log_message(T.LogMessageParams(
                type=T.MessageType.Error, message=f"wgdsl: internal error checking {uri}: "
                                                  f"{type(err).__name__}: {err}"))
        if self.texts.get(uri) != text:
            return
        old = self.documents.get(uri)
        if not doc.cards and old is not None and old.kind == doc.kind:
            # while the file does not check, hover and completion use what it last had
            doc.cards, doc.declared = old.cards, old.declared
            doc.set_file = doc.set_file or old.set_file
        self.documents[uri] = doc
        diagnostics = [self._diagnostic(p) for p in problems]
        self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics))

    def _diagnostic(self, p) -> T.Diagnostic:
        related = [T.DiagnosticRelatedInformation(
            location=T.Location(uri=from_fs_path(os.path.abspath(path)), range=_range(*span)),
            message=message)
                   for path, span, message in p.related] or None
        return T.Diagnostic(range=_range(p.start, p.end), message=p.message, severity=_SEVERITY[p.severity],
                            source="wgdsl", related_information=related)

    def schedule(self, uri: str, delay: float = DEBOUNCE) -> None:
        """Check the document after ``delay`` seconds without another change."""
        handle = self._pending.pop(uri, None)
        if handle is not None:
            handle.cancel()
        loop = asyncio.get_running_loop()
        self._pending[uri] = loop.call_later(delay, lambda: loop.create_task(self.check(uri)))


server = WgdslServer()


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: WgdslServer, params: T.DidOpenTextDocumentParams) -> None:
    ls.texts[params.text_document.uri] = params.text_document.text
    ls.languages[params.text_document.uri] = params.text_document.language_id
    ls.schedule(params.text_document.uri, 0)


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: WgdslServer, params: T.DidChangeTextDocumentParams) -> None:
    for change in params.content_changes:  # whole documents (Full sync): the last is the text
        ls.texts[params.text_document.uri] = change.text
    ls.schedule(params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: WgdslServer, params: T.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.texts.pop(uri, None)
    ls.languages.pop(uri, None)
    ls.documents.pop(uri, None)
    handle = ls._pending.pop(uri, None)
    if handle is not None:
        handle.cancel()
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


def _answer(ls: WgdslServer, params, question):
    """What the document answers at the request's position (``Document.hover``, ...)."""
    doc = ls.document(params.text_document.uri)
    return None if doc is None else question(doc, params.position.line, params.position.character)


@server.feature(T.TEXT_DOCUMENT_HOVER)
def hover(ls: WgdslServer, params: T.HoverParams) -> Optional[T.Hover]:
    text = _answer(ls, params, Document.hover)
    if text is None:
        return None
    return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text))


@server.feature(T.TEXT_DOCUMENT_COMPLETION,
                T.CompletionOptions(trigger_characters=['"', "-"]))
def completion(ls: WgdslServer, params: T.CompletionParams) -> T.CompletionList:
    items = [T.CompletionItem(label=label, kind=_KIND[kind], detail=detail, insert_text=insert)
             for label, kind, detail, insert in _answer(ls, params, Document.completions) or ()]
    return T.CompletionList(is_incomplete=False, items=items)


@server.feature(T.TEXT_DOCUMENT_DEFINITION)
def definition(ls: WgdslServer, params: T.DefinitionParams) -> Optional[T.Location]:
    found = _answer(ls, params, Document.definition)
    if found is None:
        return None
    path, start, end = found
    return T.Location(uri=from_fs_path(os.path.abspath(path)), range=_range(start, end))


@server.feature(T.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: WgdslServer, params: T.DocumentFormattingParams) -> Optional[list[T.TextEdit]]:
    doc = ls.document(params.text_document.uri)
    if doc is None or doc.kind != CARD:  # only card files have a canonical layout
        return None
    formatted, why = doc.formatted()
    if formatted is None:
        ls.window_show_message(T.ShowMessageParams(type=T.MessageType.Warning, message=why))
        return None
    if formatted == doc.text:
        return []
    return [T.TextEdit(range=_range((0, 0), doc.lines.end()), new_text=formatted)]


def serve(version: str = "") -> None:
    """Speak the protocol on standard input and output until the editor says exit."""
    server.version = version
    server.start_io()
