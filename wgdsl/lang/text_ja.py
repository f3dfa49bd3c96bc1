"""Japanese card text, in the style of the printed cards the rulebook quotes.

The rulebook (``../shared/seeds/000_d1cf24af71e1e60d.txt``) quotes 「このカードがブレイクに
置かれた場合ストックの一番下に戻す。」, 「フィールドのカードを1枚選ぶ。選んだカードのコピーと
してフィールドに出る。」 and 「あなたのカードが何らかの効果の対象になった場合、対象になった
カードの位置とこのカードの位置を入れ替える。」.  Its words are used throughout: ストック,
手札, スタンバイ, ブレイク, マイフィールド, バトルフィールド, スタン, 横向きにする (exhaust),
横向きでない (ready), 獲得している (holds, R1.4), 奪う (seize) and 相殺 (trade, R11),
獲得の優先度 (field priority, R8), カードを使用する (play a card, R7).

Rules of composition (each from the language, none from a card):

* a card chosen by the player reads 「…を1枚選び、<verb>」; where the card is named inside
  a phrase (a copy of it, its position) the choice is its own sentence and the card is
  「選んだカード」;
* a field zone is 「フィールドの」, any other zone 「…にある」; a field row with an owner is
  the squares that player holds: 「相手が獲得しているバトルフィールドの」;
* once this card has been named, it is not named again as subject or object (the printed
  texts leave it unsaid), and where it goes is its own zone: 「ストックの一番下に戻す」;
* a card goes 「手札に加える」 (「持ち主の手札に戻す」), 「ストックに戻す」, elsewhere 「置く」.
"""

from __future__ import annotations

from . import ast
from .text_base import Clause, Rendered, Renderer

ZONE = {"hand": "手札", "stock": "ストック", "standby": "スタンバイ", "break": "ブレイク",
        "field": "フィールド", "battle field": "バトルフィールド", "my field": "マイフィールド"}
OWNER = {"you": "あなたの", "opponent": "相手の", "owner": "持ち主の"}
HOLDER = {"you": "あなたが獲得している", "opponent": "相手が獲得している",
          "owner": "持ち主が獲得している"}
PLAYER = {"you": "あなた", "opponent": "相手"}
STATE = {"ready": "横向きでない", "exhausted": "横向きの", "other": "他の"}
NOUN = {"card": "カード", "stun": "スタン"}
COLOR = {"blue": "青", "green": "緑", "red": "赤", "yellow": "黄"}
PHASE = {"start": "スタート", "draw": "ドロー", "standby": "スタンバイ", "gain": "ゲイン",
         "end": "エンド"}
THAT_CARD = {"enters": "フィールドに出たカード", "leaves": "フィールドを離れたカード",
             "seized": "マスを奪われたカード", "targeted": "対象になったカード",
             "plays": "使用されたカード"}
PROTECT = {"seized": "奪う", "traded": "相殺する"}
LABELS = {"dimension": "【ディメンション】", "field": "【フィールド】"}


class Words:
    """A game's words in Japanese card text (World Gainer's unless a game has its own)."""

    zones = ZONE
    nouns = NOUN
    states = STATE
    values: dict = {}
    stats: dict = {}
    held_field = True  # an owner's field row is the squares they hold (WG R1.4)
    while_in: dict = {}
    labels = None


class ImitationWorld(Words):
    """Imitation World's words (../shared/spec/imitation-world.md, Glossary and IW R21.1)."""

    zones = {"deck": "デッキ", "hand": "手札", "set": "セットゾーン", "cost": "コストゾーン",
             "barriers": "バリアゾーン", "aga": "アガゾーン", "trash": "トラッシュ",
             "past": "パストゾーン", "territory": "テリトリーゾーン", "field": "場"}
    nouns = {"card": "カード", "aga": "アガ", "geuda": "ゲウダ", "enchant": "エンチャント",
             "territory": "テリトリー", "eventi": "イベンティ", "object": "オブジェクト"}
    states = {"pan": "パーン状態の", "ripan": "リパーン状態の", "other": "他の"}
    turned = {"pan": "パーンする", "ripan": "リパーンする"}
    values = {"existence": "実存の", "fantasy": "幻想の", "ambiguous": "曖昧の"}
    stats = {"atk": "攻撃力", "def": "防御力"}
    held_field = False
    while_in = {"aga": "このカードが表向きの間、"}
    judgments = {"survival": "生存判定", "barrier": "バリア破壊判定", "aga": "アガ破壊判定"}
    roles = {"blocker": "ブロッカー", "attacker": "アタッカー"}
    labels = {"static": "【常時】", "enters": "【登場時】", "out": "【アウト時】",
              "judgment": "【判定時】", "activated": "【起動】"}


GAME_WORDS = {"imitation-world": ImitationWorld}

# the te-form of each verb the renderer uses (「置いてもよい」)
_TE = {"置く": "置いて", "戻す": "戻して", "加える": "加えて", "引く": "引いて", "見る": "見て",
       "出る": "出て", "入れ替える": "入れ替えて", "選ぶ": "選んで"}


def te_form(verb: str) -> str:
    if verb in _TE:
        return _TE[verb]
    if verb.endswith("する"):
        return verb[:-2] + "して"
    raise ValueError(f"no te-form known for {verb!r}")


def clause(body: str, verb: str) -> Clause:
    return Clause(body + verb, body + te_form(verb) + "もよい")


def color(word: str) -> str:
    return COLOR.get(word, word)


# ------------------------------------------------------------------------ zones and filters
def zone_np(zone: ast.Zone, own_zone: bool = False, w=Words) -> str:
    """「あなたのストック」; with ``own_zone`` (this card going to its owner's zone) 「ストック」."""
    owner = "" if zone.owner is None or (own_zone and zone.owner == "owner") else OWNER[zone.owner]
    return owner + w.zones.get(zone.name, zone.name)


def place(zone: ast.Zone, of: bool = True, w=Words) -> str:
    """Where cards are: 「フィールドの」, 「相手のスタンバイにある」, 「相手が獲得しているバトルフィールドの」."""
    if zone.is_field:
        if w.held_field and zone.owner is not None and zone.name != "my field":
            return HOLDER[zone.owner] + ZONE[zone.name] + "の"
        return zone_np(zone, w=w) + ("の" if of else "にある")
    return zone_np(zone, w=w) + "にある"


def cost_phrase(cost: ast.CostBound) -> str:
    return {"<=": "以下の", ">=": "以上の", "<": "未満の", ">": "を超える"}.get(
        cost.op, "の").join([f"コスト{cost.value}", ""])


def filter_np(f: ast.Filter, source: str = "", w=Words) -> str:
    """「あなたのスタンバイにある横向きでないスタン」; ``source`` replaces the place (「手札から」)."""
    out = []
    if source:
        out.append(source)
    elif f.zone is not None:
        # 「フィールドのカード」, but 「フィールドにある相手のカード」 (not a chain of の)
        out.append(place(f.zone, of=f.owner is None, w=w))
    if f.owner is not None:
        out.append(OWNER[f.owner])
    out.extend(w.states.get(s, s) for s in f.states)
    out.extend(w.values.get(v, v) for v in f.values)
    if f.cost is not None:
        out.append(cost_phrase(f.cost))
    nouns = "か".join(w.nouns.get(n, n) for n in f.nouns)
    if f.name is not None:
        out.append(f"「{f.name}」" + ("" if f.noun == "card" else "の" + nouns))
    else:
        out.append(nouns)
    return "".join(out)


class Japanese(Renderer):
    def __init__(self, game: str = "world-gainer") -> None:
        super().__init__(game)
        self.w = GAME_WORDS.get(game, Words)

    # ---- leads and labels
    def label(self, where: str) -> str:
        return LABELS.get(where, "")

    def condition_lead(self, condition: ast.Condition) -> str:
        return f"{self.condition(condition)}場合、"

    def attached_to(self, eff: ast.Attached) -> str:
        self.last = None
        return f"{filter_np(eff.filter, w=self.w)}につける"

    def while_in(self, where: str) -> str:
        self.last = "this"
        if where in self.w.while_in:
            return self.w.while_in[where]
        return f"このカードが{ZONE[where]}にある間、"

    def event_lead(self, ev: ast.Event) -> str:
        if ev.kind in ("turn_start", "turn_end"):
            which = "開始時" if ev.kind == "turn_start" else "終了時"
            whose = "各" if ev.player == "every" else PLAYER[ev.player] + "の"
            return f"{whose}ターンの{which}、"
        if ev.kind == "judgment":
            names = getattr(self.w, "judgments", {})
            kinds = "または".join(names.get(k, k) for k in ev.judgments)
            if ev.role is None:
                return f"{kinds}では、"
            self.last = "this"
            role = getattr(self.w, "roles", {}).get(ev.role, ev.role)
            return f"このカードが{role}である{kinds}では、"
        if ev.kind == "plays":
            f = ev.subject
            source = zone_np(f.zone) + "から" if f.zone is not None else ""
            return f"{PLAYER[ev.player]}が{filter_np(f, source)}を使用した場合、"
        subject = self.subject(ev.subject)
        if ev.kind == "leaves":
            if ev.to is None:
                return f"{subject}がフィールドを離れた場合、"
            return f"{subject}がフィールドから{ZONE[ev.to]}に置かれた場合、"
        if ev.kind == "enters":
            return f"{subject}が{self.w.zones.get('field', 'フィールド')}に出た場合、"
        if ev.kind == "out":
            return f"{subject}がアウトになった場合、"
        if ev.kind == "seized":
            return f"{subject}のマスが奪われた場合、"
        return f"{subject}が何らかの効果の対象になった場合、"

    def subject(self, subject) -> str:
        if isinstance(subject, ast.This):
            self.last = "this"
            return "このカード"
        self.last = None
        return filter_np(subject, w=self.w)

    # ---- selectors
    def object(self, sel: ast.Selector) -> tuple[str, str]:
        """(words said first, the object with を) — the object may be left unsaid."""
        if isinstance(sel, ast.This):
            said = self.last == "this"
            self.last = "this"
            return "", "" if said else "このカードを"
        if isinstance(sel, (ast.Choose, ast.Random)):
            self.last = None
            how = "ランダムに" if isinstance(sel, ast.Random) else ""
            return f"{filter_np(sel.filter, w=self.w)}を{how}1枚選び、", ""
        if isinstance(sel, ast.Every):
            self.last = None
            return "", f"{filter_np(sel.filter, w=self.w)}をすべて"
        return "", self.noun(sel) + "を"

    def noun(self, sel: ast.Selector) -> str:
        """A card named inside a phrase (「…のコピー」); choices are made by :meth:`named`."""
        if isinstance(sel, ast.This):
            self.last = "this"
            return "このカード"
        if isinstance(sel, ast.It):
            return "そのカード"
        if isinstance(sel, ast.ThatCard):
            if sel.noun != "card":
                return "その" + self.w.nouns.get(sel.noun, sel.noun)
            return THAT_CARD.get(self.event.kind if self.event else "", "そのカード")
        self.last = None
        if isinstance(sel, ast.Every):
            return f"{filter_np(sel.filter, w=self.w)}すべて"
        if isinstance(sel, ast.All):
            return filter_np(sel.filter, w=self.w)
        if isinstance(sel, ast.Stacks):
            return f"{place(sel.zone, w=self.w)}マスにあるすべてのカード"
        if isinstance(sel, ast.EndCard):
            end = "上" if sel.end == "top" else "下"
            return f"{zone_np(sel.zone, w=self.w)}の一番{end}のカード"
        raise TypeError(f"not a selector: {sel!r}")

    def named(self, sel: ast.Selector) -> tuple[tuple[str, ...], str]:
        """(sentences before, noun): a chosen card is chosen in a sentence of its own."""
        if isinstance(sel, (ast.Choose, ast.Random)):
            self.last = None
            how = "ランダムに" if isinstance(sel, ast.Random) else ""
            return (f"{filter_np(sel.filter, w=self.w)}を{how}1枚選ぶ",), "選んだカード"
        return (), self.noun(sel)

    # ---- destinations
    def dest(self, dest: ast.Dest, own_zone: bool) -> tuple[str, str]:
        """(words, verb): (「持ち主のブレイクに」, 「置く」)."""
        w = self.w
        if isinstance(dest, ast.ToZone):
            zone = dest.zone
            if zone.name == "hand":
                if zone.owner == "owner":
                    return zone_np(zone, own_zone, w) + "に", "戻す"
                # 「手札に加える」 is your own hand; another player's is named
                owner = OWNER[zone.owner] if zone.owner == "opponent" else ""
                return owner + "手札に", "加える"
            words = zone_np(zone, own_zone, w) + "に"
            if dest.as_stun:
                words = f"{STATE[dest.as_stun]}スタンとして" + words
            return words, "戻す" if zone.name == "stock" else "置く"
        if isinstance(dest, ast.ToEnd):
            end = "上" if dest.end == "top" else "下"
            verb = "戻す" if dest.zone.name == "stock" else "置く"
            return f"{zone_np(dest.zone, own_zone, w)}の一番{end}に", verb
        return f"{zone_np(dest.zone, own_zone, w)}の空いているマスに", "置く"

    # ---- actions
    def simple_action(self, act: ast.Action) -> Rendered:
        if isinstance(act, ast.Draw):
            return Rendered(clause(f"カードを{act.count}枚", "引く"))
        if isinstance(act, ast.Look):
            first, obj = self.object(act.what)
            return Rendered(clause(first + obj, "見る"))
        if isinstance(act, ast.Move):
            first, obj = self.object(act.what)
            words, verb = self.dest(act.to, own_zone=isinstance(act.what, ast.This))
            return Rendered(clause(first + obj + words, verb))
        if isinstance(act, ast.Exhaust):
            first, obj = self.object(act.what)
            return Rendered(clause(first + obj, "横向きにする"))
        if isinstance(act, ast.Shuffle):
            return Rendered(clause(zone_np(act.zone, w=self.w) + "を", "シャッフルする"))
        if isinstance(act, ast.ChooseAction):
            return Rendered(clause(self.chosen(act.what), "選ぶ"))
        if isinstance(act, ast.EnterAsCopy):
            pre, noun = self.named(act.what)
            return Rendered(clause(f"{noun}のコピーとしてフィールドに", "出る"), pre)
        if isinstance(act, ast.CancelPlay):
            return Rendered(clause("その使用を", "無効にする"))
        if isinstance(act, ast.AddPoints):
            return Rendered(clause(f"{color(act.color)}のポイントを{act.count}", "獲得する"))
        if isinstance(act, ast.Swap):
            pre1, first = self.named(act.first)
            pre2, second = self.named(act.second)
            return Rendered(clause(f"{first}の位置と{second}の位置を", "入れ替える"), pre1 + pre2)
        if isinstance(act, ast.Turn):
            first, obj = self.object(act.what)
            turned = getattr(self.w, "turned", {}).get(act.state, act.state + "にする")
            return Rendered(clause(first + obj, turned))
        if isinstance(act, ast.Modify):
            text = self.modify(act)
            return Rendered(Clause(text, text))
        if isinstance(act, ast.PlayerDraws):
            return Rendered(clause(f"ターンプレイヤーはカードを{act.count}枚", "引く"))
        raise TypeError(f"not an action: {act!r}")

    def modify(self, mod: ast.Modify) -> str:
        """「あなたの幻想のゲウダの攻撃力+1」, 「ターン終了時まで、そのカードの攻撃力+2」: once
        this card has been named, it is left unsaid (「防御力+2」)."""
        target = mod.target
        if isinstance(target, ast.This) and self.last == "this":
            whose = ""
        else:
            whose = self.noun(target) + "の"
        until = "ターン終了時まで、" if mod.until else ""
        return f"{until}{whose}{self.w.stats.get(mod.stat, mod.stat)}{mod.amount:+d}"

    def chosen(self, sel: ast.Selector) -> str:
        if isinstance(sel, (ast.Choose, ast.Random)):
            self.last = None
            how = "ランダムに" if isinstance(sel, ast.Random) else ""
            return f"{filter_np(sel.filter, w=self.w)}を{how}1枚"
        first, obj = self.object(sel)
        return first + (obj or "このカードを")

    def condition(self, cond: ast.Condition) -> str:
        if isinstance(cond, ast.YouDid):
            return "そうした"
        if isinstance(cond, ast.Holds):
            return f"{zone_np(cond.zone, w=self.w)}に{filter_np(cond.filter, w=self.w)}がある"
        left, right = PLAYER[cond.left], PLAYER[cond.right]
        than = f"{right}より{'少ない' if cond.relation == 'fewer' else '多い'}"
        if cond.quantity == "squares":
            return f"{left}が獲得しているマスが{than}"
        if cond.quantity == "points":
            return f"{left}の点数が{than}"
        return f"{left}の手札が{than}"

    def if_clause(self, condition: ast.Condition, inner: Clause) -> Clause:
        lead = f"{self.condition(condition)}場合、"
        return Clause(lead + inner.plain, lead + inner.optional_form, inner.optional)

    def then(self, sentence: str) -> str:
        return "その後、" + sentence

    # ---- activated effects
    def activated(self, eff: ast.Activated, leads: list[str]) -> list[str]:
        """「あなたのゲインフェイズに使用できる。このカードを…に置くことで、…を獲得する。」"""
        first, *rest = eff.actions
        if self.w.labels is not None and eff.cost is not None:
            # IW's 【起動】COST：EFFECT
            cost = self.action(eff.cost)
            r1 = self.action(first)
            return [*cost.pre, *r1.pre, "".join(leads) + cost.clause.plain + "：" + r1.clause.text] \
                + self.body(rest, [])
        when = f"あなたの{PHASE.get(eff.phase, eff.phase)}フェイズに" if eff.phase else "いつでも"
        head = ["".join(leads) + when + "使用できる"]
        if eff.cost is None:
            return head + self.body(eff.actions, [])
        cost = self.action(eff.cost)
        r1 = self.action(first)
        parts = [*r1.pre, r1.clause.text]
        parts[0] = cost.clause.plain + "ことで、" + parts[0]
        return head + list(cost.pre) + parts + self.body(rest, [])

    # ---- statics
    def static(self, rule: ast.Static) -> str:
        if isinstance(rule, ast.Modify):
            return self.modify(rule)
        said = self.last == "this"
        self.last = "this"
        if isinstance(rule, ast.Untargetable):
            return ("" if said else "このカードは") + "効果の対象にならない"
        if isinstance(rule, ast.Protected):
            kinds = [PROTECT[k] for k in dict.fromkeys(rule.kinds)]
            if len(kinds) == 1:
                cannot = f"{kinds[0]}ことはできない"
            else:
                cannot = "".join(f"{k}ことも" for k in kinds) + "できない"
            return f"{cost_phrase(rule.cost)}カードでは、このカードのあるマスを{cannot}"
        if isinstance(rule, ast.PlayOnto):
            return (("" if said else "このカードは")
                    + f"獲得の優先度に関係なく{zone_np(rule.zone)}に置くことができる")
        if isinstance(rule, ast.AnyColor):
            colors = "・".join(color(c) for c in rule.colors)
            which = f"そのつど{colors}のうち好きな1色" if len(rule.colors) > 1 else colors
            return ("" if said else "このカードが") + f"生み出すポイントは、{which}になる"
        raise TypeError(f"not a static rule: {rule!r}")

    def finish(self, sentences: list[str]) -> str:
        return "".join(s + "。" for s in sentences)
