"""What the English and Japanese card-text renderers share.

A renderer turns one effect into printed card text sentence by sentence.  The shape of
an effect is the same in every language, so it lives here:

* an optional *lead*: ``While this card is in your hand,`` for an effect that works in
  another zone (R13.2), then the event (``When this card ..., `` / ``…場合、``);
* one sentence per action; an action may need sentences of its own before it (choosing
  the card a copy is made of); an optional action (``may``) makes the next one start
  with "Then" so it is clear that it happens either way;
* for a static effect, one sentence per rule, each with the lead.

Each action becomes a :class:`Clause` that knows both its plain form and its optional
form ("put it ..." / "you may put it ..."; 「置く」/「置いてもよい」), so ``may`` and
``if`` can wrap any action without re-parsing text.

Renderers also remember which card was named last (``this`` or another), so a second
mention of this card becomes a pronoun ("it") in English and is left unsaid in Japanese,
as printed card text does.
"""

from __future__ import annotations

from typing import Optional

import attrs

from . import ast


@attrs.frozen
class Clause:
    plain: str
    optional_form: str
    optional: bool = False

    @property
    def text(self) -> str:
        return self.optional_form if self.optional else self.plain

    def made_optional(self) -> "Clause":
        return attrs.evolve(self, optional=True)


@attrs.frozen
class Rendered:
    """An action as text: sentences said before it, then its clause."""

    clause: Clause
    pre: tuple[str, ...] = ()


class Renderer:
    """Base: dispatch on the AST; subclasses supply the words of one language.  ``game``:
    the cards' game, whose words (zones, nouns, states, labels) a language may have."""

    def __init__(self, game: str = "world-gainer") -> None:
        self.game = game
        self.event: Optional[ast.Event] = None
        self.last: Optional[str] = None  # "this" right after this card was named

    # ---- hooks a language provides
    def label(self, where: str) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def while_in(self, where: str) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def event_lead(self, event: ast.Event) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def static(self, rule: ast.Static) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def activated(self, eff: ast.Activated, leads: list[str]) -> list[str]:  # pragma: no cover
        raise NotImplementedError

    def then(self, sentence: str) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def if_clause(self, condition: ast.Condition, inner: Clause) -> Clause:  # pragma: no cover
        raise NotImplementedError

    def simple_action(self, act: ast.Action) -> Rendered:  # pragma: no cover - abstract
        raise NotImplementedError

    def finish(self, sentences: list[str]) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    # the game's words in this language (a class of word tables); ``labels``: the labels
    # by the kind of effect (IW's 【常時】, 【登場時】, ...), None: by where it works
    w: type

    def label_of(self, eff: ast.Effect) -> str:
        """The effect's kind label: by where it works (【フィールド】 / "Field: "), or, in a
        game that labels by kind (``w.labels``), by its kind (【常時】, 【登場時】...)."""
        labels = self.w.labels
        if labels is None:
            return self.label(eff.where)
        if isinstance(eff, ast.StaticEffect):
            return labels["static"]
        if isinstance(eff, ast.Activated):
            return labels["activated"]
        if isinstance(eff, ast.Triggered) and eff.event is not None:
            return labels.get(eff.event.kind, "")
        return ""

    def says_event(self, eff: ast.Effect) -> bool:
        """Does the text say the event (not when the label already does: 【登場時】)?"""
        return self.w.labels is None or eff.event.kind not in ("enters", "out") \
            or not isinstance(eff.event.subject, ast.This)

    def condition_lead(self, condition: ast.Condition) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def attached_to(self, eff: ast.Attached) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    # ---- shared shape
    def effect(self, eff: ast.Effect, labels: bool = True) -> str:
        self.event = eff.event if isinstance(eff, ast.Triggered) else None
        self.last = None
        leads: list[str] = []
        if eff.where not in ("dimension", "field", "played", "attached"):
            leads.append(self.while_in(eff.where))
        if isinstance(eff, ast.Attached):
            sentences = [self.attached_to(eff)]
            for rule in eff.rules:
                self.last = None
                sentences.append(self.static(rule))
        elif isinstance(eff, ast.WhenPlayed):
            sentences = self.body(eff.actions, leads)
        elif isinstance(eff, ast.StaticEffect):
            sentences = []
            for rule in eff.rules:
                self.last = "this" if leads else None
                sentences.append("".join(leads) + self.static(rule))
        elif isinstance(eff, ast.Activated):
            sentences = self.activated(eff, leads)
        else:
            if eff.event is not None and self.says_event(eff):
                leads.append(self.event_lead(eff.event))
            if eff.condition is not None:
                leads.append(self.condition_lead(eff.condition))
            sentences = self.body(eff.actions, leads)
        text = self.finish(sentences)
        return (self.label_of(eff) + text) if labels else text

    def body(self, actions, leads: list[str]) -> list[str]:
        sentences: list[str] = []
        after_optional = False
        for i, act in enumerate(actions):
            r = self.action(act)
            parts = list(r.pre) + [r.clause.text]
            if after_optional and not _is_if_you_do(act):
                parts[0] = self.then(parts[0])
            if i == 0 and leads:
                parts[0] = "".join(leads) + parts[0]
            sentences.extend(parts)
            after_optional = r.clause.optional
        return sentences

    def action(self, act: ast.Action) -> Rendered:
        if isinstance(act, ast.May):
            inner = self.action(act.action)
            return Rendered(inner.clause.made_optional(), inner.pre)
        if isinstance(act, ast.If):
            inner = self.action(act.action)
            return Rendered(self.if_clause(act.condition, inner.clause), inner.pre)
        return self.simple_action(act)


def _is_if_you_do(act: ast.Action) -> bool:
    return isinstance(act, ast.If) and isinstance(act.condition, ast.YouDid)


def plain_action(act: ast.Action) -> bool:
    """Neither ``may`` nor ``if``: a clause that reads as a plain verb phrase."""
    return not isinstance(act, (ast.May, ast.If))
