"""`wgdsl lsp` driven over the real protocol: the server runs as a subprocess, and the test
speaks JSON-RPC to it with Content-Length framing over its standard input and output,
messages built and read with lsprotocol's own converter.

Expected places are computed here from the text (UTF-16 code units counted by encoding
the line, the card's line found by searching the file), never copied from the server.
Skipped when pygls is not installed (`pip install '.[lsp]'`).
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytest.importorskip("pygls")
pytest.importorskip("lsprotocol")

from lsprotocol import types as T  # noqa: E402
from lsprotocol.converters import get_converter  # noqa: E402

from cli_helpers import cli  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 30  # seconds for one answer: the first check imports and builds the parser

CARDS = """\
include "wg01"

card X1-001 "𠮷野家" en "Yoshinoya" {
  color blue  cost 2  requires 1
  dimension:
    may move a card named "𠮷野家" in your stok to an empty square of your my field
}

card X1-002 "見張り" en "Lookout" {
  color red  cost 1  requires 0
  # a rock card, R2.2
  dimension:
    draw 1 card
}
"""


def to_path(uri: str) -> str:
    from urllib.parse import unquote, urlparse

    return unquote(urlparse(uri).path)


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def place(text: str, word: str, nth: int = 0) -> tuple[int, int]:
    """The protocol position (line, UTF-16 character) of the nth ``word`` in ``text``."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(word, at + 1)
    line = text.count("\n", 0, at)
    start = text.rfind("\n", 0, at) + 1
    return line, utf16(text[start:at])


class Client:
    """A language client: requests and notifications out, messages in on a thread."""

    def __init__(self, cwd: Path):
        exe = Path(sys.executable).parent / "wgdsl"
        command = [str(exe), "lsp"] if exe.exists() else \
            [sys.executable, "-c", "import sys; from wgdsl.cli import main; sys.exit(main())", "lsp"]
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=cwd)
        self.conv = get_converter()
        self.inbox: queue.Queue = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            headers = {}
            while True:
                line = out.readline()
                if not line:
                    return
                line = line.decode("ascii").strip()
                if not line:
                    break
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
            body = out.read(int(headers["content-length"]))
            self.inbox.put(json.loads(body.decode("utf-8")))

    def send(self, message) -> None:
        body = json.dumps(self.conv.unstructure(message)).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def wait(self, predicate):
        """The next message ``predicate`` accepts (others are skipped)."""
        while True:
            try:
                message = self.inbox.get(timeout=TIMEOUT)
            except queue.Empty:
                raise AssertionError("no answer from the server; stderr: "
                                     + self.proc.stderr.read1().decode("utf-8", "replace"))
            if predicate(message):
                return message

    def request(self, request_type, params, response_type):
        self.next_id += 1
        ident = self.next_id
        self.send(request_type(id=ident, params=params))
        message = self.wait(lambda m: m.get("id") == ident and "method" not in m)
        assert "error" not in message, message
        return self.conv.structure(message, response_type).result

    def diagnostics(self, uri: str) -> list[T.Diagnostic]:
        message = self.wait(lambda m: m.get("method") == T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS
                            and m["params"]["uri"] == uri)
        return list(self.conv.structure(message, T.PublishDiagnosticsNotification).params.diagnostics)

    def open(self, path: Path, text: str, language: str, version: int = 1) -> str:
        uri = path.as_uri()
        self.send(T.DidOpenTextDocumentNotification(params=T.DidOpenTextDocumentParams(
            text_document=T.TextDocumentItem(uri=uri, language_id=language, version=version,
                                             text=text))))
        return uri

    def change(self, uri: str, text: str, version: int) -> None:
        self.send(T.DidChangeTextDocumentNotification(params=T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[T.TextDocumentContentChangeWholeDocument(text=text)])))

    def at(self, uri: str, position: tuple[int, int]):
        return dict(text_document=T.TextDocumentIdentifier(uri=uri),
                    position=T.Position(line=position[0], character=position[1]))


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lsp")
    c = Client(folder)
    c.folder = folder
    result = c.request(T.InitializeRequest, T.InitializeParams(
        capabilities=T.ClientCapabilities(general=T.GeneralClientCapabilities(
            position_encodings=[T.PositionEncodingKind.Utf16])),
        root_uri=folder.as_uri()), T.InitializeResponse)
    caps = result.capabilities
    assert caps.hover_provider and caps.definition_provider and caps.document_formatting_provider
    assert caps.completion_provider is not None
    assert caps.text_document_sync.change == T.TextDocumentSyncKind.Full
    c.send(T.InitializedNotification(params=T.InitializedParams()))
    yield c
    if c.proc.poll() is None:
        c.proc.kill()
        c.proc.wait()


def test_a_card_file_is_checked_as_typed_with_ranges_in_utf16(client):
    path = client.folder / "mine.wg"
    uri = client.open(path, CARDS, "wgdsl")
    found = client.diagnostics(uri)
    assert len(found) == 1
    d = found[0]
    # the zone is after an astral-plane character (two UTF-16 units) on the same line
    line, char = place(CARDS, "stok")
    assert (d.range.start.line, d.range.start.character) == (line, char)
    assert (d.range.end.line, d.range.end.character) == (line, char + 4)
    assert d.severity == T.DiagnosticSeverity.Error
    assert d.message.startswith("unknown zone `stok`") and "hint: did you mean `stock`?" in d.message
    # what `wgdsl check` prints for the same file, at the same line and column in characters
    path.write_text(CARDS, encoding="utf-8")
    checked = cli("check", path)
    lines = CARDS.split("\n")
    col = lines[line].index("stok") + 1
    assert f"{path}:{line + 1}:{col}: error: unknown zone `stok`" in checked.output

    fixed = CARDS.replace("your stok", "your stock")
    client.change(uri, fixed, 2)
    assert client.diagnostics(uri) == []
    client.change(uri, fixed.replace("color red", "color rd"), 3)
    again = client.diagnostics(uri)
    assert [d.range.start.line for d in again] == [place(CARDS, "color red")[0]]
    assert "unknown color `rd`" in again[0].message
    client.change(uri, CARDS, 4)
    assert len(client.diagnostics(uri)) == 1


def test_hover_shows_a_card_in_both_languages_and_a_rule(client):
    uri = (client.folder / "mine.wg").as_uri()
    # a card with a syntax error shows as written
    line, char = place(CARDS, "𠮷野家", 1)
    hover = client.request(T.HoverRequest, T.HoverParams(**client.at(uri, (line, char + 2))),
                           T.HoverResponse)
    assert "your stok" in hover.contents.value and "as written" in hover.contents.value
    client.change(uri, CARDS.replace("your stok", "your stock"), 5)
    assert client.diagnostics(uri) == []
    # the card named in quotes, after the astral character: rendered in each language
    hover = client.request(T.HoverRequest, T.HoverParams(**client.at(uri, (line, char + 2))),
                           T.HoverResponse)
    text = hover.contents.value
    assert "X1-001" in text and "𠮷野家" in text and "Yoshinoya" in text
    assert "ディメンション" in text and "Dimension" in text  # the effect rendered in each
    # another card's id
    hover = client.request(T.HoverRequest, T.HoverParams(**client.at(uri, place(CARDS, "X1-002"))),
                           T.HoverResponse)
    assert "見張り" in hover.contents.value and "Lookout" in hover.contents.value
    # a rule number in a comment: its text as the rules reference writes it
    line, char = place(CARDS, "R2.2")
    hover = client.request(T.HoverRequest, T.HoverParams(**client.at(uri, (line, char + 1))),
                           T.HoverResponse)
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    r2 = rules[rules.index("## R2 "):]
    item = r2[r2.index("\n2. ") + 4:].split("\n")[0]
    assert "R2.2" in hover.contents.value
    assert " ".join(item.split()[:6]) in " ".join(hover.contents.value.split())
    # nothing to say on a plain word
    nothing = client.request(T.HoverRequest, T.HoverParams(**client.at(uri, place(CARDS, "draw"))),
                             T.HoverResponse)
    assert nothing is None


def test_completion_offers_keywords_zones_ids_and_names(client):
    uri = (client.folder / "mine.wg").as_uri()
    line, _ = place(CARDS, "    draw 1 card")
    items = client.request(T.CompletionRequest, T.CompletionParams(**client.at(uri, (line, 4))),
                           T.CompletionResponse).items
    labels = {i.label for i in items}
    assert {"dimension", "activated", "move", "exhaust", "battle field", "my field", "blue",
            "scissors", "X1-001", "WG-001"} <= labels
    # inside quotes: the names of the set, its own and the included ones, without quotes
    line, char = place(CARDS, '"𠮷野家" in')
    items = client.request(T.CompletionRequest,
                           T.CompletionParams(**client.at(uri, (line, char + 1))),
                           T.CompletionResponse).items
    names = {i.insert_text or i.label for i in items}
    assert {"𠮷野家", "Yoshinoya", "月面派遣軍・曹長"} <= names
    assert not any(n.startswith('"') for n in names)


def test_definition_of_an_include_a_named_card_and_an_id(client):
    uri = (client.folder / "mine.wg").as_uri()
    target = client.request(T.DefinitionRequest,
                            T.DefinitionParams(**client.at(uri, place(CARDS, "wg01"))),
                            T.DefinitionResponse)
    # the built-in set: the checkout's file, or the installed package's copy of it
    assert target.uri.endswith("/wg01.wg")
    assert Path(to_path(target.uri)).read_text(encoding="utf-8") == \
        (ROOT / "cards" / "wg01.wg").read_text(encoding="utf-8")
    # `named "𠮷野家"` goes to the name on the card's line in this file
    line, char = place(CARDS, "𠮷野家", 1)
    target = client.request(T.DefinitionRequest,
                            T.DefinitionParams(**client.at(uri, (line, char + 1))),
                            T.DefinitionResponse)
    assert target.uri == uri
    assert (target.range.start.line, target.range.start.character) == place(CARDS, "𠮷野家")
    assert target.range.end.character == place(CARDS, "𠮷野家")[1] + utf16("𠮷野家")


def test_formatting_gives_what_wgdsl_fmt_prints(client):
    messy = 'card X2-001 "Messy" {\n      color blue   cost 1\n  requires 0\n dimension:  draw 1 card\n}\n'
    path = client.folder / "messy.wg"
    uri = client.open(path, messy, "wgdsl")
    assert client.diagnostics(uri) == []
    edits = client.request(T.DocumentFormattingRequest, T.DocumentFormattingParams(
        text_document=T.TextDocumentIdentifier(uri=uri),
        options=T.FormattingOptions(tab_size=2, insert_spaces=True)), T.DocumentFormattingResponse)
    assert len(edits) == 1
    edit = edits[0]
    assert (edit.range.start.line, edit.range.start.character) == (0, 0)
    assert (edit.range.end.line, edit.range.end.character) == (messy.count("\n"), 0)
    path.write_text(messy, encoding="utf-8")
    assert edit.new_text == cli("fmt", path).output
    assert edit.new_text != messy


def test_a_game_file_is_checked_like_wgdsl_check(client):
    text = (ROOT / "examples" / "games" / "war.game").read_text(encoding="utf-8")
    bad = text.replace("zone pot shared pile public", "zone pot shared pile pubic")
    uri = client.open(client.folder / "war.game", bad, "wgdsl-game")
    found = client.diagnostics(uri)
    assert len(found) == 1 and "pubic" in found[0].message
    line, char = place(bad, "pubic")
    assert (found[0].range.start.line, found[0].range.start.character) == (line, char)
    hover = client.request(T.HoverRequest, T.HoverParams(**client.at(uri, place(bad, "R-A", 0))),
                           T.HoverResponse)
    assert hover is not None and "Ace" in hover.contents.value


def test_a_ruling_case_reports_its_problems_at_their_lines(client):
    case = (ROOT / "examples" / "rulings" / "cards" / "wg002-sergeant-draws.toml").read_text(
        encoding="utf-8")
    bad = case.replace('stock = ["WG-018", "WG-010"]', 'stock = ["WG-018", "WG-1000"]')
    uri = client.open(client.folder / "case.toml", bad, "toml")
    found = client.diagnostics(uri)
    assert len(found) == 1
    assert "unknown card id `WG-1000`" in found[0].message
    assert found[0].range.start.line == place(bad, "WG-1000")[0]
    # a card id in the case: its text, and its card line in the case's set
    hover = client.request(T.HoverRequest,
                           T.HoverParams(**client.at(uri, place(bad, "WG-018"))), T.HoverResponse)
    assert hover is not None and "WG-018" in hover.contents.value
    target = client.request(T.DefinitionRequest,
                            T.DefinitionParams(**client.at(uri, place(bad, "WG-018"))),
                            T.DefinitionResponse)
    wg = (ROOT / "cards" / "wg01.wg").read_text(encoding="utf-8")
    assert target.uri.endswith("/wg01.wg")
    assert (target.range.start.line, target.range.start.character) == place(wg, "WG-018")
    # a case on a set of its own keeps that set's cards while it is broken
    (client.folder / "mine-set.wg").write_text(
        'include "wg01"\n\ncard X9-001 "自分の" en "Mine" {\n  color blue  cost 1\n}\n',
        encoding="utf-8")
    own = '[case]\nid = "own"\ncards = "mine-set.wg"\n\n[state.A]\nhand = ["X9-001"]\n'
    uri = client.open(client.folder / "own.toml", own, "toml")
    assert client.diagnostics(uri) == []
    broken = own.replace("hand =", "hand = = ")
    client.change(uri, broken, 2)
    assert client.diagnostics(uri)
    hover = client.request(T.HoverRequest, T.HoverParams(**client.at(uri, place(broken, "X9-001"))),
                           T.HoverResponse)
    assert hover is not None and "Mine" in hover.contents.value
    # a TOML file that is no ruling case gets nothing
    other = client.open(client.folder / "pyproject.toml", '[project]\nname = "x"\n', "toml")
    assert client.diagnostics(other) == []


def test_an_unsaved_document_is_known_by_its_language_and_closing_clears_it(client):
    uri = "untitled:Untitled-1"
    client.send(T.DidOpenTextDocumentNotification(params=T.DidOpenTextDocumentParams(
        text_document=T.TextDocumentItem(uri=uri, language_id="wgdsl", version=1,
                                         text='card X1-001 "a" {\n  color bleu  cost 1\n}\n'))))
    found = client.diagnostics(uri)
    assert [(d.range.start.line, d.range.start.character) for d in found] == [(1, 8)]
    client.send(T.DidCloseTextDocumentNotification(params=T.DidCloseTextDocumentParams(
        text_document=T.TextDocumentIdentifier(uri=uri))))
    assert client.diagnostics(uri) == []


def test_shutdown_and_exit_end_the_server(client):
    assert client.request(T.ShutdownRequest, None, T.ShutdownResponse) is None
    client.send(T.ExitNotification())
    assert client.proc.wait(timeout=TIMEOUT) == 0
