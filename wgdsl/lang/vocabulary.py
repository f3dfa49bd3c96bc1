"""The words a card language takes from its game file: :class:`Vocabulary`.

A card file is written for a game.  Which colors and marks a card may have, which phases an
effect may name (``during your gain phase``) and which zones there are is not the card
language's to decide: the game file says it (``stat color blue, green, red, yellow``,
``stat mark ... default by color: ...``, ``phases start, draw, ...``, ``zone ...``), and the
checker reads it from here, citing the rule the game file gives each declaration
(``rule R2.2``).  A word of another game (``color fire`` in a World Gainer card) is then an
error at its place, with the game's own words as the hint.

:func:`world_gainer` is the vocabulary of the built-in World Gainer game file, read once per
process: the default of every card file (the card language began with that game).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Optional

import attrs

from wgdsl.resources import builtin_game_files, world_gainer_game_path


@attrs.frozen
class Vocabulary:
    """``game``: the game file's id; each word list comes with the rule that declares it."""

    game: str
    colors: tuple  # the values of the stat `color`: the colors of points (R6.2)
    marks: tuple
    mark_of_color: dict = attrs.field(eq=False)
    phases: tuple
    phases_rule: str
    zones: tuple
    path: str = ""
    # stat name -> "word", "number" or "flag": how a card's stat line gives it
    stats: dict = attrs.field(factory=dict, eq=False)
    # the stats every card must give (no default in the game file), in declared order
    required: tuple = ()
    rules: dict = attrs.field(factory=dict, eq=False)  # stat name -> the rule declaring it
    values: dict = attrs.field(factory=dict, eq=False)  # word stat name -> its words
    cards_rule: str = ""  # the rule of the game's `cards` (what a card is: R2.1)
    # the zones laid out as a grid and the words of their rows (`rows battle, my` in the
    # game file: World Gainer's `battle field` and `my field`)
    grids: dict = attrs.field(factory=dict, eq=False)
    # the card language's words of the game (`nouns`, `states`, ... in its game file;
    # World Gainer's when it declares none): the nouns besides `card`, the card states
    # besides `other`, the constructs of the language its engine carries out (FEATURES)
    nouns: tuple = ("stun",)
    noun_stat: str = ""  # `nouns from type`: a card is a `geuda` when its type is
    states: tuple = ("ready", "exhausted")
    uses: frozenset = attrs.field(default=frozenset(), eq=False)
    judgments: tuple = ()
    field_zones: tuple = ()  # `field set, territory`: what its cards' `field` stands for
    ability_zones: tuple = ()  # `abilities in aga`: zones besides the field where abilities work
    # the zones laid out as piles, hidden from all (World Gainer's stock, a deck)
    decks: tuple = ("stock",)
    zone_rules: dict = attrs.field(factory=dict, eq=False)  # zone -> the rule declaring it
    word_rules: dict = attrs.field(factory=dict, eq=False)  # kind -> the rule declaring it

    def has_zone(self, name: str) -> bool:
        """Does the game have zone ``name``?  ``battle field`` and ``my field`` are rows of
        the grid zone ``field`` its game file names (``rows battle, my``: World Gainer's
        R1.2); ``field`` is the zones the game file's `field` line names."""
        if name in self.zones or (name == "field" and self.field_zones):
            return True
        head, _, last = name.rpartition(" ")
        return head in self.grids.get(last, ())

    def value_stat(self, word: str) -> Optional[str]:
        """The word stat (not the nouns') that has value ``word`` (``existence`` ->
        ``faction``), or None."""
        for stat, values in self.values.items():
            if stat != self.noun_stat and word in values:
                return stat
        return None

    @classmethod
    def from_spec(cls, spec) -> "Vocabulary":
        """The vocabulary of a compiled game file (:class:`~wgdsl.lang.game.spec.GameSpec`):
        its kinds' stats and flags, the values of its stats `color` and `mark` (the words
        of points and of marks, when the game has them), its phases and its zones."""
        color = spec.stat("color")
        mark = spec.stat("mark")
        stats: dict = {}
        rules: dict = {}
        required: list = []
        values: dict = {}
        for kind in spec.kinds:
            for stat in kind.stats:
                if stat.name in stats or stat.is_list:
                    continue
                stats[stat.name] = "word" if stat.values else "number"
                rules[stat.name] = stat.rule
                if stat.values:
                    values[stat.name] = tuple(stat.values)
                if stat.required:
                    required.append(stat.name)
            for flag in kind.flags:
                stats.setdefault(flag, "flag")
        words = {w.kind: w for w in spec.card_words}
        more: dict = {}
        if "nouns" in words:
            more.update(nouns=words["nouns"].words, noun_stat=words["nouns"].source)
        if "states" in words:
            more["states"] = words["states"].words
        more["uses"] = frozenset(words["uses"].words) if "uses" in words else WORLD_GAINER_USES
        for kind, field in (("judgments", "judgments"), ("field", "field_zones"),
                            ("abilities", "ability_zones")):
            if kind in words:
                more[field] = words[kind].words
        return cls(
            **more, word_rules={k: w.rule for k, w in words.items()},
            decks=tuple(z.name for z in spec.zones if z.ordered and z.visibility == "hidden"),
            zone_rules={z.name: z.rule for z in spec.zones},
            game=spec.id, colors=tuple(color.values) if color is not None else (),
            marks=tuple(mark.values) if mark is not None else (),
            mark_of_color=dict(mark.defaults) if mark is not None and mark.default_by == "color"
            else {},
            phases=tuple(spec.turn_phases), phases_rule=spec.phases_rule,
            zones=tuple(z.name for z in spec.zones), path=spec.path, stats=stats,
            required=tuple(required), rules=rules, values=values,
            cards_rule=spec.card_set_rule,
            grids={z.name: z.rows for z in spec.zones if z.grid})

    def default_mark(self, color: str) -> str:
        return self.mark_of_color.get(color, "")


# The constructs of the card language beyond its core (docs/language.md, "A game's
# words"): a game file's `uses` line names those its engine carries out.  The core, which
# every game has: `field when|at ...:`, `field activated:` with `cost:`,
# `field static:`, `in ZONE static:`, the events `enters field`, `leaves field`, `start of`
# / `end of` a player's turn, the actions draw, look at, move, choose, may, if, `if you do`,
# and the selectors, filters, zones and destinations of section 8-11.
FEATURES = {
    # World Gainer's
    "dimension": "the effect `dimension:` (World Gainer's effect as its card enters the "
                 "field, R13.1; elsewhere `field when this enters field:`)",
    "seized": "the event `is seized`", "targeted": "the event `becomes target`",
    "plays": "the event `plays a ...`", "exhaust": "the action `exhaust`",
    "shuffle": "the action `shuffle`", "copy": "the action `enter as a copy of`",
    "cancel": "the action `cancel that play`", "add": "the action `add N COLOR points`",
    "swap": "the action `swap`", "stacks": "the selector `every stack on ...`",
    "squares": "the destination `an empty square of ...`",
    "compare": "the condition `you hold fewer|more squares|points|cards in hand than ...`",
    "untargetable": "the rule `this cannot be targeted`",
    "protect": "the rule `this square cannot be seized ...`",
    "onto": "the rule `this can be played onto ... ignoring priority`",
    "chosen": "the rule `this gives points of one chosen color among ...`",
    # Imitation World's
    "out": "the event `is out`", "judgment": "the effect `at judgment ...:`",
    "every": "the events `start of every turn` / `end of every turn`",
    "active": "the action `the active player draws N cards`",
    "turn": "the action `turn SELECTOR STATE`", "gets": "the modifier `gets STAT +N`",
    "until": "the duration `until end of turn`", "attached": "the effect `attached to ...:`",
    "played": "the effect `when played:`", "holds": "the condition `ZONE holds a ...`",
    "if": "a trigger's condition `at EVENT if CONDITION:`",
    "values": "a filter's stat words (`existence geuda`)",
    "or": "a filter's nouns joined by `or` (`geuda or territory`)",
}
# what a game that names none uses: World Gainer's (the card language's first game)
WORLD_GAINER_USES = frozenset(("dimension", "seized", "targeted", "plays", "exhaust", "shuffle", "copy",
                               "cancel", "add", "swap", "stacks", "squares", "compare",
                               "untargetable", "protect", "onto", "chosen"))


def cite(rule: str) -> str:
    """`` (R2.2)`` for a hint's end, or nothing when the game file gives no rule."""
    return f" ({rule})" if rule else ""


@lru_cache(maxsize=1)
def world_gainer() -> Vocabulary:
    """The vocabulary of World Gainer's game file (wgdsl/games/world_gainer/)."""
    from wgdsl.lang.diagnostics import DiagnosticError

    found, problems, text = _read(world_gainer_game_path())
    if found is None:  # the package's own file: a broken install, not a user's mistake
        raise DiagnosticError([p for p in problems if p.severity == "error"],
                              {str(world_gainer_game_path()): text} if text is not None else {})
    return found


@lru_cache(maxsize=8)
def _builtin(game: str) -> Optional[Vocabulary]:
    return _read(builtin_game_files()[game])[0]


def _read(path) -> tuple:
    """(the vocabulary of the game file at ``path`` or None, its problems, its text)."""
    from .game import compile_text, read_source

    text, problems = read_source(path)
    if text is None:
        return None, problems, None
    spec, problems = compile_text(text, str(path))
    return (Vocabulary.from_spec(spec) if spec is not None else None), problems, text


_GAME_HINT = ('write a built-in game\'s id (`game "world-gainer"`) or the path of a .game '
              "file in this file's folder or below it")


def for_game(name: str, card_file: str) -> tuple:
    """The vocabulary of the game a card file names (``game "NAME"``): a built-in game's
    id, or a ``.game`` file beside the card file.  (vocabulary, None) or (None, (message,
    hint)); nothing outside the card file's folder is read."""
    from .cards import beside
    from .diagnostics import did_you_mean, shorten

    games = builtin_game_files()
    if name in games:
        return _builtin(name), None
    cannot = f"cannot read the cards' game `{shorten(name)}`"
    if not name.endswith(".game"):
        known = ", ".join(f"`{g}`" for g in games)
        return None, (f"unknown game `{shorten(name)}`",
                      did_you_mean(name, list(games)) or f"the built-in games are {known}; "
                      "another game is named by the path of its .game file")
    path, refused = beside(name, card_file, "a game file", cannot, _GAME_HINT,
                           "a card file's game file must be in its folder or below it")
    if refused:
        return None, refused
    found, problems, _ = _read(path)
    if found is None:
        first = next((p for p in problems if p.severity == "error"), None)
        why = first.message if first is not None else "it cannot be read"
        return None, (f"{cannot}: {why}", f"`wgdsl check {shorten(name)}` tells what is wrong")
    return found, None

def of(vocabulary: Optional[Vocabulary]) -> Vocabulary:
    """``vocabulary``, or World Gainer's when None."""
    return vocabulary if vocabulary is not None else world_gainer()
