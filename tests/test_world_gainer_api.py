"""World Gainer through the public engine interface (engine-api.md): the invariants of
tests/engine_api_props.py over random games, decisions as data (a question stops an action;
its answer resumes it where it stopped), the two drivers (in-process agents and stepping
from outside) giving the same log, observations that hide what the rules hide, and
parse_action."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings, strategies as st

import engine_api_props as props
import wgdsl
from helpers import board
from straight_path import outcome as _outcome, play_both, wrong_applies
from wgdsl.games.world_gainer.api import GAME, WGState, WorldGainer
from wgdsl.games.world_gainer.agents import RandomAgent
from wgdsl.games.world_gainer.engine import Action, Game
from wgdsl.kernel.api import Game as GameProtocol, State as StateProtocol
from wgdsl.kernel.decision import Answer
from wgdsl.kernel.errors import IllegalAction
from wgdsl.kernel.stepper import Stepper

HERE = os.path.dirname(os.path.abspath(__file__))
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or "ci"
# a World Gainer game is ~220 actions and the properties check every one: few games in CI
EXAMPLES = {"deep": 10_000}.get(PROFILE, 6)


def _has_hidden(state: WGState, seat: str) -> bool:
    """Something hidden from ``seat`` that a re-deal can change: two different cards among
    those its observation shows as None (its own stock; the other player's hand, stuns and
    stock together), read from the observation and to_dict, not from the state's own idea."""
    seen, whole = state.observation(seat)["players"], state.to_dict()["players"]
    for p in state.seats:
        ids = set()
        for zone in ("stock", "hand", "standby"):
            for shown, true in zip(seen[p][zone], whole[p][zone]):
                if zone == "standby":
                    shown, true = (shown or {}).get("card"), (true or {}).get("card")
                if shown is None and true is not None:
                    ids.add(true)
        if len(ids) > 1:
            return True
    return False


SUBJECT = props.Subject(game=GAME, seat_counts=st.just(2), max_actions=lambda n: 3000,
                        factory="wgdsl.games.world_gainer.api:WorldGainer", path=HERE,
                        has_hidden=_has_hidden, resample_seeds=4)
# random play draws a few hundred numbers a game: a large input by Hypothesis' measure
RUN = settings(max_examples=EXAMPLES, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("name", sorted(props.ALL))
def test_world_gainer_keeps_the_property(name):
    props.ALL[name](SUBJECT, RUN)


def test_world_gainer_is_deterministic_across_processes():
    props.check_determinism(SUBJECT, games=6)


def test_load_game_and_the_protocols():
    game = wgdsl.load_game("world-gainer")
    assert isinstance(game, GameProtocol) and isinstance(game, WorldGainer)
    assert (game.id, game.name, game.seat_range) == ("world-gainer", "World Gainer", (2, 2))
    state = game.new_state(seed=1)
    assert isinstance(state, StateProtocol)
    assert state.seats == ("A", "B") and state.current_seats() == ("A",)


def test_load_game_says_what_exists():
    with pytest.raises(ValueError, match="world-gainer"):
        wgdsl.load_game("chess")


@pytest.mark.parametrize("kwargs, message", [
    ({"seats": 3}, "2 seats"),
    ({"options": {"speed": 1}}, "unknown option"),
    ({"options": {"first": "C"}}, "first"),
    ({"decks": [["no-such-card"] * 40, ["no-such-card"] * 40]}, "not in the set"),
])
def test_new_state_refuses_what_world_gainer_is_not(kwargs, message):
    with pytest.raises(ValueError, match=message):
        GAME.new_state(seed=0, **kwargs)


# ------------------------------------------------------------------ decisions as data
def _random_walk(state: WGState, rnd: random.Random, stop=lambda s: False) -> list:
    taken = []
    while not state.is_terminal() and not stop(state):
        seat = state.current_seats()[0]
        legal = state.legal_actions(seat)
        action = legal[rnd.randrange(len(legal))]
        state.apply(seat, action)
        taken.append((seat, action))
    return taken


def _first_question(seed_from: int = 0):
    """A game stepped from outside, stopped at its first question."""
    for seed in range(seed_from, seed_from + 200):
        state = GAME.new_state(seed=seed)
        _random_walk(state, random.Random(seed), stop=lambda s: s.question is not None)
        if state.question is not None:
            return seed, state
    raise AssertionError("no random game of 200 asked a question")


def test_a_question_is_data_and_its_answers_are_actions():
    _, state = _first_question()
    dec = state.question.decision
    assert state.current_seats() == (dec.seat,)
    legal = state.legal_actions(dec.seat)
    assert legal == [Answer(dec.seat, o) for o in dec.options] and len(legal) >= 2
    other = next(s for s in state.seats if s != dec.seat)
    assert state.legal_actions(other) == []
    assert state.to_dict()["decision"]["options"] == list(dec.options)
    # refusals at a question change nothing
    before = props.frozen(state)
    for seat, action in [(dec.seat, Answer(dec.seat, "no-such-option")),
                         (dec.seat, Action("next", dec.seat)), (other, Action("next", other))]:
        with pytest.raises(IllegalAction) as err:
            state.apply(seat, action)
        assert err.value.rule
    assert props.frozen(state) == before


def test_an_answer_resumes_the_action_where_it_stopped():
    """The log of the stopped action up to the question is kept as it was; the answer only
    adds to it (the action is retraced, not redone differently)."""
    _, state = _first_question()
    log_at_question = state.log
    dec = state.question.decision
    state.apply(dec.seat, Answer(dec.seat, dec.options[-1]))
    log = state.log
    assert log[:len(log_at_question)] == log_at_question
    assert any(e["kind"] == "choice" and e["text"].endswith(": " + dec.options[-1])
               for e in log[len(log_at_question):])


def _drivers_differ(state_class=WGState, games: int = 40) -> list:
    """Seeds whose log differs between the fast path (agents asked inside apply) and
    stepping from outside with ``state_class``, for the same actions and answers; also
    the number of games that asked a question."""
    differ, asked = [], 0
    library = GAME._library(None)
    decks = GAME._decks(None, library)
    for seed in range(games):
        state = state_class(GAME.new_state(seed=seed, options={"first": "AB"[seed % 2]}).game)
        taken = _random_walk(state, random.Random(seed))
        answers = [a.option for _, a in taken if isinstance(a, Answer)]
        actions = [a for _, a in taken if not isinstance(a, Answer)]
        asked += bool(answers)

        class Replay(RandomAgent):
            def act(self, view, legal):
                return actions.pop(0)

            def answer(self, view, question):
                return answers.pop(0)

        agent = Replay()
        game = Game.new(library, decks, seed=seed, first="AB"[seed % 2],
                        agents={"A": agent, "B": agent})
        while game.state.winner is None:
            game.apply(agent.act(game.view(game.state.active), game.legal_actions()))
        if game.log.entries != state.game.log.entries or actions or answers:
            differ.append(seed)
    return differ, asked


def test_in_process_agents_and_stepping_from_outside_give_the_same_log():
    """The fast path and the public interface (questions as data) are one engine: the same
    actions and answers give the same log, byte for byte."""
    differ, asked = _drivers_differ()
    assert not differ
    assert asked >= 5  # enough games asked questions for the comparison to mean something


def test_clone_and_resample_at_a_question():
    seed, state = _first_question()
    twin = state.clone()
    assert props.frozen(twin) == props.frozen(state)
    dec = state.question.decision
    for s in (state, twin):
        s.apply(dec.seat, Answer(dec.seat, dec.options[0]))
    assert props.frozen(twin) == props.frozen(state)
    seed, state = _first_question(seed + 1)
    seat = state.question.decision.seat
    before = props.frozen(state)
    other = state.resample(seat, 7)
    assert props.frozen(state) == before
    assert other.observation(seat) == state.observation(seat)
    assert other.question is not None and other.question.decision == state.question.decision


# ------------------------------------------------------------------ observations
def test_an_observation_hides_the_other_hand_the_stocks_and_face_down_stuns():
    state = GAME.new_state(seed=5)
    rnd = random.Random(5)
    _random_walk(state, rnd, stop=lambda s: s.game.state.turn >= 6)
    st_ = state.game.state
    obs = state.observation("A")
    assert obs["players"]["A"]["hand"] == [i.id for i in st_.players["A"].hand]
    assert obs["players"]["B"]["hand"] == [None] * len(st_.players["B"].hand)
    assert obs["players"]["A"]["stock"] == [None] * len(st_.players["A"].stock)
    for slot, inst in zip(obs["players"]["B"]["standby"], st_.players["B"].standby):
        if inst is not None and not inst.exhausted:
            assert slot["card"] is None
    b_stuns = [e for e in obs["log"] if e["seat"] == "B" and e["kind"] == "set_stun"]
    assert b_stuns and all(e["text"] == "sets a stun" for e in b_stuns)
    mine = [e for e in obs["log"] if e["seat"] == "A" and e["kind"] == "set_stun"]
    assert mine and all("WG-" in e["text"] or "sets" in e["text"] for e in mine)
    assert mine[0]["text"] != "sets a stun"


def test_a_card_seen_on_the_field_stays_known_in_a_hand():
    """A card an effect returns from the field to its owner's hand was seen by both
    players: the other seat's observation names it there, and resample keeps it."""
    game = board(field={"C1": ("B", ["WG-001"])}, hands={"A": ["WG-002"]},
                 stocks={"A": ["WG-003", "WG-004"], "B": ["WG-005", "WG-006"]})
    game.move(game.state.field["C1"][0], "hand")
    state = WGState(game)
    assert state.observation("A")["players"]["B"]["hand"] == ["WG-001"]
    assert state.resample("A", 3).observation("A")["players"]["B"]["hand"] == ["WG-001"]


# ------------------------------------------------------------------ actions as text
@pytest.mark.parametrize("text", ["A play WG-001 C2", "A play WG-013 C2 copying B1",
                                  "B exhaust slot 2", "A break_field C1", "A set_stun WG-004",
                                  "A next", "B end_turn", "A activate A3", "B answer slot 2",
                                  "A answer yes"])
def test_parse_action_reads_back_str(text):
    seat = text.split()[0]
    assert str(GAME.new_state(seed=0).parse_action(seat, text)) == text


@pytest.mark.parametrize("seat, text, message", [
    ("A", "", "cannot read"), ("A", "B next", "action of B"), ("A", "A fly", "unknown action"),
    ("A", "A exhaust slot x", "exhaust slot N"), ("A", "A play WG-001 Z9", "play CARD SQUARE"),
    ("A", "A answer", "answer what"),
])
def test_parse_action_says_what_is_wrong(seat, text, message):
    with pytest.raises(IllegalAction, match=message):
        GAME.new_state(seed=0).parse_action(seat, text)


def test_the_readme_example_runs(capsys):
    """README's "Playing from Python" block, as written, plays a game to its end."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Playing from Python", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "README.md", "exec"), {})
    printed = capsys.readouterr().out
    assert printed.startswith("(") and ("R12." in printed), printed


# ------------------------------------------------------------------ the properties catch breaks
class KeepsRefusedLog(WGState):
    """Rolling back to a snapshot forgets to take the stopped action's log lines back."""

    def _restore(self, saved):
        snap, mark = saved
        super()._restore((snap, len(self.game.log.entries)))


class SharesLog(WGState):
    """A copy whose log is the original's list."""

    def _copy(self):
        twin = super()._copy()
        twin.game.log.entries = self.game.log.entries
        return twin


class RedealsNothing(WGState):
    def _hidden(self, seat):
        return []


class _Broken(WorldGainer):
    def __init__(self, cls):
        super().__init__()
        self.cls = cls

    def new_state(self, *args, **kwargs):
        state = super().new_state(*args, **kwargs)
        return self.cls(state.game)


FIND = props.find_break(4)  # whole World Gainer games: a few find each break


def test_a_retrace_that_keeps_the_stopped_log_is_caught():
    differ, _ = _drivers_differ(KeepsRefusedLog, games=20)
    assert differ


@pytest.mark.parametrize("cls, check, message", [
    (SharesLog, props.check_clone, r"\(2\)"),
    (RedealsNothing, props.check_resample, r"\(3\)"),
])
def test_a_broken_world_gainer_state_is_caught(cls, check, message):
    subject = SUBJECT.__class__(**{**SUBJECT.__dict__, "game": _Broken(cls)})
    with pytest.raises(AssertionError, match=message):
        check(subject, FIND)


class NeverAsks(WGState):
    def _may_ask(self, seat, action):
        return False


def test_an_action_said_to_ask_nothing_that_asks_is_a_loud_error():
    """Without a snapshot a question could not be resumed: the Stepper says whose promise
    was wrong instead of leaving a half-done action behind."""
    with pytest.raises(RuntimeError, match="_may_ask said"):
        for seed in range(200):
            _random_walk(NeverAsks(GAME.new_state(seed=seed).game), random.Random(seed))


class CountsPasses(props.StepSpy, WGState):
    """Records every step, whether a snapshot was promised (``_may_ask``) and whether a
    question came."""

    seen: list = []


def test_passing_the_turn_is_snapshotted_only_when_a_field_card_listens_to_the_turn():
    """The automatic phases (R5) emit only turn_start and turn_end, so passing the turn
    asks a question only through a trigger of a field card for one of them: only then is
    the state snapshotted before the step (Game.phases_may_ask).  A wrong "cannot ask" is
    a loud RuntimeError (the test above), a needless "may ask" a lost speed-up."""
    CountsPasses.seen = []
    for seed in range(300):
        _random_walk(CountsPasses(GAME.new_state(seed=seed).game), random.Random(seed))
    passes = [(promised, asked) for stepped, promised, asked in CountsPasses.seen
              if stepped.kind in ("next", "end_turn")]
    asked = [p for p in passes if p[1]]
    assert asked, "no turn passed in 300 games met a question (the test lost its subject)"
    assert all(promised for promised, _ in asked)
    skipped = sum(not promised for promised, _ in passes)
    assert skipped > len(passes) * 0.9, f"only {skipped} of {len(passes)} passes skipped the snapshot"


class KernelPath(WGState):
    """World Gainer stepped by the kernel's generic path: a hook of its own (the same as
    WGState's) turns the straight is_terminal/legal_actions/apply off (__init_subclass__)."""

    def _run(self, seat, action, answers):
        super()._run(seat, action, answers)

    def _copy(self) -> "KernelPath":
        return KernelPath(self.game.copy())


def _probes(state: WGState, seat: str, legal: list) -> list:
    """Wrong applies of every sort, each on its own clone: out of turn, not listed, not an
    action, unhashable, a stray answer, and an action given without legal_actions asked."""
    other = next(s for s in state.seats if s != seat)
    wrong = [(other, legal[0]), (seat, Action("next", other)), (seat, "A next"),
             (seat, ["unhashable"]), (seat, Answer(seat, "yes")),
             (seat, Action("play", seat, card="XX-999", square="C2"))]
    return wrong_applies(state, seat, legal, wrong)


def test_the_straight_path_steps_as_the_kernels_path():
    """WGState's own is_terminal/legal_actions/apply (the public loop's common case, no
    hook called) and the kernel's generic path give the same seats, the same lists for
    both seats, the same questions, the same refusals and the same games, answers
    included.  (Shown failing on purpose: the straight apply taking a play for one that
    never asks, and keeping the last state's lists.)"""
    assert KernelPath.apply is Stepper.apply and WGState.apply is not Stepper.apply
    questions = 0
    for seed in range(40):
        fast, slow = GAME.new_state(seed=seed), KernelPath(GAME.new_state(seed=seed).game)
        questions += play_both(fast, slow, random.Random(seed), _probes, 25)
        assert fast.to_dict() == slow.to_dict() and fast.log == slow.log
        over = _outcome(lambda: fast.apply(fast.seats[0], Action("next", fast.seats[0])))
        assert over == _outcome(lambda: slow.apply(slow.seats[0], Action("next", slow.seats[0])))
        assert over[0] == "refused" and "game is over" in over[1]
    assert questions > 20  # the answers were stepped too


def _engine_facts(state: WGState) -> tuple:
    """What a step leaves in the engine besides the board: the log, the private marks,
    what each seat knows, the action's log mark and effect count, the field version the
    win was last checked at, the triggers waiting."""
    g = state.game
    return (state.to_dict(), state.log, sorted(g.private), dict(g.state.known), g._log_mark,
            g._resolved, g._checked_version, len(g.pending))


def test_the_straight_apply_runs_the_engines_apply_body():
    """The straight path runs Game.apply's body inline for an action it lists (its
    refusals of a wrong action skipped); a state whose game's apply is not the engine's
    calls it instead.  The two leave the same engine behind at every step, and a handler
    that refuses a listed action takes its log lines back in both.  (Shown failing on
    purpose: the inline body without its win check; without its effect count reset;
    keeping a refused handler's log lines.)"""
    steps = 0
    for seed in range(12):
        fast, plain = GAME.new_state(seed=seed), GAME.new_state(seed=seed)
        assert fast._own_apply
        plain._own_apply = False  # as for a Game whose apply is a subclass's
        rnd = random.Random(seed)
        while not fast.is_terminal():
            seat = fast.current_seats()[0]
            legal = fast.legal_actions(seat)
            assert plain.legal_actions(seat) == legal
            action = legal[rnd.randrange(len(legal))]
            fast.apply(seat, action)
            plain.apply(seat, action)
            assert _engine_facts(fast) == _engine_facts(plain), f"seed {seed}: {action}"
            steps += 1
    assert steps > 2000

    class Refusing(Game):
        def _do_next(self, a):  # logs, then refuses (as a handler's own rule may)
            self.note(a.player, "phase", "about to refuse")
            raise IllegalAction("refused by its handler", "R5")

    refused = []
    for own in (True, False):
        game = GAME.new_state(seed=3).game
        state = WGState(Refusing(game.state, game.library, None, True))
        state.game.log.raw[:] = game.log.raw
        assert state._own_apply  # (its apply is the engine's; its handler is its own)
        state._own_apply = own
        seat = state.current_seats()[0]
        nxt = next(a for a in state.legal_actions(seat) if a.kind == "next")
        before = state.log
        refused.append(_outcome(lambda: state.apply(seat, nxt)))
        assert state.log == before
    assert refused[0] == refused[1] and refused[0][0] == "refused"
