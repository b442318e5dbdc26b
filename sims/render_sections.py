"""Report sections about statuses and settings, rendered from outcomes (split from
:mod:`sims.render`, which re-exports every name): the sections of the non-pass verdicts
("Readings not reproduced", "Not tested at the paper's scale", "Not resolvable at this
setting") and "Trained claims over settings"; plus the two formatting helpers both modules use."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from theory.common.protocols import Evidence, Result

if TYPE_CHECKING:
    from sims.verify import Outcome

__all__ = [
    "anchor",
    "fmt_value",
    "VERDICT_SECTIONS",
    "verdict_rows",
    "verdict_md",
    "verdict_html",
    "PROPERTY_BLURB",
    "PROPERTY_HEAD",
    "properties_md",
    "properties_html",
]


def anchor(s: str) -> str:
    """A file-name and HTML-anchor safe form of a result id or check path."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", s)


def fmt_value(x: Any) -> str:
    if isinstance(x, float):
        return f"{x:.6g}"
    if isinstance(x, list):
        flat = json.dumps(x)
        return flat if len(flat) <= 60 else flat[:57] + "..."
    return str(x)


#: verdict -> (report section title, what its rows mean, text when empty).
VERDICT_SECTIONS: dict[str, tuple[str, str, str]] = {
    "discrepancy": (
        "Claims not reproduced",
        "Our independent routes agree with each other and contradict what the paper prints.",
        "None: every claim checked was reproduced.",
    ),
    "unconfirmed": (
        "Readings not reproduced",
        "Our routes agree with each other and contradict our reading of text the "
        "paper's copy has lost or that we paraphrase (a reconstruction, not a printed "
        "claim).",
        "None.",
    ),
    "untested": (
        "Not tested at the paper's scale",
        "Claims this toolkit cannot test at the paper's scale here; each row gives the "
        "scale reached and the scale needed.",
        "None.",
    ),
    "skipped": (
        "Not resolvable at this setting",
        "Rows whose alternatives cannot be told apart within the budget at this setting; "
        "each row says so with its numbers.",
        "None.",
    ),
}


def verdict_rows(outcomes: Sequence[Outcome], verdict: str) -> list[tuple[Result, Evidence]]:
    """Every row carrying ``verdict``, with its result."""
    return [(o.result, e) for o in outcomes for e in o.evidence if e.status == verdict]


def _why(e: Evidence) -> str:
    d = e.to_json()["details"]
    for key in ("why", "reason", "scale", "note"):
        if d.get(key):
            return str(d[key])
    return ""


def verdict_md(outcomes: Sequence[Outcome], verdict: str) -> list[str]:
    """A report section for one non-pass verdict other than ``discrepancy``."""
    title, blurb, empty = VERDICT_SECTIONS[verdict]
    rows = verdict_rows(outcomes, verdict)
    out = [f"## {title}", ""]
    if not rows:
        return out + [empty, ""]
    out += [blurb, "", "| result | row | observed | why | source |", "|---|---|---|---|---|"]
    for r, e in rows:
        d = e.to_json()["details"]
        out.append(
            f"| [`{r.id}`](#{anchor(r.id)}) | {e.name} | "
            f"{fmt_value(e.to_json()['observed'])} | {_why(e)} | "
            f"{d.get('source', r.source)} |"
        )
    return out + [""]


def verdict_html(outcomes: Sequence[Outcome], verdict: str) -> list[str]:
    esc = html.escape
    title, blurb, empty = VERDICT_SECTIONS[verdict]
    rows = verdict_rows(outcomes, verdict)
    parts = [f"<h2>{esc(title)}</h2>"]
    if not rows:
        return parts + [f"<p>{esc(empty)}</p>"]
    parts += [
        f"<p>{esc(blurb)}</p>",
        "<table><tr><th>result</th><th>row</th><th>observed</th><th>why</th><th>source</th></tr>",
    ]
    for r, e in rows:
        d = e.to_json()["details"]
        parts.append(
            f"<tr><td><a href='#{anchor(r.id)}'><code>{esc(r.id)}</code></a></td>"
            f"<td>{esc(e.name)}</td><td>{esc(fmt_value(e.to_json()['observed']))}</td>"
            f"<td>{esc(_why(e))}</td>"
            f"<td>{esc(str(d.get('source', r.source)))}</td></tr>"
        )
    return parts + ["</table>"]


def _draw_note(d: dict[str, Any]) -> str:
    """One draw's note: pinned / explicit, its verdict, an unconfirmed or untested draw's
    reason, its seconds."""
    note = ("pinned, " if d.get("pinned") else "") + ("explicit, " if d.get("explicit") else "")
    note += str(d.get("verdict"))
    if d.get("note"):
        note += f": {d['note']}"
    return note + (f", {d['seconds']:.1f} s" if d.get("seconds") is not None else "")


def _seconds(p: dict[str, Any]) -> str:
    if p.get("seconds_drawn") is None:
        return ""
    return f"{p['seconds_drawn']:.1f} ({p.get('seconds') or 0.0:.1f})"


def _prop_rows(properties: Sequence[dict[str, Any]]) -> list[list[str]]:
    out = []
    for p in properties:
        drawn = "; ".join(
            ", ".join(f"{k}={fmt_value(v)}" for k, v in (d.get("setting") or {}).items())
            + f" ({_draw_note(d)})"
            for d in p.get("settings") or []
        )
        failing = p.get("minimal_failing")
        out.append(
            [
                f"{p['result']}/{p['property']}",
                str(p["drawn"]),
                str(p["passed"]),
                str(p["not_separable"]),
                str(p.get("trapped") or 0),
                str(p.get("untested") or 0),
                str(p.get("unconfirmed") or 0),
                fmt_value(p["worst_margin"]) if p.get("worst_margin") is not None else "",
                _seconds(p),
                (
                    f"{failing} — `{p.get('replay')}`"
                    if failing is not None
                    else (p.get("error") or "none")
                ),
                drawn,
            ]
        )
    return out


PROPERTY_BLURB = (
    "Each property draws settings from its theorem's hypotheses (derandomised: the "
    "same draws every run), trains at each and asserts the TRAIN contract. Margin: "
    "tolerance units inside the band and outside the nearest named alternative. Seconds: "
    "task time of the drawn settings (in brackets: with the pinned presets, whose models "
    "the checks share). Untested: not testable at our training scale (the note says what was "
    "reached and what is needed); unconfirmed: an outcome of its own that contradicts our "
    "extrapolation of the claim to a setting the paper did not train (the note names it). "
    "Explicit settings run in every tier."
)
PROPERTY_HEAD = [
    "property",
    "drawn",
    "passed",
    "not separable",
    "trapped",
    "untested",
    "unconfirmed",
    "worst margin",
    "s drawn (all)",
    "minimal failing setting",
    "settings drawn",
]


def properties_md(properties: Sequence[dict[str, Any]]) -> list[str]:
    """The "Trained claims over settings" section (Markdown)."""
    out = ["## Trained claims over settings", ""]
    if not properties:
        return out + ["No trained property was run.", ""]
    out += [
        PROPERTY_BLURB,
        "",
        "| " + " | ".join(PROPERTY_HEAD) + " |",
        "|" + "---|" * len(PROPERTY_HEAD),
    ]
    out += ["| " + " | ".join(row) + " |" for row in _prop_rows(properties)]
    return out + [""]


def properties_html(properties: Sequence[dict[str, Any]]) -> list[str]:
    esc = html.escape
    parts = ["<h2>Trained claims over settings</h2>"]
    if not properties:
        return parts + ["<p>No trained property was run.</p>"]
    parts += [
        f"<p>{esc(PROPERTY_BLURB)}</p>",
        "<table><tr>" + "".join(f"<th>{esc(h)}</th>" for h in PROPERTY_HEAD) + "</tr>",
    ]
    parts += [
        "<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>"
        for row in _prop_rows(properties)
    ]
    return parts + ["</table>"]
