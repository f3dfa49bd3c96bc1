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

CARDS_OPTION_HELP = "A card set file (.wg) to use instead of the built-in WG01 set."


class _Group(click.Group):
    """Turns a DiagnosticError escaping a command into diagnostics and exit 1."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except DiagnosticError as err:
            click.echo(err.render(), err=True)
            ctx.exit(1)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="wgdsl")
def main():
    """wgdsl — the World Gainer card language, rules engine and ruling-case runner.

    \b
    Card designers write cards in the DSL (cards/*.wg), check them and read them back:
      wgdsl check mine.wg          check a card set (default: built-in WG01)
      wgdsl cards --cards mine.wg  list a set's cards
      wgdsl show WG-006            one card's stats and effect
    """


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


def run():  # pragma: no cover - console entry point helper
    sys.exit(main())
