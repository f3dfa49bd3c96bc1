"""How long does `wgdsl lsp` take to re-check a 1,000-card file after a change?

Issue 17 targets under 100 ms from a keystroke to its diagnostics.  Two figures:

- **in process**: the server's check of the buffer (`Document.problems()`: parse, check,
  includes, loop analysis, ranges) on a generated set of N cards (benchmarks/bench_parse.py's
  generator: WG01's bodies with fresh ids and names), clean and with one error;
- **over the protocol**: `wgdsl lsp` as a subprocess, the file opened, then `didChange`
  with a one-character edit (alternately breaking and fixing a color) and the time until
  its `publishDiagnostics` arrives, with the debounce set to 0 (WGDSL_LSP_DEBOUNCE) so the
  figure is the check plus the transport; an editor adds the debounce (50 ms) on top;
  and a hover sent while that check runs (answered from the last check, not after it).

Prints the figures (best and median, wall clock and, in process, CPU time); asserts nothing
about time.  The machine is shared: run it twice and read the medians.

    python benchmarks/bench_lsp.py [--cards 1000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from queue import Queue

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_parse import generate  # noqa: E402

from wgdsl.tools.lsp.documents import Document  # noqa: E402


def in_process(text: str, path: str, repeat: int) -> tuple[list, list, int]:
    walls, cpus, found = [], [], 0
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        found = len(Document(path, text).problems())
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return walls, cpus, found


class Server:
    """`wgdsl lsp` in a subprocess, spoken to in plain JSON-RPC."""

    def __init__(self):
        exe = Path(sys.executable).parent / "wgdsl"
        command = [str(exe), "lsp"] if exe.exists() else \
            [sys.executable, "-c", "import sys; from wgdsl.cli import main; sys.exit(main())", "lsp"]
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env={**os.environ, "WGDSL_LSP_DEBOUNCE": "0"})
        self.inbox: Queue = Queue()
        self.backlog: list = []  # messages read but not yet waited for
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            length = 0
            while True:
                line = self.proc.stdout.readline()
                if not line:
                    return
                if not line.strip():
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            self.inbox.put(json.loads(self.proc.stdout.read(length)))

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def wait(self, test) -> dict:
        """The first message, in the order they came, that passes ``test``; the others are
        kept for a later wait (a hover's answer and a check's diagnostics may come in
        either order: the check runs in its own thread)."""
        for i, message in enumerate(self.backlog):
            if test(message):
                return self.backlog.pop(i)
        while True:
            message = self.inbox.get(timeout=120)
            if test(message):
                return message
            self.backlog.append(message)

    def diagnostics(self, uri: str) -> list:
        return self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                         and m["params"]["uri"] == uri)["params"]["diagnostics"]


def over_protocol(text: str, path: Path, repeat: int) -> list:
    server = Server()
    server.send({"id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None,
                                                             "capabilities": {}}})
    server.wait(lambda m: m.get("id") == 1)
    server.send({"method": "initialized", "params": {}})
    uri = path.as_uri()
    server.send({"method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "wgdsl", "version": 1, "text": text}}})
    server.diagnostics(uri)
    broken = text.replace("color blue", "color bleu", 1)
    times, hovers = [], []
    for n in range(2 * repeat):
        new = broken if n % 2 == 0 else text
        start = time.perf_counter()
        server.send({"method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": n + 2},
            "contentChanges": [{"text": new}]}})
        # a hover while that check runs: answered from the last check, at once
        ask = time.perf_counter()
        server.send({"id": 100 + n, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": uri}, "position": {"line": 0, "character": 7}}})
        answer = server.wait(lambda m: m.get("id") == 100 + n)
        hovers.append(time.perf_counter() - ask)
        assert answer["result"] is not None, answer
        found = server.diagnostics(uri)
        times.append(time.perf_counter() - start)
        assert len(found) == (1 if new is broken else 0), found
    server.send({"id": 2, "method": "shutdown"})
    server.wait(lambda m: m.get("id") == 2)
    server.send({"method": "exit"})
    server.proc.wait(timeout=60)
    return times, hovers


def ms(values) -> str:
    return f"best {min(values) * 1000:7.1f} ms, median {statistics.median(values) * 1000:7.1f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    text = generate(args.cards)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.wg"
        print(f"{args.cards} cards, {len(text.encode()):,} bytes, {text.count(chr(10)):,} lines")
        Document(str(path), text).problems()  # the parser built and imported once
        walls, cpus, _ = in_process(text, str(path), args.repeat)
        print(f"in process, clean file:        wall {ms(walls)}; CPU {ms(cpus)}")
        broken = text.replace("color blue", "color bleu", 1)
        walls, cpus, found = in_process(broken, str(path), args.repeat)
        assert found == 1
        print(f"in process, one error:         wall {ms(walls)}; CPU {ms(cpus)}")
        times, hovers = over_protocol(text, path, args.repeat)
        print(f"didChange -> publishDiagnostics: wall {ms(times)} ({len(times)} edits, debounce 0)")
        print(f"hover during that check:       wall {ms(hovers)}")
        print("target (issue 17): < 100 ms")


if __name__ == "__main__":
    main()
