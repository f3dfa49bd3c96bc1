"""GETGEM's table as text (``wgdsl play --game getgem`` after a game): every zone, the
hands included (the judge's view, as the log is)."""

from __future__ import annotations


def render_table(state) -> str:
    data = state.to_dict()
    lines = [f"turn {data['turn']} ({data['active']} active, {data['phase']} phase)"
             + ("; over" if data["over"] else ""),
             f"deck      {len(data['deck'])} card(s)" + (f", top {data['deck'][0]}" if data["deck"] else ""),
             f"discard   {' '.join(data['discard']) or '-'}",
             f"supply    {', '.join(data['supply']) or '-'}"]
    for seat in data["seats"]:
        front = data["fronts"][seat]
        declared = " ".join(front["declared"])
        lines.append(f"{seat}  hand  {' '.join(data['hands'][seat]) or '-'}")
        lines.append(f"   front elements: {', '.join(front['elements']) or '-'}; "
                     f"declaration: {declared or '-'}")
    return "\n".join(lines)
