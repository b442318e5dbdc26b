"""Rendering of the verification report (split from :mod:`sims.report`): the headline counts,
the evidence-kind legend, the "Claims not reproduced" and "Trained claims over seeds" sections,
Markdown and HTML pages, and the overall agreement plot.  Pure functions of the outcomes: nothing
here runs a check or writes."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from sims.render_sections import (
    PROPERTY_BLURB,
    PROPERTY_HEAD,
    VERDICT_SECTIONS,
    anchor,
    fmt_value,
    properties_html,
    properties_md,
    verdict_html,
    verdict_md,
    verdict_rows,
)
from sims.verify import Outcome
from theory.common.protocols import (
    INDEPENDENT_KINDS,
    KIND_MEANINGS,
    REPORTED,
    SELF_CONSISTENCY_KINDS,
    STATUS_KEYS,
    STATUS_MEANINGS,
    VERDICTS,
    Evidence,
    Result,
)

__all__ = [
    "anchor",
    "agreement_figure",
    "fmt_value",
    "unique_rows",
    "kind_counts",
    "headline_counts",
    "headline",
    "discrepancy_rows",
    "claims_md",
    "claims_html",
    "seed_outcome_rows",
    "seeds_md",
    "seeds_html",
    "legend_md",
    "legend_html",
    "evidence_rows_md",
    "markdown_report",
    "html_report",
    "STATUS_MD",
    "VERDICT_SECTIONS",
    "verdict_rows",
    "verdict_md",
    "verdict_html",
    "controls_line",
    "properties_md",
    "properties_html",
    "PROPERTY_BLURB",
    "PROPERTY_HEAD",
]


def agreement_figure(
    outcomes: Sequence[Outcome], *, mode: str = "", seed: int | None = None
) -> Any:
    """Every comparing row's error in tolerance units (pass iff ≤ 1), one marker per row, each
    check once (:func:`unique_rows`).  INFO rows compare nothing and are not drawn (the caption
    counts them); the run (tier, seed) is stated in the title."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    fig = Figure(figsize=(10, 3.6))
    ax = fig.add_subplot(1, 1, 1)
    colors = {
        "EXACT": "k",
        "FLOAT": "tab:gray",
        "SOLVER": "tab:blue",
        "MC": "tab:orange",
        "TRAIN": "tab:green",
        "RATE": "tab:purple",
        "ORDER": "tab:brown",
        "OPTIM": "tab:cyan",
        "PAPER": "tab:pink",
        "DERIVED": "gold",
    }
    i = 0
    n_info = 0
    seen: set[str] = set()
    for rows in unique_rows(outcomes).values():
        for e in rows:
            if e.informational or e.kind == "INFO":
                n_info += 1
                continue
            err = min(e.error, 10.0) if e.error == e.error else 10.0
            label = KIND_LABELS.get(e.kind, e.kind) if e.kind not in seen else None
            seen.add(e.kind)
            ax.plot(i, max(err, 1e-4), "o", ms=3, color=colors.get(e.kind, "k"), label=label)
            i += 1
    ax.axhline(1.0, color="r", lw=1, ls="--", label="tolerance (pass iff below)")
    ax.set_yscale("log")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("comparison (report order, each check once)")
    ax.set_ylabel(r"$|\mathrm{error}|\,/\,\mathrm{tolerance}$ (capped at 10)")
    run = ", ".join(
        p
        for p in (f"tier = {mode}" if mode else "", f"seed = {seed}" if seed is not None else "")
        if p
    )
    ax.set_title(
        f"All comparisons{f' ({run})' if run else ''}: error in tolerance units"
        + (f"; {n_info} INFO rows (reported only) not drawn" if n_info else ""),
        fontsize=10,
    )
    ax.legend(fontsize=7, ncol=4, loc="upper right")
    fig.tight_layout()
    return fig


#: How an evidence kind reads in the agreement plot's legend.
KIND_LABELS: dict[str, str] = {
    "EXACT": "exact (symbolic)",
    "FLOAT": "float forms of one formula",
    "SOLVER": "ODE vs closed form",
    "MC": "Monte Carlo vs closed form",
    "TRAIN": "trained model vs prediction",
    "RATE": "log-log slope (rate)",
    "ORDER": "ordering",
    "OPTIM": "optimiser vs closed form",
    "PAPER": "number printed in the paper",
    "DERIVED": "derived (toolkit extension)",
}


def unique_rows(outcomes: Sequence[Outcome]) -> dict[str, tuple[Evidence, ...]]:
    """Check path -> its evidence rows, each check once even when several results list it."""
    out: dict[str, tuple[Evidence, ...]] = {}
    for o in outcomes:
        i = 0
        for path, n in o.check_rows:
            out.setdefault(path, o.evidence[i : i + n])
            i += n
        if not o.check_rows and o.evidence:  # an outcome built without row bookkeeping
            out.setdefault(f"{o.result.id}#rows", o.evidence)
    return out


def kind_counts(outcomes: Sequence[Outcome]) -> dict[str, int]:
    """Unique evidence rows per kind, in the order of :data:`KIND_MEANINGS`."""
    counts = {k: 0 for k in KIND_MEANINGS}
    for rows in unique_rows(outcomes).values():
        for e in rows:
            counts[e.kind] += 1
    return counts


def headline_counts(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """The honest counts of a report: unique checks and rows, rows by kind, independent-route
    comparisons apart from self-consistency rows, failures and discrepancies."""
    rows = unique_rows(outcomes)
    by_kind = kind_counts(outcomes)
    flat = [e for evs in rows.values() for e in evs]
    return {
        "unique_checks": sum(1 for p in rows if "#" not in p),
        "unique_rows": len(flat),
        "rows_by_kind": by_kind,
        "independent_comparisons": sum(by_kind[k] for k in INDEPENDENT_KINDS),
        "self_consistency_rows": sum(by_kind[k] for k in SELF_CONSISTENCY_KINDS),
        "failed_rows": sum(not e.passed for e in flat),
        "discrepancy_rows": sum(e.discrepancy for e in flat),
        "rows_by_status": {s: sum(e.status == s for e in flat) for s in STATUS_MEANINGS},
        # INFO rows without a verdict: reported beside the rows that judge, never a pass
        "reported_values": sum(e.status == REPORTED for e in flat),
        # a passing result is listed under every verdict one of its rows carries
        **{
            key: [o.result.id for o in outcomes if o.passed and v in o.statuses]
            for v, key in STATUS_KEYS.items()
        },
        "controls": _controls_total(outcomes),
    }


def _controls_total(outcomes: Sequence[Outcome]) -> dict[str, int | None]:
    """Declared negative controls over the run (each check once) and how many were rejected
    (``None`` when the run did not run them)."""
    declared: dict[str, int] = {}
    for o in outcomes:
        for c in o.result.checks:
            declared[c.path] = max(declared.get(c.path, 0), len(c.faults))
    runs = {(c.path, c.fault): c.rejected for o in outcomes for c in o.controls}
    ran = any(o.controls_run for o in outcomes)
    return {"declared": sum(declared.values()), "rejected": sum(runs.values()) if ran else None}


def controls_line(o: Outcome) -> str:
    """``"k of n planted faults rejected"`` for one result (or that none were run)."""
    c = o.controls_summary
    if not c["declared"]:
        return "No negative control declared."
    if c["rejected"] is None:
        return f"{c['declared']} planted faults declared (run with --controls)."
    return f"{c['rejected']} of {c['declared']} planted faults rejected."


def headline(outcomes: Sequence[Outcome], mode: str, seed: int) -> str:
    """One paragraph of honest counts (plain text, shared by Markdown and HTML)."""
    c = headline_counts(outcomes)
    n_fail = sum(o.status == "fail" for o in outcomes)
    n_disc = len(c["discrepancies"])
    other = c["unique_rows"] - c["independent_comparisons"] - c["self_consistency_rows"]
    others = {v: sum(o.status == v for o in outcomes) for v in VERDICTS[1:]}
    n_pass = len(outcomes) - n_fail - n_disc - sum(others.values())
    extra = "".join(f", {n} {v}" for v, n in others.items() if n)
    ctl = c["controls"]
    ctl_text = (
        f" Negative controls: {ctl['rejected']} of {ctl['declared']} planted faults rejected."
        if ctl["rejected"] is not None
        else f" {ctl['declared']} negative controls declared (not run; --controls runs them)."
    )
    return (
        f"Mode {mode}, seed {seed}. {len(outcomes)} results: "
        f"{n_pass} pass, {n_disc} with a claim not reproduced "
        f"(discrepancy){extra}, {n_fail} fail.{ctl_text} "
        f"{c['unique_checks']} check functions (each run once) "
        f"produced {c['unique_rows']} evidence rows: {c['independent_comparisons']} "
        f"independent-route comparisons (MC, ODE, trained models), "
        f"{c['self_consistency_rows']} self-consistency rows (symbolic, two float forms of "
        f"one formula) and {other} others (orderings, rates, optimisers, printed numbers, "
        f"{c['reported_values']} values reported without a verdict)."
    )


def discrepancy_rows(outcomes: Sequence[Outcome]) -> list[tuple[Result, Evidence]]:
    """Every row whose claim is not reproduced, with its result."""
    return [(o.result, e) for o in outcomes for e in o.evidence if e.discrepancy]


def claims_md(outcomes: Sequence[Outcome]) -> list[str]:
    rows = discrepancy_rows(outcomes)
    out = ["## Claims not reproduced", ""]
    if not rows:
        return out + ["None: every claim checked was reproduced.", ""]
    out += [
        "Our independent routes agree with each other and contradict what the paper states.",
        "",
        "| result | claim | paper | ours | observed | source |",
        "|---|---|---|---|---|---|",
    ]
    for r, e in rows:
        d = e.to_json()["details"]
        out.append(
            f"| [`{r.id}`](#{anchor(r.id)}) | {e.name} | {fmt_value(d.get('paper'))} | "
            f"{fmt_value(d.get('ours'))} | {fmt_value(e.to_json()['observed'])} | "
            f"{d.get('source', r.source)} |"
        )
    return out + [""]


def claims_html(outcomes: Sequence[Outcome]) -> list[str]:
    esc = html.escape
    rows = discrepancy_rows(outcomes)
    parts = ["<h2>Claims not reproduced</h2>"]
    if not rows:
        return parts + ["<p>None: every claim checked was reproduced.</p>"]
    parts += [
        "<p>Our independent routes agree with each other and contradict what the paper states.</p>",
        "<table><tr><th>result</th><th>claim</th><th>paper</th><th>ours</th>"
        "<th>observed</th><th>source</th></tr>",
    ]
    for r, e in rows:
        d = e.to_json()["details"]
        parts.append(
            f"<tr><td><a href='#{anchor(r.id)}'><code>{esc(r.id)}</code></a></td>"
            f"<td>{esc(e.name)}</td><td>{esc(fmt_value(d.get('paper')))}</td>"
            f"<td>{esc(fmt_value(d.get('ours')))}</td>"
            f"<td>{esc(fmt_value(e.to_json()['observed']))}</td>"
            f"<td>{esc(str(d.get('source', r.source)))}</td></tr>"
        )
    return parts + ["</table>"]


def seed_outcome_rows(outcomes: Sequence[Outcome]) -> list[tuple[Result, Evidence, dict[str, Any]]]:
    """Every TRAIN row (each check once) with its outcome over seeds: ``seeds`` run, seeds that
    reached the prediction, the start distance, the nearest named alternative and the seeds that
    ended in a named trap (``details["traps"]``)."""
    out = []
    seen: set[int] = set()
    for o in outcomes:
        for e in o.evidence:
            if e.kind != "TRAIN" or id(e) in seen:
                continue
            seen.add(id(e))
            d = e.to_json()["details"]
            traps = d.get("traps") or {}  # over_seeds folds every seed's trap in here
            alts = [a for a in d.get("alternatives") or [] if isinstance(a, dict)]
            # to_json writes an infinite distance as the string "inf": compare as floats
            near = min(alts, key=lambda a: float(a.get("units", "inf"))) if alts else None
            out.append(
                (
                    o.result,
                    e,
                    {
                        "seeds": list(d.get("seeds") or []),
                        "seeds_passed": list(d.get("seeds_passed") or []),
                        "start_units": d.get("start_units"),
                        "nearest": (
                            f"{near['name']} ({fmt_value(near.get('units'))} u)" if near else ""
                        ),
                        "traps": "; ".join(f"seed {s}: {t}" for s, t in sorted(traps.items())),
                    },
                )
            )
    return out


def seeds_md(outcomes: Sequence[Outcome]) -> list[str]:
    rows = seed_outcome_rows(outcomes)
    out = ["## Trained claims over seeds", ""]
    if not rows:
        return out + ["No trained rows in this run.", ""]
    out += [
        "Each TRAIN row: the seeds run, how many reached the prediction (within tolerance, "
        "outside every named alternative), its start distance and nearest alternative in "
        "tolerance units (u), and the seeds that ended in a named trap.",
        "",
        "| result | row | reached | start (u) | nearest alternative | traps |",
        "|---|---|---|---|---|---|",
    ]
    for r, e, s in rows:
        out.append(
            f"| [`{r.id}`](#{anchor(r.id)}) | {e.name} | "
            f"{len(s['seeds_passed'])} of {len(s['seeds'])} {s['seeds_passed']} | "
            f"{fmt_value(s['start_units'])} | {s['nearest']} | {s['traps']} |"
        )
    return out + [""]


def seeds_html(outcomes: Sequence[Outcome]) -> list[str]:
    esc = html.escape
    rows = seed_outcome_rows(outcomes)
    parts = ["<h2>Trained claims over seeds</h2>"]
    if not rows:
        return parts + ["<p>No trained rows in this run.</p>"]
    parts.append(
        "<table><tr><th>result</th><th>row</th><th>reached</th><th>start (u)</th>"
        "<th>nearest alternative</th><th>traps</th></tr>"
    )
    for r, e, s in rows:
        parts.append(
            f"<tr><td><a href='#{anchor(r.id)}'><code>{esc(r.id)}</code></a></td>"
            f"<td>{esc(e.name)}</td><td>{len(s['seeds_passed'])} of {len(s['seeds'])} "
            f"{esc(str(s['seeds_passed']))}</td><td>{esc(fmt_value(s['start_units']))}"
            f"</td><td>{esc(s['nearest'])}</td><td>{esc(s['traps'])}</td></tr>"
        )
    return parts + ["</table>"]


STATUS_MD = {
    "pass": "✅ pass",
    "fail": "❌ FAIL",
    "discrepancy": "⚠️ discrepancy",
    "unconfirmed": "❔ unconfirmed",
    "untested": "⏸ untested",
    "skipped": "⏭ skipped",
}


def legend_md(outcomes: Sequence[Outcome]) -> list[str]:
    rows = ["## Evidence kinds", "", "| kind | rows | what the row compares |", "|---|---|---|"]
    rows += [f"| {k} | {n} | {KIND_MEANINGS[k]} |" for k, n in kind_counts(outcomes).items()]
    return rows


def legend_html(outcomes: Sequence[Outcome]) -> list[str]:
    esc = html.escape
    parts = [
        "<h2>Evidence kinds</h2>",
        "<table><tr><th>kind</th><th>rows</th><th>what the row compares</th></tr>",
    ]
    parts += [
        f"<tr><td>{k}</td><td>{n}</td><td>{esc(KIND_MEANINGS[k])}</td></tr>"
        for k, n in kind_counts(outcomes).items()
    ]
    return parts + ["</table>"]


def evidence_rows_md(ev: Sequence[Evidence]) -> list[str]:
    rows = [
        "| check | kind | predicted | observed | tolerance | se | error (tol units) | pass |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for e in ev:
        j = e.to_json()
        rows.append(
            f"| {e.name} | {e.kind} | {fmt_value(j['predicted'])} | {fmt_value(j['observed'])} | "
            f"{fmt_value(j['tolerance'])} | {fmt_value(j['se']) if e.se is not None else ''} | "
            f"{fmt_value(j['error_in_tolerance_units'])} | "
            f"{'❌' if not e.passed else '✅' if e.status == 'pass' else e.status} |"
        )
    return rows


def markdown_report(
    outcomes: Sequence[Outcome],
    figures: dict[str, list[str]],
    mode: str,
    seed: int,
    *,
    properties: Sequence[dict[str, Any]] = (),
) -> str:
    lines = [
        "# icl-verify verification report",
        "",
        headline(outcomes, mode, seed),
        "",
        "![agreement](figures/agreement.png)",
        "",
        *claims_md(outcomes),
        *(line for v in VERDICTS[1:] for line in verdict_md(outcomes, v)),
        *seeds_md(outcomes),
        *properties_md(properties),
        *legend_md(outcomes),
        "",
        "## Results",
        "",
        "| result | summary | source | checks | status |",
        "|---|---|---|---|---|",
    ]
    for o in outcomes:
        r = o.result
        tag = " *(derived)*" if r.derived else ""
        lines.append(
            f"| [`{r.id}`](#{anchor(r.id)}) | {r.summary}{tag} | {r.source} | "
            f"{len(o.evidence)} | {STATUS_MD[o.status]} |"
        )
    for o in outcomes:
        r = o.result
        lines += [
            "",
            f"## <a id='{anchor(r.id)}'></a>`{r.id}` — {r.summary}",
            "",
            f"Source: {r.source}." + (" Derived (toolkit extension)." if r.derived else ""),
        ]
        if r.statement:
            lines += ["", r.statement]
        lines += ["", controls_line(o)]
        lines += [""] + evidence_rows_md(o.evidence + tuple(c.evidence() for c in o.controls))
        for err in o.errors:
            lines += ["", "```", err.strip(), "```"]
        for png in figures.get(r.id, []):
            lines += ["", f"![{r.id}]({png})"]
    return "\n".join(lines) + "\n"


def html_report(
    outcomes: Sequence[Outcome],
    figures: dict[str, list[str]],
    mode: str,
    seed: int,
    *,
    properties: Sequence[dict[str, Any]] = (),
) -> str:
    esc = html.escape
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>icl-verify report</title>",
        "<style>body{font-family:sans-serif;max-width:1200px;margin:auto}"
        "table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;padding:2px 6px}"
        ".pass{color:#070}.info{color:#777}.fail{color:#b00;font-weight:bold}img{max-width:100%}</style></head><body>",
        "<h1>icl-verify verification report</h1>",
        f"<p>{esc(headline(outcomes, mode, seed))}</p>",
        "<img src='figures/agreement.png' alt='agreement'>",
        *claims_html(outcomes),
        *(part for v in VERDICTS[1:] for part in verdict_html(outcomes, v)),
        *seeds_html(outcomes),
        *properties_html(properties),
        *legend_html(outcomes),
        "<h2>Results</h2>",
        "<table><tr><th>result</th><th>summary</th><th>source</th><th>checks</th><th>status</th></tr>",
    ]
    for o in outcomes:
        r = o.result
        cls = "pass" if o.passed else "fail"
        parts.append(
            f"<tr><td><a href='#{anchor(r.id)}'><code>{esc(r.id)}</code></a></td>"
            f"<td>{esc(r.summary)}{' <i>(derived)</i>' if r.derived else ''}</td>"
            f"<td>{esc(r.source)}</td><td>{len(o.evidence)}</td>"
            f"<td class='{cls}'>{o.status}</td></tr>"
        )
    parts.append("</table>")
    for o in outcomes:
        r = o.result
        parts.append(f"<h2 id='{anchor(r.id)}'><code>{esc(r.id)}</code> — {esc(r.summary)}</h2>")
        parts.append(f"<p>Source: {esc(r.source)}.{' Derived.' if r.derived else ''}</p>")
        if r.statement:
            parts.append(f"<pre>{esc(r.statement)}</pre>")
        parts.append(f"<p>{esc(controls_line(o))}</p>")
        parts.append(
            "<table><tr><th>check</th><th>kind</th><th>predicted</th><th>observed</th>"
            "<th>tolerance</th><th>se</th><th>error/tol</th><th>pass</th></tr>"
        )
        for e in o.evidence + tuple(c.evidence() for c in o.controls):
            j = e.to_json()
            cls = "info" if e.status == REPORTED else "pass" if e.passed else "fail"
            parts.append(
                f"<tr><td>{esc(e.name)}</td><td>{e.kind}</td><td>{esc(fmt_value(j['predicted']))}</td>"
                f"<td>{esc(fmt_value(j['observed']))}</td><td>{esc(fmt_value(j['tolerance']))}</td>"
                f"<td>{esc(fmt_value(j['se'])) if e.se is not None else ''}</td>"
                f"<td>{esc(fmt_value(j['error_in_tolerance_units']))}</td>"
                f"<td class='{cls}'>{e.status if e.passed else 'FAIL'}</td></tr>"
            )
        parts.append("</table>")
        for err in o.errors:
            parts.append(f"<pre class='fail'>{esc(err)}</pre>")
        for png in figures.get(r.id, []):
            parts.append(f"<img src='{esc(png)}' alt='{esc(r.id)}'>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
