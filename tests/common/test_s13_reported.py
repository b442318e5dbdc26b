"""INFO rows report a value beside the rows that judge: never a pass (session 13).

DEVELOPERS.md: statuses are pass, fail, discrepancy, unconfirmed, untested, skipped -- "never INFO,
never a pass".  An INFO row's status is ``reported``: counted apart from every status, shown
without a tick; a check whose only rows are INFO rows is ``reported`` too, and a result with no
row that judges fails (a pass needs something judged).
"""

from __future__ import annotations

from numerics.testing import float_agreement, informational, skipped
from sims.console import summary_line
from sims.render import headline, headline_counts
from sims.verify import Outcome, rows_status
from theory.common.protocols import REPORTED, STATUSES, Result

RESULT = Result(id="demo:r1", kind="theorem", summary="a demo", source="[demo] Thm 1")


def _rows():
    judge = float_agreement("a value twice", 0.25, 0.25)
    info = informational("a value reported beside it", 3.0, 2.5)
    return judge, info


def test_an_info_row_is_reported_not_a_status_and_not_a_pass() -> None:
    judge, info = _rows()
    assert judge.status == "pass"
    assert info.status == REPORTED == "reported"
    assert REPORTED not in STATUSES
    assert info.passed  # never fails
    assert info.to_json()["status"] == "reported"
    # an INFO row that carries a verdict keeps it (why it could not be computed)
    assert skipped(informational("x", None, None), why="needs n >= 9").status == "skipped"


def test_a_check_of_info_rows_only_is_reported_and_a_result_of_them_fails() -> None:
    judge, info = _rows()
    assert rows_status([judge, info]) == "pass"
    assert rows_status([info]) == "reported"
    assert rows_status([info, info]) == "reported"
    assert rows_status([info, skipped(judge, why="too few samples")]) == "skipped"
    assert rows_status([]) == "fail"
    assert Outcome(RESULT, (judge, info), check_rows=(("demo:c", 2),)).status == "pass"
    only = Outcome(RESULT, (info,), check_rows=(("demo:c", 1),))
    assert not only.passed and only.status == "fail"


def test_counts_keep_reported_values_apart_from_the_statuses() -> None:
    judge, info = _rows()
    out = Outcome(RESULT, (judge, info, info), check_rows=(("demo:c", 3),))
    c = headline_counts([out])
    assert c["rows_by_status"]["pass"] == 1
    assert sum(c["rows_by_status"].values()) == 1
    assert c["reported_values"] == 2
    assert "2 values reported without a verdict" in headline([out], "quick", 0)
    assert summary_line([judge, info, info]) == "1 pass, 2 reported (no verdict)"
