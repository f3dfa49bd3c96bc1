"""IW01's 24 rules cards as ability records written by hand from the spec's table
(imitation-world.md, "IW01 — the reference set"): what the card language's compiler must
produce from the cards' text.  Tests use them to run the engine's ability runtime before
and apart from the compiler."""

from wgdsl.games.imitation_world.abilities import (Activated, Attach, Condition,
                                                   JudgmentModifier, Modifier, OnPlay, Op,
                                                   Select, Trigger)

PROGRAMS = {
    # 常時, only while face up: your geuda get DEF +1.
    "IW-001": [Modifier("def", 1, who="your_geuda")],
    # ターン開始時 of your turn, only while face up: draw 1 card (mandatory).
    "IW-002": [Trigger("turn_start", (Op("draw", n=1),))],
    # 判定時: in a barrier destruction or aga destruction judgment, ATK +2.
    "IW-007": [JudgmentModifier("atk", 2, kinds=frozenset({"barrier", "aga"}))],
    # 登場時: look at the top card of your deck; you may put it on the bottom.
    "IW-009": [Trigger("enter", (Op("look_top_may_bottom"),))],
    # 判定時: in a survival judgment in which this geuda is a blocker, DEF +2.
    "IW-010": [JudgmentModifier("def", 2, kinds=frozenset({"survival"}), role="blocker")],
    # 登場時: choose a ripān geuda on your opponent's field; turn it pān.
    "IW-011": [Trigger("enter", (Op("choose", select=Select("geuda", "opponent", "ripan"),
                                    then=(Op("pan_chosen"),)),))],
    # アウト時: draw 1 card.
    "IW-012": [Trigger("out", (Op("draw", n=1),))],
    # Play only onto one of your geuda. That geuda has DEF +2.
    "IW-014": [Attach("yours"), Modifier("def", 2, who="attached")],
    # Play onto any geuda. That geuda has ATK −2.
    "IW-015": [Attach("any"), Modifier("atk", -2, who="attached")],
    # 常時: every 実存 geuda (both players') has DEF +1.
    "IW-016": [Modifier("def", 1, who="all_geuda", faction="existence")],
    # ターン終了時 of every turn: the active player draws 1 card.
    "IW-017": [Trigger("turn_end", (Op("draw", who="active", n=1),), whose="any")],
    # 常時: the 幻想 geuda of this territory's controller have ATK +1.
    "IW-018": [Modifier("atk", 1, who="your_geuda", faction="fantasy")],
    # Draw 2 cards.
    "IW-019": [OnPlay((Op("draw", n=2),))],
    # Choose a pān geuda on your opponent's field. Put it into its owner's trash.
    "IW-020": [OnPlay((Op("chosen_to", zone="trash"),), choose=Select("geuda", "opponent", "pan"))],
    # Choose a geuda or the territory on your opponent's field. Put it into its owner's past.
    "IW-021": [OnPlay((Op("chosen_to", zone="past"),),
                      choose=Select("geuda_or_territory", "opponent"))],
    # Choose a geuda in your trash. Put it into your hand.
    "IW-022": [OnPlay((Op("chosen_to", zone="hand"),), choose=Select("trash_geuda"))],
    # 【起動】パーン: choose one of your geuda; it has ATK +2 until end of turn.
    "IW-023": [Activated((Op("mod_chosen", stat="atk", n=2),), choose=Select("geuda", "yours"))],
    # ターン開始時 of your turn, if your trash holds a card: you may put this card into your
    # past zone. If you do, choose a card in your trash and put it on the bottom of your deck.
    "IW-024": [Trigger("turn_start", (Op("may", then=(
        Op("self_to", zone="past"),
        Op("choose", select=Select("trash_card"), then=(Op("chosen_to", zone="deck_bottom"),)),
    )),), condition=Condition("trash_not_empty"))],
}
