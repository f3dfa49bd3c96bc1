"""A plain-text table of an Imitation World game, as seat A sees it at the end of `wgdsl
play` (both agas are shown once the game is over, IW R22.2)."""

from __future__ import annotations


def render_table(state, seat: str = "A") -> str:
    obs = state.observation(seat)
    lines = [f"turn {obs['turn']}, {obs['active']} active, phase {obs['phase']}"]
    if obs["territory"]:
        t = obs["territory"]
        lines.append(f"territory: {t['card']} ({t['controller']})")
    for s, p in obs["players"].items():
        cost = "; ".join(f"{k} {len(v)}" for k, v in p["cost"].items())
        lines.append(f"{s}: aga {p['aga']}{' (face up)' if p['aga_face_up'] else ''}, "
                     f"barriers {len(p['barriers'])}, hand {len(p['hand'])}, "
                     f"deck {len(p['deck'])}, cost [{cost}], trash {len(p['trash'])}, "
                     f"past {len(p['past'])}")
        for e in p["set"]:
            marks = " ".join(m for m in ("pan", "new", "attacked", "blocked") if e[m])
            stats = f" {e['atk']}/{e['def']}" if e["atk"] is not None else ""
            ench = f" +{e['enchant']}" if e["enchant"] else ""
            lines.append(f"   {e['ref']}{stats}{ench} {marks}".rstrip())
    return "\n".join(lines)
