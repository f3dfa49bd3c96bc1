"""The ``wgdsl`` command line.

Each command is a thin layer: it loads input, calls the library, prints.  Every error a
user can cause is printed as a diagnostic on stderr with a non-zero exit, never as a
traceback.
"""

from __future__ import annotations

import sys

import click

from . import __version__
from .diagnostics import DiagnosticError
from .errors import RunawayEffects

CARDS_OPTION_HELP = "A card set file (.wg) to use instead of the built-in WG01 set."


class _Group(click.Group):
    """Turns a DiagnosticError escaping a command into diagnostics and exit 1."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except DiagnosticError as err:
            click.echo(err.render(), err=True)
            ctx.exit(1)
        except RunawayEffects as err:  # a card set whose effects never end (docs/language.md)
            click.echo(f"error: {err.message}", err=True)
            ctx.exit(1)


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
      wgdsl deck check my.txt      is a deck legal (R3)?
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
    \b
    A clean file prints `ok: N cards in PATH`.  Otherwise every problem is printed on
    stderr as `PATH:LINE:COL: error: ...` with the line, a caret under the offending
    words and a hint (often citing the rule, e.g. R13.1), and the exit status is 1.
    Warnings (`PATH:LINE:COL: warning: ...`, such as effects that can trigger each other
    without end) are printed the same way but leave the exit status 0.
    """
    from .cards import check_text, read_source
    from .diagnostics import render_all
    from .resources import builtin_cards_path

    paths = list(files) + ([cards_path] if cards_path else [])
    failed = False
    for path in paths or [str(builtin_cards_path())]:
        text, problems = read_source(path)
        if text is not None:
            cardset, problems = check_text(text, path)
        errors = sum(1 for d in problems if d.severity == "error")
        warnings = len(problems) - errors
        if problems:
            click.echo(render_all(problems, {path: text}), err=True)
        if errors:
            failed = True
            click.echo(f"{path}: {errors} error{'s' if errors != 1 else ''}"
                       + (f", {warnings} warning{'s' if warnings != 1 else ''}" if warnings else ""),
                       err=True)
        else:  # warnings alone do not fail a set
            click.echo(f"ok: {len(cardset.cards)} cards in {path}"
                       + (f" ({warnings} warning{'s' if warnings != 1 else ''})" if warnings else ""))
    click.get_current_context().exit(1 if failed else 0)


@main.command("cards")
@click.option("--cards", "cards_path", default=None, help=CARDS_OPTION_HELP)
@click.option("--text", "as_text", is_flag=True,
              help="Print every card with its stats and rendered card text instead of the table.")
@click.option("--lang", type=click.Choice(["ja", "en"]), default="ja", show_default=True,
              help="Language of the card text (with --text).")
def cards_command(cards_path, as_text, lang):
    """List a card set: id, name, English name, color, cost/required, stun, kind.

    \b
    Examples:
      wgdsl cards                   the built-in WG01 set
      wgdsl cards --cards mine.wg   your own set (it is checked first)
      wgdsl cards --text --lang en  every card as printed text
    \b
    kind: D dimension effect, F field effect, S a static rule that works outside the
    field (in hand, in standby), — no effect (R13).  cost/req is the cost and the
    required cost, the part paid in the card's own color (R6.3).
    """
    from .cards import load_cards
    from .listing import cards_table

    if as_text:
        from .text import card_text_block

        click.echo("\n\n".join(card_text_block(c, lang) for c in load_cards(cards_path)))
        return
    click.echo(cards_table(load_cards(cards_path)))


@main.command("show")
@click.argument("card_id")
@click.option("--cards", "cards_path", default=None, help=CARDS_OPTION_HELP)
@click.option("--lang", type=click.Choice(["ja", "en"]), default=None,
              help="Print the card as printed text in this language instead of as written.")
def show_command(card_id, cards_path, lang):
    """Show one card: its stats, then each effect exactly as its card file wrote it.

    \b
    Examples:
      wgdsl show ID                 (ids: `wgdsl cards`)
      wgdsl show X1-003 --cards mine.wg
      wgdsl show ID --lang ja       stats and card text: 【フィールド】このカードが…
    """
    from .ast import NOWHERE
    from .cards import load_cards, read_source
    from .diagnostics import Diagnostic
    from .listing import find_card, show_card

    library = load_cards(cards_path)
    card, hint = find_card(library, card_id)
    if card is None:
        raise DiagnosticError([Diagnostic(library.path, NOWHERE, f"no card `{card_id}` in this set",
                                          hint or "`wgdsl cards` lists the ids")])
    if lang is not None:
        from .text import card_text_block

        click.echo(card_text_block(card, lang))
        return
    text, problems = read_source(library.path)
    if text is None:
        raise DiagnosticError(problems)
    click.echo(show_card(card, text, library.path))


# ---------------------------------------------------------------------------- fmt
@main.command("fmt")
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--check", "check_only", is_flag=True,
              help="Change nothing; list the files that are not formatted (exit 1 if any).")
@click.option("--write", is_flag=True, help="Rewrite the files in place.")
def fmt_command(files, check_only, write):
    """Print card files in the canonical layout (default: the built-in WG01 set).

    \b
    wgdsl fmt mine.wg            print the formatted text
    wgdsl fmt --check *.wg       list the files that would change
    wgdsl fmt --write mine.wg    rewrite in place

    A file with syntax errors is never rewritten.  Comments other than the file's
    opening comment block cannot be kept; --write refuses such files.
    """
    from .fmt_cmd import run_fmt

    click.get_current_context().exit(run_fmt(files, check_only=check_only, write=write))


@main.group("deck")
def deck_group():
    """Deck (stock) files: one `COUNT ID` per line, `#` comments."""


@deck_group.command("check")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--starter", is_flag=True, help="Starter variant: at least 20 cards (R3.4).")
@click.option("--cards", "cards_path", type=click.Path(dir_okay=False), default=None,
              help=CARDS_OPTION_HELP)
def deck_check(file, starter, cards_path):
    """Check a deck file: its lines, its card ids and the R3 construction rules."""
    from .cards import load_cards
    from .decks import check_deck

    library = load_cards(cards_path)
    deck, problems, sources = check_deck(file, library, starter=starter)
    if problems:
        raise DiagnosticError(problems, sources)
    ids = deck.ids()
    click.echo(f"{file}: ok — {len(ids)} cards, {len(set(ids))} different")


# --------------------------------------------------------------------------- play
DEFAULT_DECKS = ("blue-red-tempo.txt", "green-control.txt")


def _play_decks(deck_files, library):
    from .decks import load_deck
    from .resources import builtin_decks_dir

    if not deck_files:
        deck_files = tuple(str(builtin_decks_dir() / name) for name in DEFAULT_DECKS)
    elif len(deck_files) == 1:
        deck_files = (deck_files[0], deck_files[0])
    elif len(deck_files) > 2:
        raise click.UsageError("give --deck once (both players) or twice (A, then B)")
    decks = {p: load_deck(f, library, validate=True) for p, f in zip("AB", deck_files)}
    if len(decks["A"]) != len(decks["B"]):
        raise click.UsageError(
            f"both stocks must have the same number of cards (R3.1): A has {len(decks['A'])}, "
            f"B has {len(decks['B'])}")
    return decks, deck_files


@main.command("play")
@click.option("--deck", "deck_files", multiple=True, type=click.Path(dir_okay=False),
              help="A deck file (`COUNT ID` lines). Once: both players; twice: A then B. "
                   "Default: the built-in blue-red-tempo (A) and green-control (B) decks.")
@click.option("--agent", "agent_names", multiple=True, type=click.Choice(["random", "greedy"]),
              help="Who plays: once for both players, twice for A then B. Default: greedy.")
@click.option("--seed", default=0, show_default=True, type=int,
              help="Seed of the first game (game i uses seed+i): same seed, same games.")
@click.option("--games", default=1, show_default=True, type=click.IntRange(min=1),
              help="How many games; more than one prints statistics instead of a log.")
@click.option("--first", default=None, type=click.Choice(["A", "B", "alternate"]),
              help="Who goes first (R4.2). Default: A for one game, alternate for several.")
@click.option("--log/--no-log", "show_log", default=None,
              help="Print the turn-by-turn log (default: on for one game, off for several).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--max-turns", default=1000, show_default=True, type=click.IntRange(min=1),
              help="Stop a game that runs longer (a safety net; no rule of the game).")
@click.option("--cards", "cards_path", type=click.Path(dir_okay=False), default=None,
              help=CARDS_OPTION_HELP)
def play_command(deck_files, agent_names, seed, games, first, show_log, as_json, max_turns,
                 cards_path):
    """Play whole games between bots and show what happened.

    \b
    One game (the default) prints the turn-by-turn event log, the final board and the
    winner with the rule that decided it (R12).  Several games print win rates, the
    average number of turns and how the games were won, with a progress bar on a
    terminal.
    \b
    Examples:
      wgdsl play                              one greedy-vs-greedy game, seed 0
      wgdsl play --seed 7 --agent random      one random game
      wgdsl play --games 1000 --agent greedy --agent random
      wgdsl play --deck examples/decks/rainbow-sun.txt --deck examples/decks/green-control.txt
      wgdsl play --cards mine.wg --deck mine-deck.txt --games 200 --json
    """
    import json as _json

    from .board import render_board
    from .cards import load_cards
    from .play import describe_result, play_game, play_many

    library = load_cards(cards_path)
    decks, used = _play_decks(deck_files, library)
    agents = tuple(agent_names) or ("greedy",)
    if len(agents) == 1:
        agents = agents * 2
    elif len(agents) > 2:
        raise click.UsageError("give --agent once (both players) or twice (A, then B)")
    if games == 1:
        game, result = play_game(library, decks, agents, seed, first if first in ("A", "B") else "A",
                                 max_turns)
        if as_json:
            click.echo(_json.dumps({
                "seed": seed, "decks": {"A": used[0], "B": used[1]},
                "agents": {"A": agents[0], "B": agents[1]}, "first": result.first,
                "winner": result.winner, "reason": result.reason, "turns": result.turns,
                "actions": result.actions,
                "log": _json.loads(game.log.to_json()) if show_log is not False else None,
            }, ensure_ascii=False, indent=2))
            return
        if show_log is not False:
            for line in game.log.lines():
                click.echo(line)
            click.echo()
        click.echo(render_board(game.state, "A"))
        click.echo()
        click.echo(describe_result(result))
        return
    on_game = None
    bar = None
    if show_log:
        def on_game(game, result):
            click.echo(f"# game seed {result.seed}: {describe_result(result)}")
            for line in game.log.lines():
                click.echo(line)
    elif not as_json and sys.stderr.isatty():
        bar = click.progressbar(length=games, label="playing", file=sys.stderr)
        bar.__enter__()

        def on_game(game, result):
            bar.update(1)
    try:
        summary = play_many(library, decks, agents, games, seed, first or "alternate", max_turns,
                            on_game=on_game, keep_logs=bool(show_log))
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    if as_json:
        click.echo(_json.dumps({"decks": {"A": used[0], "B": used[1]},
                                "agents": {"A": agents[0], "B": agents[1]}, "seed": seed,
                                **summary.to_dict()}, indent=2))
        return
    click.echo(f"A: {agents[0]} with {used[0]}")
    click.echo(f"B: {agents[1]} with {used[1]}")
    for line in summary.lines():
        click.echo(line)


@main.command("rulings")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-v", "--verbose", is_flag=True,
              help="For a failing case, also print the board and the game log.")
def rulings_command(paths, verbose):
    """Run ruling cases: every *.toml under PATHS (see the ruling-case format).

    Prints `PASS <id>` or `FAIL <id>: <first difference>` per case, `ERROR <path>:
    <problem>` for a file that is not a valid case, then `N passed, M failed`; exits 1
    when any case fails.
    """
    from .board import render_board
    from .rulings import run_paths

    def report(result, keep):
        click.echo(result.line())
        if verbose and not result.ok and keep and "game" in keep:
            game = keep["game"]
            click.echo(render_board(game.state, game.state.active))
            for line in game.log.lines():
                click.echo("    " + line)

    results = run_paths(paths, on_result=report)
    passed = sum(1 for r in results if r.ok)
    failed = len(results) - passed
    click.echo(f"{passed} passed, {failed} failed")
    if failed:
        click.get_current_context().exit(1)


# --------------------------------------------------------------------------- simulate
@main.command("simulate")
@click.argument("card_id", metavar="ID")
@click.option("--state", "state_file", type=click.Path(dir_okay=False),
              help="A board to play on: the [state] and [answers] of a ruling case file "
                   "(docs/rulings.md). Default: a board built so the card can be played.")
@click.option("--square", type=click.Choice(["A1", "A2", "A3", "C1", "C2", "C3", "B1", "B2", "B3"]),
              help="Where to play it. Default: the first legal square, battle field first.")
@click.option("--answers", "answer_values", multiple=True, metavar="P=ANSWER,...",
              help="Answers to the choices effects ask, in order: A=C1,A=yes,B=no "
                   "(a square, a card id, `slot N`, yes/no or a color). Unanswered "
                   "choices take the first option and are reported.")
@click.option("--seed", default=0, show_default=True, type=int,
              help="Seed for random effects and shuffles.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--cards", "cards_path", type=click.Path(dir_okay=False), default=None,
              help=CARDS_OPTION_HELP)
def simulate_command(card_id, state_file, square, answer_values, seed, as_json, cards_path):
    """Play one card and show the board before and after and every event.

    \b
    The active player plays ID from hand (it is added to the hand if missing), pays
    from the pool, and everything that follows is shown: placement (R9–R11), its
    dimension effect, responses and triggered effects of other cards.  If it cannot be
    played, the reason and the rule are printed and the exit status is 1.
    \b
    Examples:
      wgdsl simulate ID                       (ids: `wgdsl cards`)
      wgdsl simulate ID --answers A=C2,A=yes  answer its choices
      wgdsl simulate ID --state case.toml     on a ruling case's board
      wgdsl simulate ID --cards mine.wg       a card of your own set
    """
    import json as _json

    from .cards import load_cards
    from .diagnostics import did_you_mean
    from .rulings import CaseProblems, build_state, load_case
    from .simulate import parse_answers, simulate, to_json_dict

    library = load_cards(cards_path)
    state = None
    answers = {"A": [], "B": []}
    if state_file is not None:
        try:
            case = load_case(state_file, library, board_only=True)
        except CaseProblems as err:
            click.echo(f"{state_file}: error: " + "; ".join(err.problems), err=True)
            sys.exit(1)
        library = case.library
        state = build_state(case)
        answers = {p: list(v) for p, v in case.answers.items()}
        seed = case.seed
    if card_id not in library:
        hint = did_you_mean(card_id, [c.id for c in library])
        click.echo(f"error: no card `{card_id}` in {library.path}" + (f"; {hint}" if hint else ""),
                   err=True)
        sys.exit(1)
    try:
        extra = parse_answers(answer_values)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--answers")
    for p in answers:
        answers[p] = list(answers[p]) + extra[p]
    sim = simulate(library, card_id, state=state, answers=answers, square=square, seed=seed)
    if as_json:
        click.echo(_json.dumps(to_json_dict(sim), ensure_ascii=False, indent=2))
        sys.exit(1 if sim.error else 0)
    card = sim.card
    click.echo(f"Simulating {card.id} {card.name} ({card.en_name}): {card.color}, cost {card.cost}, "
               f"requires {card.required}" + (f", onto {sim.square}" if sim.square else ""))
    click.echo("\n== before ==")
    click.echo(sim.before_text)
    click.echo("\n== what happened ==")
    for line in sim.log:
        click.echo(line)
    if sim.error:
        click.echo(f"error: {sim.error}", err=True)
        sys.exit(1)
    click.echo("\n== after ==")
    click.echo(sim.after_text)
    if sim.defaulted:
        click.echo("\nchoices not answered took the first option (use --answers):")
        for d in sim.defaulted:
            click.echo(f"  {d}")
    if sim.unused:
        click.echo("\nanswers not used: " + "; ".join(sim.unused))


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
    from .files import Unreadable
    from .rulebook import (LayoutError, UnknownRule, builtin, load, render_list, render_matches,
                           render_rule)
    from .terminal import printable

    def fail(message: str, hint: str = "") -> None:
        click.echo(printable(message + (f"\n  hint: {hint}" if hint else "")), err=True)
        sys.exit(1)

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
        click.echo(printable(render_matches(matches)))
    elif rule is not None:
        try:
            click.echo(printable(render_rule(book, book.find(rule))))
        except UnknownRule as err:
            fail(f"error: {err.message}", err.hint)
    else:
        click.echo(printable(render_list(book)))
