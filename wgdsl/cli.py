"""The ``wgdsl`` command line.

Each command is a thin layer: it loads input, calls the library, prints.  Every error a
user can cause is printed as a diagnostic on stderr with a non-zero exit, never as a
traceback.

Everything printed goes through :func:`echo` (or :func:`echo_json`): card names, ids,
file lines and log text are the user's text, and a control character in them (an
escape sequence that retitles the window or clears the screen) is shown escaped
(:func:`wgdsl.terminal.printable`), never sent to the terminal.

Exit status, the same for every command: 0 fine; 1 the input has problems (errors in a
card file, a deck or a ruling case, a failing case, a card that cannot be played,
effects that never end); 2 the command line is wrong (click's own usage errors, options
that exclude each other, an unknown card id); 70 an internal error (a bug in wgdsl);
130 interrupted by Ctrl-C (after printing the results so far).
"""

from __future__ import annotations

import errno
import json
import os
import signal
import sys
from contextlib import contextmanager

import click

from wgdsl.kernel.errors import RunawayEffects
from wgdsl.lang.diagnostics import DiagnosticError

from . import __version__
from .terminal import printable

CARDS_OPTION_HELP = "A card set file (.wg) to use instead of the built-in WG01 set."
STDIN = "-"
STDIN_NAME = "<stdin>"

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130


# ------------------------------------------------------------------ output
def echo(text: object = "", *, err: bool = False, nl: bool = True) -> None:
    """``click.echo`` for text that may hold the user's strings: control characters are
    shown escaped (``\\x1b``), newlines and tabs kept."""
    click.echo(printable(str(text)), err=err, nl=nl)


def _json_text(data) -> str:
    from .terminal import _CONTROL

    text = json.dumps(data, ensure_ascii=False, indent=2)
    # json.dumps escapes C0 controls itself; DEL, C1 controls and the bidirectional
    # overrides it leaves raw: escape them the JSON way so the document stays valid
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def echo_json(data) -> None:
    """One JSON document on stdout (docs/json.md), terminal-safe and still valid JSON."""
    click.echo(_json_text(data))


class _Group(click.Group):
    """The one place where errors become messages and exit statuses (see the module doc)."""

    def make_context(self, *args, **kwargs):
        try:
            return super().make_context(*args, **kwargs)
        except click.ClickException as err:
            err.message = printable(err.message)
            raise

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except DiagnosticError as err:
            echo(err.render(), err=True)
            ctx.exit(EXIT_FINDINGS)
        except RunawayEffects as err:
            echo(f"error: {err.message}", err=True)
            ctx.exit(EXIT_FINDINGS)
        except KeyboardInterrupt:
            echo("\ninterrupted", err=True)
            ctx.exit(EXIT_INTERRUPTED)
        except click.ClickException as err:
            err.message = printable(err.message)
            raise
        except (click.exceptions.Exit, click.Abort):
            raise
        except OSError as err:
            if err.errno == errno.EPIPE:  # `wgdsl play | head`: click quiets it
                raise
            _internal_error(ctx, err)
        except Exception as err:  # a bug: say so in one message, not a traceback
            _internal_error(ctx, err)


def _internal_error(ctx, err: BaseException) -> None:
    if os.environ.get("WGDSL_DEBUG"):
        raise err
    echo(f"wgdsl: internal error: {type(err).__name__}: {err}\n"
         "  this is a bug in wgdsl, not in your input; please report it with the command "
         "line that caused it (WGDSL_DEBUG=1 shows the traceback)", err=True)
    ctx.exit(EXIT_INTERNAL)


class _Interrupts:
    """Ctrl-C between items of a series: the first press is noted and the item in progress
    (a game, a ruling case) finishes, so every result counted was also shown; ``check()``
    then stops the series.  A second press stops at once."""

    def __init__(self):
        self.pressed = False

    def _handler(self, signum, frame):
        if self.pressed:
            raise KeyboardInterrupt
        self.pressed = True

    def check(self) -> None:
        if self.pressed:
            raise KeyboardInterrupt


@contextmanager
def _series_interrupts():
    watch = _Interrupts()
    try:
        old = signal.signal(signal.SIGINT, watch._handler)
    except ValueError:  # not the main thread: Ctrl-C stops at once, as usual
        yield watch
        return
    try:
        yield watch
    finally:
        signal.signal(signal.SIGINT, old)


def _read_stdin(what: str) -> str:
    """The text on standard input (``-`` as a file name), read as a file is read."""
    from wgdsl.lang.ast import NOWHERE, Pos
    from wgdsl.lang.diagnostics import Diagnostic

    from .files import MAX_BYTES, Unreadable, decode

    stream = getattr(sys.stdin, "buffer", None)
    if stream is not None:
        data = stream.read(MAX_BYTES + 1)
    else:  # a text stream without bytes underneath
        data = sys.stdin.read(MAX_BYTES + 1).encode("utf-8", "surrogateescape")
    if len(data) > MAX_BYTES:
        raise DiagnosticError([Diagnostic(STDIN_NAME, NOWHERE,
                                          f"is larger than {MAX_BYTES:,} bytes, the most a "
                                          f"{what} may have", f"split the {what}")])
    try:
        return decode(data, what)
    except Unreadable as err:
        pos = Pos(err.line, err.col, err.line, err.col + 1) if err.line else NOWHERE
        raise DiagnosticError([Diagnostic(STDIN_NAME, pos, err.message, err.hint)]) from None


def _unknown_card(card_id: str, library, hint) -> None:
    """An id on the command line that the set does not have: a usage error (exit 2),
    printed as a diagnostic with the nearest id."""
    from wgdsl.lang.ast import NOWHERE
    from wgdsl.lang.diagnostics import Diagnostic

    echo(Diagnostic(library.path, NOWHERE, f"no card `{card_id}` in this set",
                    hint or "`wgdsl cards` lists the ids").render(), err=True)
    click.get_current_context().exit(EXIT_USAGE)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="wgdsl")
def main():
    """wgdsl — the World Gainer card language, rules engine and ruling-case runner.

    \b
    Card designers write cards in the DSL (cards/*.wg, docs/language.md):
      wgdsl check mine.wg          check a card set (default: built-in WG01)
      wgdsl cards --cards mine.wg  list a set's cards
      wgdsl show ID                one card's stats and effect
      wgdsl show ID --lang ja      the card as printed text (ja or en)
      wgdsl fmt --write mine.wg    rewrite a card file in the canonical layout
      wgdsl simulate ID            play one card on a ready-made board
    \b
    Judges pin rulings down as cases (docs/rulings.md) and run them:
      wgdsl rulings examples/rulings
      wgdsl rules R8.2             the rule a message or a case cites
    \b
    Anyone plays games between bots:
      wgdsl play                   one game: the log, the board, the winner
      wgdsl play --games 1000      win rates and how games were won
      wgdsl play --starter         the starter variant: 20-card stocks (R3.4)
      wgdsl deck check my.txt      is a deck legal (R3)?
      wgdsl play --record g.json   then `wgdsl replay g.json`: a web page of the game
      wgdsl sweep --games 10000 --out runs/wg   a balance sweep and its report
    \b
    `-` reads standard input (check, fmt, deck check); --json prints one JSON
    document (play, simulate; docs/json.md).  Exit status: 0 fine, 1 problems found
    in the input, 2 a wrong command line, 70 a bug in wgdsl, 130 interrupted (Ctrl-C).
    """


# ------------------------------------------------------------------ check, cards, show
@main.command("check")
@click.argument("files", nargs=-1)
@click.option("--cards", "cards_path", default=None,
              help="A card set file (.wg) to check, as if given among FILES.")
def check_command(files, cards_path):
    """Check card set files: every syntax and meaning problem, each with where and why.

    \b
    Examples:
      wgdsl check                   check the built-in WG01 set
      wgdsl check mine.wg more.wg   check your own sets, each on its own
      cat mine.wg | wgdsl check -   check standard input (includes are
                                    relative to the current directory)
    \b
    A clean file prints `ok: N cards in PATH`.  Otherwise every problem is printed on
    stderr as `PATH:LINE:COL: error: ...` with the line, a caret under the offending
    words and a hint (often citing the rule, e.g. R13.1), and the exit status is 1.
    Warnings (`PATH:LINE:COL: warning: ...`, such as effects that can trigger each other
    without end) are printed the same way but leave the exit status 0.
    \b
    A game file (FILE.game, docs/games.md) is checked the same way, the rule functions
    it names included:
      wgdsl check examples/games/war.game
    """
    from wgdsl.lang.cards import check_text, read_source
    from wgdsl.lang.diagnostics import render_all

    from .resources import builtin_cards_path

    paths = list(files) + ([cards_path] if cards_path else [])
    failed = False
    for path in paths or [str(builtin_cards_path())]:
        if path != STDIN and path.endswith(GAME_SUFFIX):
            failed = _check_game_file(path) or failed
            continue
        if path == STDIN:
            path, text, problems = STDIN_NAME, _read_stdin("card file"), []
        else:
            text, problems = read_source(path)
        if text is not None:
            cardset, problems = check_text(text, path)
        errors = sum(1 for d in problems if d.severity == "error")
        warnings = len(problems) - errors
        if problems:
            echo(render_all(problems, {path: text}), err=True)
        if errors:
            failed = True
            echo(f"{path}: {errors} error{'s' if errors != 1 else ''}"
                       + (f", {warnings} warning{'s' if warnings != 1 else ''}" if warnings else ""),
                       err=True)
        else:  # warnings alone do not fail a set
            echo(f"ok: {len(cardset.cards)} cards in {path}"
                       + (f" ({warnings} warning{'s' if warnings != 1 else ''})" if warnings else ""))
    click.get_current_context().exit(EXIT_FINDINGS if failed else EXIT_OK)


GAME_SUFFIX = ".game"


def _check_game_file(path: str) -> bool:
    """``wgdsl check FILE.game``: print its diagnostics or ``ok``; True when it has errors."""
    from wgdsl.lang.diagnostics import render_all
    from wgdsl.tools.gamefile import check

    game, problems, text = check(path)
    errors = sum(1 for d in problems if d.severity == "error")
    warnings = len(problems) - errors
    if problems:
        echo(render_all(problems, {path: text} if text is not None else {}), err=True)
    plural = lambda n, word: f"{n} {word}{'s' if n != 1 else ''}"  # noqa: E731
    if errors:
        echo(f"{path}: {plural(errors, 'error')}"
             + (f", {plural(warnings, 'warning')}" if warnings else ""), err=True)
        return True
    spec = game.spec
    low, high = spec.seat_range
    cards = sum(c.copies for c in spec.cards)
    echo(f"ok: game {spec.id} \"{spec.name}\" ({low if low == high else f'{low} to {high}'} seats, "
         + (f"{plural(cards, 'card')}, " if cards else "")
         + (f"played by {spec.engine.module}" if spec.engine is not None
            else f"{plural(len(spec.phases), 'phase')} a round") + f") in {path}"
         + (f" ({plural(warnings, 'warning')})" if warnings else ""))
    return False


@main.command("cards")
@click.option("--cards", "cards_path", default=None, help=CARDS_OPTION_HELP)
@click.option("--text", "as_text", is_flag=True,
              help="Print every card with its stats and rendered card text instead of the table.")
@click.option("--lang", type=click.Choice(["ja", "en"]), default="ja", show_default=True,
              help="Language of the card text (with --text).")
@click.option("--game", "game_name", metavar="GAME", default=None,
              help="The cards of another game: getgem, or a game file. Default: World Gainer's.")
def cards_command(cards_path, as_text, lang, game_name):
    """List a card set: id, names and stats (World Gainer: color, cost/required, stun, kind).

    \b
    Examples:
      wgdsl cards                   the built-in WG01 set
      wgdsl cards --cards mine.wg   your own set (it is checked first)
      wgdsl cards --text --lang en  every card as printed text
      wgdsl cards --game getgem     GETGEM's GG01 (--text --lang ja: its card texts)
      wgdsl cards --game imitation-world   IW01: its stats (type, faction, cost, ...)
    \b
    kind: D dimension effect, F field effect, S a static rule that works outside the
    field (in hand, in standby), — no effect (R13).  cost/req is the cost and the
    required cost, the part paid in the card's own color (R6.3).
    """
    if game_name is not None and game_name != "world-gainer":
        spec = _game_spec(game_name, cards_path)
        from wgdsl.lang.cards import card_set_path
        from wgdsl.tools.gamefile import spec_card_text, spec_cards_table

        if spec.cards or spec.card_set is None:  # the game file's own cards
            if as_text:
                echo("\n\n".join(spec_card_text(spec, c, lang) for c in spec.cards))
            else:
                echo(spec_cards_table(spec))
            return
        cards_path = str(card_set_path(spec))  # its card set, in the card language
    from wgdsl.lang.cards import load_cards
    from wgdsl.tools.listing import cards_table

    if as_text:
        from wgdsl.lang.text import card_text_block

        echo("\n\n".join(card_text_block(c, lang) for c in load_cards(cards_path)))
        return
    echo(cards_table(load_cards(cards_path)))


@main.command("show")
@click.argument("card_id", required=False)
@click.option("--cards", "cards_path", default=None, help=CARDS_OPTION_HELP)
@click.option("--lang", type=click.Choice(["ja", "en"]), default=None,
              help="Print the card as printed text in this language instead of as written.")
@click.option("--rules", "rules_of", metavar="GAME", default=None,
              help="Print the compiled rules of a game file (FILE.game) instead of a card.")
@click.option("--game", "game_name", metavar="GAME", default=None,
              help="A card of another game: getgem, or a game file. Default: World Gainer's.")
def show_command(card_id, cards_path, lang, rules_of, game_name):
    """Show one card: its stats, then each effect exactly as its card file wrote it.

    \b
    Examples:
      wgdsl show ID                 (ids: `wgdsl cards`)
      wgdsl show X1-003 --cards mine.wg
      wgdsl show ID --lang ja       stats and card text: 【フィールド】このカードが…
    \b
    An unknown id is a usage error (exit 2) that suggests the nearest id.
    \b
    With --rules, show a game file as compiled: its seats, cards, zones (every default
    spelled out), each phase's window and steps and the end rules, each with the rule
    it cites:
      wgdsl show --rules examples/games/rock-paper-scissors.game
    """
    if rules_of is not None:
        if card_id is not None or cards_path is not None or lang is not None:
            raise click.UsageError("--rules GAME shows a game file; it takes no card id, "
                                   "--cards or --lang")
        _show_rules(rules_of)
        return
    if card_id is None:
        raise click.UsageError("give a card id (`wgdsl cards` lists them), or --rules GAME")
    if game_name is not None and game_name != "world-gainer":
        from wgdsl.lang.cards import card_set_path
        from wgdsl.tools.gamefile import find_spec_card, spec_card_text

        spec = _game_spec(game_name, cards_path)
        if not spec.cards and spec.card_set is not None:  # its set, in the card language
            game_name, cards_path = None, str(card_set_path(spec))
    if game_name is not None and game_name != "world-gainer":
        card, hint = find_spec_card(spec, card_id)
        if card is None:
            raise click.UsageError(f"no card {card_id} in {spec.name}"
                                   + (f"; {hint}" if hint else "; `wgdsl cards --game "
                                      f"{game_name}` lists them"))
        echo(spec_card_text(spec, card, lang or "ja"))
        if lang is None:
            echo()
            echo(spec_card_text(spec, card, "en"))
        return
    from wgdsl.lang.cards import load_cards, read_source
    from wgdsl.tools.listing import find_card, show_card

    library = load_cards(cards_path)
    card, hint = find_card(library, card_id)
    if card is None:
        _unknown_card(card_id, library, hint)
    if lang is not None:
        from wgdsl.lang.text import card_text_block

        echo(card_text_block(card, lang))
        return
    text, problems = read_source(library.path)
    if text is None:
        raise DiagnosticError(problems)
    echo(show_card(card, text, library.path))


def _load_game(name: str):
    """The game ``name`` (a built-in id or a game file): a file's problems are diagnostics
    (DiagnosticError, printed by main), anything else wrong with the name a usage error."""
    from wgdsl.games import load_game

    try:
        return load_game(name)
    except ValueError as err:
        if isinstance(err, DiagnosticError):
            raise
        raise click.UsageError(str(err)) from None


def _game_spec(name: str, cards_path):
    """The compiled game file of game ``name`` (a built-in id or a game file)."""
    if cards_path is not None:
        raise click.UsageError("--cards is World Gainer's; another game's cards are its game "
                               "file's (--game FILE.game)")
    game = _load_game(name)
    spec = getattr(game, "spec", None)
    if spec is None:
        raise click.UsageError(f"{name} is not described by a game file yet")
    return spec


def _show_rules(name: str) -> None:
    from wgdsl.tools.gamefile import rules_text

    game = _load_game(name)
    if getattr(game, "spec", None) is None:
        raise click.UsageError(f"{name} is not described by a game file yet; `wgdsl rules` "
                               "prints its rules reference")
    echo(rules_text(game))


# ---------------------------------------------------------------------------- fmt
@main.command("fmt")
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--check", "check_only", is_flag=True,
              help="Change nothing; list the files that are not formatted (exit 1 if any).")
@click.option("--write", is_flag=True, help="Rewrite the files in place.")
def fmt_command(files, check_only, write):
    """Print card files in the canonical layout (default: the built-in WG01 set).

    \b
    Examples:
      wgdsl fmt mine.wg             print the formatted text
      wgdsl fmt --check *.wg        list the files that would change (exit 1 if any)
      wgdsl fmt --write mine.wg     rewrite in place
      wgdsl fmt - < mine.wg         format standard input (also with --check)
    \b
    Comments stay where they were: a comment on its own line stays before the line
    that follows it, a comment at the end of a line stays at the end of that line.
    A file with syntax errors is never rewritten.  --write writes through a symlink to
    the file it names and keeps the file's permissions.
    """
    from .fmt_cmd import run_fmt

    click.get_current_context().exit(run_fmt(files, check_only=check_only, write=write))


@main.group("deck")
def deck_group():
    """Deck (stock) files: one `COUNT ID` per line, `#` comments.

    \b
    Examples:
      wgdsl deck check my-deck.txt
      wgdsl deck check --starter my-starter.txt
      wgdsl deck check --cards mine.wg mine-deck.txt
    """


@deck_group.command("check")
@click.argument("files", nargs=-1, required=True, metavar="FILE...",
                type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--starter", is_flag=True, help="Starter variant: at least 20 cards (R3.4).")
@click.option("--cards", "cards_path", type=click.Path(dir_okay=False), default=None,
              help=CARDS_OPTION_HELP)
@click.option("--game", "game_name", metavar="GAME", default="world-gainer", show_default=True,
              help="imitation-world: decks of Imitation World (`aga ID` and `COUNT ID` lines, "
                   "or a reference deck's name), checked against IW R4.")
@click.option("--variant", type=click.Choice(["main", "starter"]), default=None,
              help="Imitation World: the main rule (60+ cards, 1 of a name; the default) or "
                   "the starter variant (30+, at most 3 of a name, IW R4.5).")
def deck_check(files, starter, cards_path, game_name, variant):
    """Check a deck file: its lines, its card ids and the R3 construction rules.

    \b
    Examples:
      wgdsl deck check my-deck.txt              40+ cards (R3.1), at most 3 of a
                                                name (R3.2), a unique card once (R3.3)
      wgdsl deck check --starter my-starter.txt 20+ cards (R3.4)
      wgdsl deck check --cards mine.wg mine-deck.txt
      wgdsl deck check - < my-deck.txt          a deck on standard input
      wgdsl deck check --game imitation-world existence-wall my-iw-deck.txt
                                                one line per deck: legal, or each
                                                problem with its rule (IW R4)
      wgdsl deck check --game imitation-world --variant starter small.txt
    """
    if game_name == "imitation-world":
        from wgdsl.tools.decks_imitation_world import check_decks

        if starter or cards_path is not None or STDIN in files:
            raise click.UsageError("Imitation World's decks are files or reference deck names "
                                   "of IW01: use --variant starter, not --starter; no --cards "
                                   "or `-`")
        lines, legal = check_decks(files, variant or "main")
        echo("\n".join(lines))
        click.get_current_context().exit(0 if legal else 1)
    if game_name != "world-gainer":
        raise click.UsageError(f"deck check knows world-gainer and imitation-world decks, not "
                               f"{game_name}'s")
    if variant is not None or len(files) != 1:
        raise click.UsageError("World Gainer's deck check takes one FILE (--starter for R3.4); "
                               "--game imitation-world checks several decks (--variant)")
    (file,) = files
    from wgdsl.games.world_gainer.decks import check_deck, parse_deck, validate_deck
    from wgdsl.lang.cards import load_cards

    library = load_cards(cards_path)
    if file == STDIN:
        file, text = STDIN_NAME, _read_stdin("deck file")
        deck, problems = parse_deck(text, file, library)
        if not problems:
            problems = validate_deck(deck, library, starter=starter)
        sources = {file: text}
    else:
        deck, problems, sources = check_deck(file, library, starter=starter)
    if problems:
        raise DiagnosticError(problems, sources)
    ids = deck.ids()
    echo(f"{file}: ok — {len(ids)} cards, {len(set(ids))} different")


# --------------------------------------------------------------------------- play
DEFAULT_DECKS = ("blue-red-tempo.txt", "green-control.txt")


def _is_builtin_set(library) -> bool:
    from pathlib import Path

    from .resources import builtin_cards_path

    try:
        return Path(library.path).resolve() == builtin_cards_path().resolve()
    except OSError:
        return False


def _own_card_ids(library) -> list[str]:
    """The ids the set's own file defines (not its includes), in file order."""
    from wgdsl.lang.cards import read_source
    from wgdsl.lang.parser import parse

    text, _ = read_source(library.path)
    if text is None:
        return []
    cardset, _ = parse(text, library.path)
    return [c.id for c in cardset.cards] if cardset is not None else []


def _play_decks(deck_files, library, starter: bool):
    """(decks by player, what to call them, a note for stderr or None)."""
    from wgdsl.games.world_gainer.decks import MIN_CARDS, MIN_CARDS_STARTER, load_deck
    from wgdsl.tools.play import deck_capacity, deck_from_set, deck_lines

    from .resources import builtin_decks_dir

    size = MIN_CARDS_STARTER if starter else MIN_CARDS
    note = None
    if len(deck_files) > 2:
        raise click.UsageError("give --deck once (both players) or twice (A, then B)")
    if not deck_files and _is_builtin_set(library):
        files = tuple(str(builtin_decks_dir() / name) for name in DEFAULT_DECKS)
        decks = {p: load_deck(f, library, validate=True) for p, f in zip("AB", files)}
        labels = files
        if starter:
            # R3.4: the built-in stocks halved, every second card, so each keeps its mix
            decks = {p: ids[::2][:size] for p, ids in decks.items()}
            labels = tuple(f"{f} (starter: every second card, {size} cards)" for f in files)
    elif not deck_files:
        ids = deck_from_set(library, size, _own_card_ids(library))
        if ids is None:
            raise click.UsageError(
                f"no --deck given, and the set {library.path} cannot make a {size}-card stock "
                f"by itself: at most {deck_capacity(library)} cards (3 of a name, R3.2; a "
                "unique card once, R3.3).  Give a deck with --deck FILE (one `COUNT ID` per "
                "line), add cards to the set, or build on WG01 with `include \"wg01\"`"
                + ("" if starter or deck_capacity(library) < MIN_CARDS_STARTER else
                   ", or play the 20-card starter variant with --starter"))
        decks = {"A": ids, "B": list(ids)}
        label = f"a {size}-card stock built from {library.path}"
        labels = (label, label)
        note = (f"note: no --deck given: both players use a {size}-card stock built from "
                f"{library.path} (its own cards first, at most 3 of a name, R3.2; a unique card "
                f"once, R3.3): {', '.join(deck_lines(ids))}.  Give --deck FILE to choose.")
    else:
        files = deck_files if len(deck_files) == 2 else (deck_files[0], deck_files[0])
        decks = {p: load_deck(f, library, validate=True, starter=starter)
                 for p, f in zip("AB", files)}
        labels = files
    if len(decks["A"]) != len(decks["B"]):
        raise click.UsageError(
            f"both stocks must have the same number of cards (R3.1): A has {len(decks['A'])}, "
            f"B has {len(decks['B'])}")
    return decks, labels, note


def _game_record(game, result, with_log: bool) -> dict:
    from wgdsl.games.world_gainer.board import board_data

    record = result.to_dict()
    record["log"] = json.loads(game.log.to_json()) if with_log else None
    record["board"] = board_data(game.state) if with_log else None
    return record


@main.command("play")
@click.option("--deck", "deck_files", multiple=True, type=click.Path(dir_okay=False),
              help="A deck file (`COUNT ID` lines). Once: both players; twice: A then B. "
                   "Default: the built-in blue-red-tempo (A) and green-control (B) decks; "
                   "for a set of your own, a legal stock built from its cards.")
@click.option("--agent", "agent_names", multiple=True, type=click.Choice(["random", "greedy"]),
              help="Who plays: once for every seat, or once per seat in seat order (A, B, ...). "
                   "Default: greedy for World Gainer, random for other games.")
@click.option("--seed", default=0, show_default=True, type=int,
              help="Seed of the first game (game i uses seed+i): same seed, same games.")
@click.option("--games", default=1, show_default=True, type=click.IntRange(min=1),
              help="How many games; more than one prints statistics instead of a log.")
@click.option("--first", default=None, type=click.Choice(["A", "B", "alternate"]),
              help="Who goes first (R4.2). Default: A for one game, alternate for several.")
@click.option("--log/--no-log", "show_log", default=None,
              help="Print the turn-by-turn log (default: on for one game, off for several).")
@click.option("--starter", is_flag=True,
              help="The starter variant (R3.4): 20-card stocks. The built-in decks are cut to "
                   "every second card; --deck files need 20 cards or more.")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON document (docs/json.md) instead of text.")
@click.option("--max-turns", default=1000, show_default=True, type=click.IntRange(min=1),
              help="Stop a game that runs longer (a safety net; no rule of the game).")
@click.option("--cards", "cards_path", type=click.Path(dir_okay=False), default=None,
              help=CARDS_OPTION_HELP)
@click.option("--game", "game_name", metavar="GAME", default=None,
              help="The game: a game file (FILE.game, docs/games.md) or a built-in id. "
                   "Default: world-gainer.")
@click.option("--seats", type=click.IntRange(min=1), default=None,
              help="How many seats play (a game file's range; World Gainer: 2).")
@click.option("--match", is_flag=True,
              help="GETGEM: play a match (GG R16): games until a seat has 10 points, each "
                   "game started by the previous winner's right neighbour.")
@click.option("--option", "option_values", multiple=True, metavar="NAME=VALUE",
              help="A variant of a game file (its `option` lines), e.g. --option rounds=10. "
                   "Repeat for several.")
@click.option("--record", "record_path", type=click.Path(dir_okay=False), default=None,
              metavar="FILE", help="Also write the game as a replay record (JSON: seed, seats, "
                                   "options, every action) for `wgdsl replay FILE`. One game.")
def play_command(deck_files, agent_names, seed, games, first, show_log, starter, as_json,
                 max_turns, cards_path, game_name, seats, match, option_values, record_path):
    """Play whole games between bots and show what happened.

    \b
    One game (the default) prints the turn-by-turn event log, the final board and the
    winner with the rule that decided it (R12).  Several games print win rates, the
    average number of turns and how the games were won, with a progress bar on a
    terminal.  Ctrl-C stops after the game in progress and prints the summary of the
    games finished (exit status 130); a second Ctrl-C stops at once.
    \b
    Examples:
      wgdsl play                              one greedy-vs-greedy game, seed 0
      wgdsl play --seed 7 --agent random      one random game
      wgdsl play --games 1000 --agent greedy --agent random
      wgdsl play --starter --games 100        the 20-card starter variant (R3.4)
      wgdsl play --deck examples/decks/rainbow-sun.txt --deck examples/decks/green-control.txt
      wgdsl play --cards mine.wg --deck mine-deck.txt --games 200 --json
      wgdsl play --cards mine.wg              a stock built from your set's cards
    \b
    Other games (a built-in id, or a game file) are played by bots that see only their
    seat's observation and legal actions (random; GETGEM also has greedy); the result
    names the rule that decided the game:
      wgdsl play --game getgem --seats 4              one GETGEM game: log, table, winner
      wgdsl play --game getgem --seats 3 --games 500 --agent greedy
      wgdsl play --game examples/games/rock-paper-scissors.game
      wgdsl play --game examples/games/war.game --seats 3 --games 1000
      wgdsl play --game examples/games/rock-paper-scissors.game --option target=5
    \b
    Any game, recorded to step through as a web page (`wgdsl replay --help`):
      wgdsl play --game getgem --seats 3 --seed 4 --record game.json
    """
    if record_path is not None and (games != 1 or match):
        raise click.UsageError("--record writes one game: drop --games and --match (--seed N "
                               "picks the game)")
    if game_name is not None and game_name != "world-gainer":
        _play_game_file(game_name, seats, seed, games, show_log, option_values, agent_names,
                        match, record_path)
        return
    if match:
        raise click.UsageError("--match is GETGEM's match play (--game getgem)")
    if seats not in (None, 2):
        raise click.UsageError(f"World Gainer is played by 2 seats (R1.1), not --seats {seats}")
    if option_values:
        raise click.UsageError("--option is for game files (--game FILE.game); World Gainer's "
                               "variants are --starter and --first")
    from wgdsl.games.world_gainer.board import render_board
    from wgdsl.lang.cards import load_cards
    from wgdsl.tools.play import RUNAWAY, Summary, describe_result, play_series

    library = load_cards(cards_path)
    agents = tuple(agent_names) or ("greedy",)
    if len(agents) == 1:
        agents = agents * 2
    elif len(agents) > 2:
        raise click.UsageError("give --agent once (both players) or twice (A, then B)")
    decks, labels, note = _play_decks(deck_files, library, starter)
    if note:
        echo(note, err=True)
    log_on = show_log if show_log is not None else games == 1
    order = first or ("A" if games == 1 else "alternate")
    summary = Summary()
    records: list = []
    recorded: list = [] if record_path else None
    last = None
    stopped: list = []
    interrupted = False
    bar = None
    if games > 1 and not log_on and not as_json and sys.stderr.isatty():
        bar = click.progressbar(length=games, label="playing", file=sys.stderr)
        bar.__enter__()

    def _one_game(game, result):
        nonlocal last
        summary.add(result)
        if result.reason == RUNAWAY:
            stopped.append(result)
        if record_path:
            from wgdsl.tools.replay import world_gainer_record

            _write_record(record_path, world_gainer_record(game, result, recorded, cards_path,
                                                           decks, agents))
        if as_json:
            records.append(_game_record(game, result, log_on))
        elif games == 1:
            last = (game, result)
        elif log_on:
            echo(f"# game seed {result.seed}: {describe_result(result)}")
            for line in game.log.lines():
                echo(line)
        if bar is not None:
            bar.update(1)

    try:
        with _series_interrupts() as interrupts:
            for game, result in play_series(library, decks, agents, games, seed, order,
                                            max_turns, keep_logs=log_on or bool(record_path),
                                            record=recorded):
                _one_game(game, result)
                interrupts.check()
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    if as_json:
        echo_json({
            "command": "play",
            "seed": seed, "games_requested": games, "first": order, "max_turns": max_turns,
            "starter": starter,
            "decks": {"A": labels[0], "B": labels[1]},
            "agents": {"A": agents[0], "B": agents[1]},
            "interrupted": interrupted,
            "games": records,
            "summary": summary.to_dict(),
        })
    elif last is not None:
        game, result = last
        if log_on:
            for line in game.log.lines():
                echo(line)
            echo()
        echo(render_board(game.state, "A"))
        echo()
        echo(describe_result(result))
    elif games > 1 and summary.games:
        echo(f"A: {agents[0]} with {labels[0]}")
        echo(f"B: {agents[1]} with {labels[1]}")
        for line in summary.lines():
            echo(line)
    for result in stopped:
        echo(f"error: game seed {result.seed} was stopped: {result.stopped}", err=True)
    ctx = click.get_current_context()
    if interrupted:
        echo(f"\ninterrupted after {summary.games} of {games} game{'s' if games != 1 else ''}",
             err=True)
        ctx.exit(EXIT_INTERRUPTED)
    ctx.exit(EXIT_FINDINGS if stopped else EXIT_OK)


# the options of `wgdsl play` that only World Gainer takes
_WG_PLAY_OPTIONS = {"deck_files": "--deck", "first": "--first",
                    "starter": "--starter", "as_json": "--json", "max_turns": "--max-turns",
                    "cards_path": "--cards"}


def _play_match(game, seed, seats, options, agents, games) -> None:
    """``wgdsl play --game getgem --match``: one line per game, then the ranking."""
    from wgdsl.tools.gamefile import play_match, ranking

    if click.get_current_context().get_parameter_source("games").name == "COMMANDLINE":
        raise click.UsageError("--match plays games until a seat has 10 points: --games does "
                               "not apply")
    totals: dict = {}
    try:
        for n, (record, first, points, totals) in enumerate(
                play_match(game, seed, seats, options, agents), start=1):
            won = record.winners[0] if record.winners else None
            gained = f"{won} +{points[won]}" if won else "no winner: no points"
            echo(f"game {n} (seed {record.seed}, {first} first): {gained} ({record.reason}, "
                 f"turn {record.rounds}); totals "
                 + ", ".join(f"{s} {p}" for s, p in totals.items()))
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    echo("ranking: " + ", ".join(f"{r}. {s} ({p})" for r, s, p in ranking(totals)))


def _play_game_file(name, seats, seed, games, show_log, option_values, agents=(),
                    match=False, record_path=None) -> None:
    """``wgdsl play --game GAME``: bots (random unless the game has others and --agent
    names them), one game's log and result or a series' statistics (the logic is
    wgdsl.tools.gamefile's)."""
    from click.core import ParameterSource

    from wgdsl.games.described.program import RuleFunctionError
    from wgdsl.tools.gamefile import Summary, play_one, result_text

    ctx = click.get_current_context()
    given = [flag for param, flag in _WG_PLAY_OPTIONS.items()
             if ctx.get_parameter_source(param) == ParameterSource.COMMANDLINE]
    if given:
        options = "options" if len(given) > 1 else "option"
        raise click.UsageError(f"{', '.join(given)}: World Gainer's {options}; a game file "
                               "carries its own cards (--seats, --seed, --games, --agent, "
                               "--option, --log apply)")
    game = _load_game(name)
    for warning in game.warnings:
        echo(warning.render(), err=True)
    options = {}
    for item in option_values:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise click.UsageError(f"--option {item}: write NAME=VALUE, e.g. --option rounds=10")
        options[key.strip()] = value.strip()
    if match:
        _play_match(game, seed, seats, options, agents, games)
        return
    recorded: list = [] if record_path else None
    try:
        state, record = play_one(game, seed, seats, options, agents, recorded)
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    except RuleFunctionError as err:
        echo(f"error: {err}", err=True)
        ctx.exit(EXIT_FINDINGS)
    if record_path:
        from wgdsl.tools.replay import game_record

        _write_record(record_path, game_record(name, game, state, seed, options,
                                               tuple(agents) or ("random",), recorded))
    log_on = show_log if show_log is not None else games == 1
    if games == 1:
        spec = getattr(game, "spec", None)
        mark = "R" if spec is not None and spec.engine is None else "T"  # rounds or turns
        if log_on:
            for e in state.log:
                echo(f"{mark}{e['turn']:<3} {e['seat'] or '-':<3} {e['text']}")
            echo()
        render = getattr(game, "render", None)
        if render is not None:  # the game draws its table (what every seat sees, and the hands)
            echo(render(state))
            echo()
        echo(result_text(state, record))
        return
    summary = Summary(game)
    interrupted = False
    try:
        with _series_interrupts() as interrupts:
            for i in range(games):
                if i:
                    state, record = play_one(game, seed + i, seats, options, agents)
                summary.add(record)
                if log_on:
                    echo(f"# game seed {seed + i}: {result_text(state, record)}")
                interrupts.check()
    except KeyboardInterrupt:
        interrupted = True
    except RuleFunctionError as err:
        echo(f"error: {err}", err=True)
        ctx.exit(EXIT_FINDINGS)
    for line in summary.lines():
        echo(line)
    if interrupted:
        echo(f"\ninterrupted after {summary.games} of {games} games", err=True)
        ctx.exit(EXIT_INTERRUPTED)


def _write_record(path: str, data: dict) -> None:
    """Write a replay record (``wgdsl play --record``); a note on stderr says what next."""
    from wgdsl.tools.replay import record_text

    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(record_text(data))
    except OSError as err:
        echo(f"{path}: error: cannot write the replay record: {err.strerror or err}", err=True)
        click.get_current_context().exit(EXIT_FINDINGS)
    echo(f"replay record: {path} ({len(data['actions'])} actions); `wgdsl replay {path}` "
         "makes it a web page", err=True)


@main.command("replay")
@click.argument("record_file", metavar="RECORD.json")
@click.option("-o", "--output", "out_path", type=click.Path(dir_okay=False), default=None,
              help="The HTML file to write. Default: RECORD with .html instead of .json.")
def replay_command(record_file, out_path):
    """Write a recorded game as one web page that steps through its board and log.

    \b
    Examples:
      wgdsl play --seed 3 --record game.json       record a game (any game: --game ...)
      wgdsl replay game.json -o game.html          then open game.html in a browser
    \b
    The record (`wgdsl play --record FILE`, docs/json.md) holds the game, its seed, seats,
    options and actions; they are played again through the engine, so the page shows
    the board as the engine has it after each action.  The page is one file (no network,
    no fonts fetched): ← → step, Home End go to the ends, the buttons do the same, and
    game.html#step=12 opens at action 12.  A record that does not replay (another
    version of the game or its cards) is reported at its place in the file, exit 1.
    """
    from pathlib import Path

    from wgdsl.tools.replay import build

    out = out_path or str(Path(record_file).with_suffix(".html"))
    if out == record_file:
        raise click.UsageError(f"the record {record_file} would be overwritten: give -o FILE.html")
    html, replay = build(record_file)
    try:
        Path(out).write_text(html, encoding="utf-8")
    except OSError as err:
        echo(f"{out}: error: cannot write the page: {err.strerror or err}", err=True)
        click.get_current_context().exit(EXIT_FINDINGS)
    echo(f"{out}: {replay['name']}, seed {replay['seed']}, {len(replay['steps']) - 1} actions")


@main.group("sweep", invoke_without_command=True)
@click.option("--game", "game_name", metavar="GAME", default="world-gainer", show_default=True,
              help="A built-in id (world-gainer, getgem, wonderful-world, imitation-world) or a "
                   "game file.")
@click.option("--games", type=click.IntRange(min=1), default=None,
              help="How many games in all (required to start a sweep).")
@click.option("--out", "out_dir", metavar="DIR", default=None,
              help="The directory of the sweep: manifest.json, one file per shard, the report.")
@click.option("--seed", default=0, show_default=True, type=int,
              help="The sweep's seed: game i's seed is derived from (seed, i).")
@click.option("--seats", "seat_counts", multiple=True, type=click.IntRange(min=1),
              help="A seat count; repeat for several (default: the game's smallest).")
@click.option("--deck", "deck_files", multiple=True, metavar="FILE|DIR|NAME",
              help="A deck file, a directory of them, or a built-in deck's name (Imitation "
                   "World's existence-wall, ...); repeat. Every ordered pair is played "
                   "(mirrors too). Default: the game's built-in pair. For games with decks "
                   "(World Gainer, Imitation World).")
@click.option("--agent", "agent_names", multiple=True, metavar="NAME[,NAME...]",
              help="A line-up: one agent for every seat, or one per seat (random,greedy); "
                   "repeat for several. Default: random.")
@click.option("--option", "option_values", multiple=True, metavar="NAME=VALUE",
              help="A variant of the game (new_state options), e.g. --option first=B; a name "
                   "given again adds a value to play (--option first=A --option first=B).")
@click.option("--shard-size", default=500, show_default=True, type=click.IntRange(min=1),
              help="Games per shard (the unit written, resumed and handed to a worker).")
@click.option("--format", "fmt", type=click.Choice(["csv", "parquet"]), default="csv",
              show_default=True, help="Shard files: CSV, or Parquet (needs wgdsl[sweep]).")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
              show_default=True, help="A local process pool, or Ray (needs wgdsl[sweep]).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: every core; Ray: its CPUs).")
@click.option("--address", default=None, metavar="ADDR",
              help="Ray: the address of a running cluster (default: start a local one).")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--no-report", is_flag=True, help="Do not write the report at the end.")
@click.pass_context
def sweep_group(ctx, game_name, games, out_dir, seed, seat_counts, deck_files, agent_names,
                option_values, shard_size, fmt, backend, workers, address, quiet, no_report):
    """Balance sweeps: many games across decks, seats, agents and seeds.

    \b
    Games are split into shards of --shard-size games, played by a local process pool
    (or Ray) and each written to DIR as one file, atomically.  Game i's seed comes from
    (--seed, i), so the results are the same on any backend, worker count or shard size.
    Rerunning the same command resumes: finished shards are skipped.  DIR/manifest.json
    records the sweep; another sweep into the same DIR is refused.  At the end the
    report is written (DIR/report.json, DIR/report.html) and its headline printed.
    \b
    Examples:
      wgdsl sweep --games 2000 --out runs/wg                random vs random, built-in decks
      wgdsl sweep --games 9000 --deck examples/decks --agent greedy --out runs/decks
      wgdsl sweep --game getgem --seats 2 --seats 4 --agent random --agent greedy \\
                  --games 4000 --out runs/gg
      wgdsl sweep --games 100000 --backend ray --format parquet --out runs/big
      wgdsl sweep report runs/wg                            the report again
    """
    if ctx.invoked_subcommand is not None:
        return
    from pathlib import Path

    from wgdsl.tools import sweep as S
    from wgdsl.tools import sweep_report as R

    if games is None or out_dir is None:
        raise click.UsageError("a sweep needs --games N and --out DIR (see wgdsl sweep --help)")
    if address and backend != "ray":
        raise click.UsageError("--address is Ray's: add --backend ray")
    game = _load_game(game_name)
    out = Path(out_dir)
    try:
        options = S.option_grid(option_values)
        if fmt == "parquet":
            S.need("pyarrow", "--format parquet")
        if backend == "ray":
            S.need("ray", "--backend ray")
        plan = S.plan(game, game_name, games, seed, seat_counts, deck_files, agent_names,
                      options, shard_size, fmt)
        if out.exists() and not out.is_dir():
            raise S.SweepError(f"--out {out}: a file, not a directory")
        if (out / S.MANIFEST).exists():
            S.check_manifest(out, plan)
        progress = S.Progress(games, S.shards_done(out, plan) if out.is_dir() else 0, quiet)
        try:
            done = S.run(plan, out, backend, workers, address,
                         on_shard=lambda shard, n: progress.update(n))
        finally:
            progress.close()
    except S.SweepError as err:
        raise click.UsageError(str(err)) from None
    except KeyboardInterrupt:
        echo(f"\ninterrupted: the finished shards are in {out}; rerun the same command to "
             "resume", err=True)
        ctx.exit(EXIT_INTERRUPTED)
    if not quiet:
        echo(f"{done['written']} shards written, {done['skipped']} already there; "
             f"{done['games_played']} games in {done['seconds']:.1f} s", err=True)
    if not no_report:
        _, hpath, data = R.write(out)
        for line in R.headline(data):
            echo(line)
        echo(f"report: {hpath} (and report.json)")


@sweep_group.command("report")
@click.argument("out_dir", metavar="DIR", type=click.Path(file_okay=False))
@click.option("--delta", default=0.05, show_default=True, type=click.FloatRange(0, 1, min_open=True),
              help="The win-rate difference the `games needed` column is for.")
def sweep_report_command(out_dir, delta):
    """Write DIR/report.json and DIR/report.html for the sweep in DIR and print its
    headline (win rates per seat with Wilson intervals, the first player's, how games
    ended).  A sweep still running or interrupted is reported on its finished shards.

    \b
    Examples:
      wgdsl sweep report runs/wg                the report of the sweep in runs/wg
      wgdsl sweep report runs/wg --delta 0.03   games needed to tell a 3-point difference
    """
    from pathlib import Path

    from wgdsl.tools import sweep as S
    from wgdsl.tools import sweep_report as R

    try:
        _, hpath, data = R.write(Path(out_dir), delta)
    except S.SweepError as err:
        raise click.UsageError(str(err)) from None
    for line in R.headline(data):
        echo(line)
    echo(f"report: {hpath} (and report.json)")


@main.command("rulings")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-v", "--verbose", is_flag=True,
              help="For a failing case, also print the board and the game log.")
def rulings_command(paths, verbose):
    """Run ruling cases: every *.toml under PATHS (see the ruling-case format).

    Prints `PASS <id>` or `FAIL <id>: <first difference>` per case, `ERROR <path>:
    <problem>` for a file that is not a valid case, then `N passed, M failed`; exits 1
    when any case fails.  Ctrl-C stops after the case in progress and prints the count
    of the cases run (exit status 130); a second Ctrl-C stops at once.

    \b
    Examples:
      wgdsl rulings examples/rulings            every case under a directory
      wgdsl rulings my-case.toml -v             one case; a failure shows board and log
      wgdsl rulings examples/sets/rulings
    """
    from wgdsl.games.world_gainer.board import render_board
    from wgdsl.tools.rulings import run_paths

    results = []

    def report(result, keep):
        results.append(result)
        echo(result.line())
        if verbose and not result.ok and keep and "game" in keep:
            game = keep["game"]
            echo(render_board(game.state, game.state.active))
            for line in game.log.lines():
                echo("    " + line)
        elif verbose and not result.ok and keep and "state" in keep:  # a GETGEM case
            state = keep["state"]
            echo(state.game.render(state))
            for e in state.log:
                echo(f"    T{e['turn']:<3} {e['seat'] or '-':<3} {e['text']}")
        interrupts.check()

    interrupted = False
    try:
        with _series_interrupts() as interrupts:
            run_paths(paths, on_result=report)
    except KeyboardInterrupt:
        interrupted = True
    passed = sum(1 for r in results if r.ok)
    failed = len(results) - passed
    echo(f"{passed} passed, {failed} failed" + (" (interrupted)" if interrupted else ""))
    ctx = click.get_current_context()
    if interrupted:
        echo("\ninterrupted: the cases not run yet are not counted", err=True)
        ctx.exit(EXIT_INTERRUPTED)
    if failed:
        ctx.exit(EXIT_FINDINGS)


@main.command("explore")
@click.argument("case_file", type=click.Path())
@click.option("--to", "to", type=click.Choice(["end-of-steps", "end-of-turn"]),
              help="Where a line ends: after the case's steps (only answers branch; the "
                   "default for a case with [[step]]s), or when the turn changes (every "
                   "action branches; the default for a board without steps).")
@click.option("--depth", type=click.IntRange(min=1),
              help="Instead of --to: every action branches, N actions deep (answers count).")
@click.option("--max-states", type=click.IntRange(min=1), default=100000, show_default=True,
              help="Stop after this many distinct states and say so.")
@click.option("--check", is_flag=True,
              help="Exit 1, listing them, if any outcome of the steps does not meet the "
                   "case's [expect] (or a line stops, or the bound is hit).")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout.")
def explore_command(case_file, to, depth, max_states, check, as_json):
    """Walk every legal line from a ruling case's board and print the distinct outcomes.

    Every answer to every question and every order of triggers is tried (the case's
    [answers] are not used); equal states are merged.  Each outcome shows what differs
    from the others and a line that leads to it; `<- the case's own answers` marks where
    the case's [answers] go.

    \b
    Examples:
      wgdsl explore examples/sets/rulings/xp010-twin-and-clarion-both-respond.toml
      wgdsl explore CASE.toml --check          is the expectation the only outcome?
      wgdsl explore CASE.toml --to end-of-turn every action of the turn, not the steps
      wgdsl explore CASE.toml --depth 3 --json
    """
    from wgdsl.tools import explore as ex

    if depth is not None and to is not None:
        raise click.UsageError("--depth and --to exclude each other: give one")
    if check and (depth is not None or to == "end-of-turn"):
        raise click.UsageError("--check compares the outcomes of the case's steps with its "
                               "[expect]: leave out --depth and --to end-of-turn")
    limit = (ex.Limit(ex.DEPTH, depth) if depth is not None
             else ex.Limit(ex.END_OF_STEPS if check else to) if (to or check) else None)
    if limit is not None and limit.kind is None:
        limit = None

    def progress(res):
        echo(f"explore: {res.states} states, {len(res.outcomes)} outcomes, "
             f"{res.seconds:.0f} s", err=True)

    ctx = click.get_current_context()
    try:
        result = ex.explore_case(case_file, limit, max_states, progress)
    except ex.CaseProblems as err:
        for problem in err.problems:
            echo(f"error: {problem}", err=True)
        ctx.exit(EXIT_FINDINGS)
    except ex.ExploreError as err:
        echo(f"error: {err}", err=True)
        ctx.exit(EXIT_FINDINGS)
    if as_json:
        echo_json(ex.to_json(result))
    else:
        echo(ex.render_text(result))
    if not result.complete:
        echo(f"explore: stopped at the bound of {max_states} states: the outcomes are those "
             "found so far (--max-states)", err=True)
    if check:
        if not result.expect:
            echo("check: the case's steps were not what was walked", err=True)
            ctx.exit(EXIT_FINDINGS)
        bad = ex.check_failures(result)
        if not result.complete:
            echo(f"check: not proven: the bound of {max_states} states was hit", err=True)
            ctx.exit(EXIT_FINDINGS)
        if bad:
            echo(f"check: {len(bad)} of {len(result.outcomes)} outcomes do not meet the "
                 "expectation: " + ", ".join(f"[{o.number}]" for o in bad), err=True)
            ctx.exit(EXIT_FINDINGS)
        echo(f"check: every outcome meets the expectation ({len(result.outcomes)})", err=True)


@main.command("lint")
@click.argument("files", nargs=-1)
@click.option("--graph", is_flag=True,
              help="Also print a card set's trigger graph: which effect's action can raise "
                   "which event.")
def lint_command(files, graph):
    """Report what a card set or game file can never do (sound warnings only).

    Card sets: effects that trigger each other without end (with the cards and the
    path), conditions that never hold, cost bounds no card of the set meets, `becomes
    target` triggers in a set where nothing targets.  Game files: effects no card does;
    for a game played by its rounds, zones, counters, options, kinds, relations and
    signs nothing uses, and cards no step puts anywhere.  docs/language.md ("Lint")
    says why each is certain and what is left out.  A file with errors prints them
    (as `wgdsl check`) and exits 1; warnings alone exit 0.

    \b
    Examples:
      wgdsl lint                                   the built-in WG01 set
      wgdsl lint mine.wg --graph
      wgdsl lint examples/games/war.game wgdsl/games/getgem/getgem.game
    """
    from wgdsl.lang.diagnostics import render_all
    from wgdsl.tools.lint import lint_paths

    from .resources import builtin_cards_path

    failed = False
    for linted in lint_paths(list(files) or [str(builtin_cards_path())], graph=graph):
        sources = {linted.path: linted.text} if linted.text is not None else {}
        if linted.diagnostics:
            echo(render_all(linted.diagnostics, sources), err=True)
        if linted.errors:
            failed = True
            echo(f"{linted.path}: has errors (`wgdsl check`); not linted", err=True)
            continue
        for line in linted.graph:
            echo("  " + line)
        echo(linted.summary)
    click.get_current_context().exit(EXIT_FINDINGS if failed else EXIT_OK)


def _simulate_development(card_id, game_name, with_cards, side, as_json) -> bool:
    """``wgdsl simulate ID --game wonderful-world``; False for another game."""
    from wgdsl.games.wonderful_world.game import WonderfulWorld

    game = _load_game(game_name)
    if not isinstance(game, WonderfulWorld):
        if with_cards or side:
            raise click.UsageError("--with and --side are It's a Wonderful World's")
        return False
    from wgdsl.tools.simulate_wonderful_world import simulate, text

    try:
        report = simulate(game, card_id, tuple(with_cards), side=side or "B")
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    if as_json:
        echo_json({"command": "simulate", "game": game.id, "card": report.card,
                   "production": {k: list(v) for k, v in report.production.items()},
                   "score": {k: list(v) for k, v in report.score.items()},
                   "bonus": list(report.bonus)})
    else:
        echo(text(game, report))
    return True


def _simulate_imitation(card_id, game_name, target, answer_values, then_steps) -> bool:
    """``wgdsl simulate ID --game imitation-world``; False for another game."""
    if game_name != "imitation-world":
        return False
    from wgdsl.tools.simulate_imitation_world import simulate, text

    game = _load_game(game_name)
    answers = tuple(a.split("=", 1)[-1].strip() for item in answer_values
                    for a in item.split(",") if a.strip())
    try:
        sim = simulate(game, card_id, target, answers, tuple(then_steps))
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    echo(text(game, sim))
    click.get_current_context().exit(EXIT_FINDINGS if sim.refused else EXIT_OK)
    return True


# --------------------------------------------------------------------------- simulate (GETGEM)
def _simulate_other(card_id, game_name, seats, effect, target, answer_values, seed, as_json,
                    state_file, square, then_steps, cards_path) -> None:
    """``wgdsl simulate ID --game getgem`` (wgdsl.tools.simulate_getgem)."""
    from wgdsl.tools.simulate_getgem import simulate, text

    given = [flag for flag, value in (("--state", state_file), ("--square", square),
                                      ("--then", then_steps), ("--cards", cards_path)) if value]
    if given:
        raise click.UsageError(f"{', '.join(given)}: World Gainer's; a GETGEM card is simulated "
                               "on a board of its own (--seats, --effect, --target, --answers)")
    game = _load_game(game_name)
    if not hasattr(game, "table") or not hasattr(game, "seat_names"):
        raise click.UsageError(f"--game {game_name}: simulate knows World Gainer and GETGEM cards")
    answers = tuple(a.split("=", 1)[-1].strip() for item in answer_values
                    for a in item.split(",") if a.strip())
    try:
        sim = simulate(game, card_id, seats or game.seat_range[0], effect, target, answers, seed)
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    if as_json:
        echo_json({"command": "simulate", "game": game.id, "card": sim.card, "effect": sim.effect,
                   "target": sim.target, "refused": sim.refused or None,
                   "events": list(sim.events),
                   "defaulted": [{"seat": s, "question": k, "answer": a}
                                 for s, k, a in sim.defaulted],
                   "state": sim.data})
    else:
        echo(text(game, sim))
    if sim.refused:
        click.get_current_context().exit(EXIT_FINDINGS)


# --------------------------------------------------------------------------- simulate
def _case_square(case, card_id):
    """(square, step number) of the case's play step for this card (or its first play step)."""
    plays = [s for s in case.steps if s.action == "play" and s.square]
    step = next((s for s in plays if s.card == card_id), plays[0] if plays else None)
    return (step.square, step.number) if step is not None else (None, None)


@main.command("simulate")
@click.argument("card_id", metavar="ID")
@click.option("--state", "state_file", type=click.Path(dir_okay=False),
              help="A board to play on: the [state] and [answers] of a ruling case file "
                   "(docs/rulings.md); the square of its play step unless --square is given. "
                   "Default: a board built so the card can be played.")
@click.option("--square", type=click.Choice(["A1", "A2", "A3", "C1", "C2", "C3", "B1", "B2", "B3"]),
              help="Where to play it. Default: the case's play step square (--state), else "
                   "the first legal square, battle field first.")
@click.option("--answers", "answer_values", multiple=True, metavar="P=ANSWER,...",
              help="Answers to the choices effects ask, in order: A=C1,A=yes,B=no "
                   "(a square, a card id, `slot N`, yes/no or a color). Unanswered "
                   "choices take the first option and are reported.")
@click.option("--then", "then_steps", multiple=True, metavar="STEP",
              help="After the play, go on with this action (repeatable, in order): next, "
                   "end_turn, exhaust N, break_stun N, discard_stun N, break_field SQUARE, "
                   "activate SQUARE, set_stun ID, play ID SQUARE; `B: ...` for a player "
                   "other than the one whose turn it is.")
@click.option("--seed", default=0, show_default=True, type=int,
              help="Seed for random effects and shuffles.")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON document (docs/json.md) instead of text.")
@click.option("--cards", "cards_path", type=click.Path(dir_okay=False), default=None,
              help=CARDS_OPTION_HELP)
@click.option("--game", "game_name", metavar="GAME", default=None,
              help="Another game's card: getgem (or a GETGEM game file). Default: World Gainer.")
@click.option("--seats", type=click.IntRange(min=1), default=None,
              help="GETGEM: how many seats the board has (2 to 5; default 2).")
@click.option("--effect", default=None,
              help="GETGEM: which effect of a card of two (steal_push, peeping). Default: its first.")
@click.option("--target", default=None,
              help="GETGEM: the seat the card selects. Default: the next seat (B). Imitation "
                   "World: the play's choice (a REF like B:ID, territory, a trash id).")
@click.option("--with", "with_cards", multiple=True, metavar="ID",
              help="It's a Wonderful World: a card already constructed beside it (repeatable).")
@click.option("--side", type=click.Choice(["A", "B"]), default=None,
              help="It's a Wonderful World: the empire side (default B).")
def simulate_command(card_id, state_file, square, answer_values, then_steps, seed, as_json,
                     cards_path, game_name, seats, effect, target, with_cards, side):
    """Play one card and show the board before and after, every event and every effect.

    \b
    The active player plays ID from hand (it is added to the hand if missing), pays
    from the pool, and everything that follows is shown: placement (R9–R11), its
    dimension effect, responses and triggered effects of other cards.  Then each
    effect of the card is listed with what became of it: resolved, fired, waiting for
    its trigger (with the --then steps that make it fire), usable now or not and why,
    or the rule a static effect changes.  If it cannot be played, the reason and the
    rule are printed and the exit status is 1.
    \b
    Examples:
      wgdsl simulate ID                       (ids: `wgdsl cards`)
      wgdsl simulate ID --answers A=C2,A=yes  answer its choices
      wgdsl simulate ID --state case.toml     on a ruling case's board
      wgdsl simulate ID --cards mine.wg       a card of your own set
    \b
    After the play, --then goes on (the output suggests the steps):
      wgdsl simulate ID --then "break_field C1"         break it: `leaves field` fires
      wgdsl simulate ID --then end_turn --then end_turn  its owner's next turn starts
    
    A GETGEM card is used by A on a board where it can be (A holds it and a gem of each
    element, every other seat three cards); its questions take --answers in order
    (yes/no, a card id) or their first answer, which the output says:
      wgdsl simulate ID --game getgem --effect steal_push --target C --seats 3
      wgdsl simulate ID --game getgem --answers yes,no
    \b
    An It's a Wonderful World card is shown by what it adds: P1's production in each step
    and score by category, without and with it (beside --with cards):
      wgdsl simulate ID --game wonderful-world --with ID --with ID --side A
    \b
    An Imitation World card is played by A in main phase 1 of turn 3, its cost zone full
    enough, a geuda on each side (one of B's pān); --target picks its choice, --answers
    its abilities' questions, --then engine actions after it:
      wgdsl simulate ID --game imitation-world       (ids: wgdsl cards --game imitation-world)
      wgdsl simulate ID --game imitation-world --target territory
      wgdsl simulate ID --game imitation-world --then next --then next --then next
    """
    if game_name is not None and game_name != "world-gainer":
        if _simulate_imitation(card_id, game_name, target, answer_values, then_steps):
            return
        if _simulate_development(card_id, game_name, with_cards, side, as_json):
            return
        _simulate_other(card_id, game_name, seats, effect, target, answer_values, seed, as_json,
                        state_file, square, then_steps, cards_path)
        return
    if with_cards or side:
        raise click.UsageError("--with and --side are It's a Wonderful World's "
                               "(--game wonderful-world)")
    if seats is not None or effect is not None or target is not None:
        raise click.UsageError("--seats, --effect and --target are GETGEM's (--game getgem)")
    from wgdsl.lang.cards import load_cards
    from wgdsl.tools.listing import find_card
    from wgdsl.tools.rulings import CaseProblems, build_state, load_case
    from wgdsl.tools.simulate import parse_answers, parse_step, simulate, to_json_dict

    library = load_cards(cards_path)
    try:
        steps = [parse_step(s) for s in then_steps]
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--then")
    try:
        extra = parse_answers(answer_values)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--answers")
    state = None
    answers = {"A": [], "B": []}
    square_note = None
    case = None
    if state_file is not None:
        try:
            case = load_case(state_file, library, board_only=True)
        except CaseProblems as err:
            echo(f"{state_file}: error: " + "; ".join(err.problems), err=True)
            click.get_current_context().exit(EXIT_FINDINGS)
        library = case.library
        state = build_state(case)
        answers = {p: list(v) for p, v in case.answers.items()}
        seed = case.seed
    card, hint = find_card(library, card_id)
    if card is None:
        _unknown_card(card_id, library, hint)
    if case is not None and square is None:
        square, number = _case_square(case, card.id)
        if square is not None:
            square_note = f"the square of the case's step {number}"
    for p in answers:
        answers[p] = list(answers[p]) + extra[p]
    sim = simulate(library, card.id, state=state, answers=answers, square=square, seed=seed,
                   then=steps)
    if as_json:
        echo_json(to_json_dict(sim))
        click.get_current_context().exit(EXIT_FINDINGS if sim.error else EXIT_OK)
    where = ""
    if sim.square:
        where = f", onto {sim.square}" + (f" ({square_note})" if square_note else "")
    echo(f"Simulating {card.id} {card.name} ({card.en_name}): {card.color}, cost {card.cost}, "
         f"requires {card.required}" + where)
    echo("\n== before ==")
    echo(sim.before_text)
    echo("\n== what happened ==")
    for line in sim.log:
        echo(line)
    if not sim.log:
        echo("nothing: the play was refused (see the error below)")
    if sim.played:
        echo("\n== after ==")
        echo(sim.after_text)
    echo(f"\n== the effects of {card.id} ==")
    command = _simulate_command(card.id, cards_path, state_file, square if square_note is None
                                else None, answer_values, then_steps)
    if not sim.effects:
        echo("(it has no effects)")
    for report in sim.effects:
        echo(f"- {report.header} [{report.status}]")
        echo(f"    {report.detail}")
        if report.fire:
            echo("    to see it: " + command + " " + " ".join(
                f"--then {_quote(s)}" for s in report.fire))
        elif report.status == "waiting":
            echo("    to see it: go on after the play with --then STEP (see --help), or "
                 "play it on a board of your own with --state case.toml")
    if sim.defaulted:
        echo("\nchoices not answered took the first option (use --answers):")
        for d in sim.defaulted:
            echo(f"  {d}")
    if sim.unused:
        echo("\nanswers not used: " + "; ".join(sim.unused))
    if sim.error:
        echo(f"error: {sim.error}", err=True)
        click.get_current_context().exit(EXIT_FINDINGS)


def _quote(word: str) -> str:
    import shlex

    return shlex.quote(word)


def _simulate_command(card_id, cards_path, state_file, square, answer_values, then_steps) -> str:
    parts = ["wgdsl", "simulate", card_id]
    if cards_path:
        parts += ["--cards", cards_path]
    if state_file:
        parts += ["--state", state_file]
    if square:
        parts += ["--square", square]
    for a in answer_values:
        parts += ["--answers", a]
    for s in then_steps:
        parts += ["--then", s]
    return " ".join(_quote(p) for p in parts)



# -------------------------------------------------------------------------- rules
@main.command("rules")
@click.argument("rule", required=False)
@click.option("--search", "phrase", metavar="WORD", default=None,
              help="List the rules that mention WORD (or a phrase in quotes), in any case.")
@click.option("--file", "reference", metavar="FILE", default=None,
              help="Another game's rules reference in the same layout (default: World Gainer's).")
def rules_command(rule, phrase, reference):
    """Print the rules of World Gainer that refusals, errors and ruling cases cite (R8.2).

    \b
    Examples:
      wgdsl rules                      every rule: its number and title
      wgdsl rules R8                   field priority, with all its sub-rules
      wgdsl rules R8.2                 the one sub-rule a message cited
      wgdsl rules 11.1                 `R` may be left out, any case works
      wgdsl rules --search aiko        the rules that mention a word
      wgdsl rules --search "project decision"
    \b
    The reference is docs/rules.md (inside the package once installed).  "Ruling" marks
    the project's reading where the sources are silent or disagree, "Project decision" a
    choice of wgdsl itself.  An unknown rule, or a search that finds nothing, exits with
    status 1 and says what is near; a wrong use of the command exits with 2.
    """
    from wgdsl.tools.rulebook import (LayoutError, UnknownRule, builtin, load, render_list,
                                      render_matches, render_rule)

    from .files import Unreadable

    def fail(message: str, hint: str = "") -> None:
        echo(message + (f"\n  hint: {hint}" if hint else ""), err=True)
        sys.exit(EXIT_FINDINGS)

    if rule is not None and phrase is not None:
        raise click.UsageError("give a RULE or --search WORD, not both")
    if phrase is not None and not phrase.strip():
        raise click.BadParameter("give a word to search for", param_hint="--search")
    try:
        book = builtin() if reference is None else load(reference)
    except Unreadable as err:
        where = f"{reference}:{err.line}:{err.col}" if err.line else reference
        fail(f"{where}: error: {err.message}", err.hint or "")
    except LayoutError as err:
        fail(f"{err.path}:{err.line}: error: {err.message}" if err.line
             else f"{err.path}: error: {err.message}")
    except FileNotFoundError as err:  # an installation without its data files
        fail(f"error: {err}")
    if phrase is not None:
        matches = book.search(phrase)
        if not matches:
            near = book.words_near(phrase.strip())
            fail(f"error: no rule mentions `{phrase.strip()}`",
                 f"did you mean `{near}`?" if near else "`wgdsl rules` lists the rules")
        echo(render_matches(matches))
    elif rule is not None:
        try:
            echo(render_rule(book, book.find(rule)))
        except UnknownRule as err:
            fail(f"error: {err.message}", err.hint)
    else:
        echo(render_list(book))


# ---------------------------------------------------------------------------- lsp
@main.command("lsp")
@click.option("--stdio", is_flag=True, help="Speak on standard input and output (the default "
              "and only transport; editors' clients pass it).")
def lsp_command(stdio):
    """Run the language server for editors: card files, game files, ruling cases.

    \b
    The editor starts it and speaks the language server protocol on its standard input
    and output; nothing else is printed there.  It gives, as you type:
      diagnostics   the messages of `wgdsl check` (and of `wgdsl rulings` for a case)
      hover         a card's text in Japanese and English; a rule's text for R8.2
      completion    keywords, zones, colors, card ids and names of the set
      definition    the file of `include "..."`, the `card` line of an id or a name
      formatting    `wgdsl fmt` of a card file
    \b
    Examples:
      wgdsl lsp                     what an editor runs (VS Code: editors/vscode)
      pip install 'wgdsl[lsp]'      what it needs: pygls
    \b
    Without pygls it says what to install and exits with status 1.
    """
    from wgdsl.tools.lsp import missing, serve

    why = missing()
    if why is not None:
        echo(f"error: {why}", err=True)
        click.get_current_context().exit(EXIT_FINDINGS)
    serve(__version__)
