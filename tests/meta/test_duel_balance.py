"""``analyzer balance --criterion duels``: value per point made fair (planted roots)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from analyzer.errors import InputError
from analyzer.meta.duel_balance import DuelField, balance_duels, fairness
from tests.meta.report_check import rendered


class Card:
    def __init__(self, points: int) -> None:
        self.points = points


def planted_table(p: np.ndarray, names: list[str], trials: int, seed: int) -> pd.DataFrame:
    """``value_table``'s duel_score rows for planted win probabilities ``p[u, v]``
    (no draws), each duel a binomial of ``trials`` (0: the exact scores, SE 0)."""
    rng = np.random.default_rng(seed)
    rows = []
    for u in range(len(names)):
        for v in range(u + 1, len(names)):
            s = rng.binomial(trials, p[u, v]) / trials if trials else p[u, v]
            se = math.sqrt(s * (1 - s) / trials) if trials else 0.0
            for a, b, x in ((u, v, s), (v, u, 1 - s)):
                rows.append({"unit": names[a], "opponent": names[b], "metric": "duel_score",
                             "estimate": x, "se": se})  # fmt: skip
    return pd.DataFrame(rows)


def perron_costs(p: np.ndarray, total: float) -> np.ndarray:
    """The known root by an independent method: the Perron vector of ``A`` (numpy eig)."""
    a = p / (len(p) - 1)
    np.fill_diagonal(a, 0.0)
    vals, vecs = np.linalg.eig(a)
    root = np.abs(np.real(vecs[:, np.argmax(np.real(vals))]))
    return root * total / root.sum()


def test_two_units_closed_form():
    # vpp_1 = p c_2 / c_1 and vpp_2 = (1 - p) c_1 / c_2 are equal at c_1 / c_2 = sqrt(p / (1 - p))
    p = np.array([[0.5, 0.8], [0.2, 0.5]])
    names = ["A", "B"]
    cards = {"A": Card(10), "B": Card(10)}
    fld = DuelField.from_value_table(planted_table(p, names, 0, 1), cards)
    result = balance_duels(fld, fld, resamples=0, max_factor=10)
    assert result.root[0] / result.root[1] == pytest.approx(2.0, rel=1e-8)
    assert result.root.sum() == pytest.approx(20.0)
    assert list(result.proposed.costs) == [13.0, 7.0]  # 13.33 and 6.67 rounded
    # median of (0.8, 0.2) is 0.5: 0.8 / 0.5 - 1 = 60%; rounded 13 and 7: 0.431 and 0.371
    assert result.current.worst == pytest.approx(0.6)
    assert result.proposed.worst == pytest.approx(
        (0.8 * 7 / 13) / ((0.8 * 7 / 13 + 0.2 * 13 / 7) / 2) - 1
    )


@pytest.fixture
def planted():
    rng = np.random.default_rng(4)
    names = [f"U{i}" for i in range(7)]
    strength = rng.uniform(0.5, 2.0, len(names))
    p = strength[:, None] / (strength[:, None] + strength[None, :])
    cards = {n: Card(20) for n in names}
    return names, p, cards


def test_recovers_the_perron_root_from_noisy_duels(planted):
    names, p, cards = planted
    fld = DuelField.from_value_table(planted_table(p, names, 4000, 11), cards)
    fresh = DuelField.from_value_table(planted_table(p, names, 4000, 12), cards)
    result = balance_duels(fld, fresh, resamples=400, seed=3, max_factor=5)
    root = perron_costs(p, 20.0 * len(names))
    half = (result.ci[1] - result.ci[0]) / 2
    assert np.all(half > 0) and np.all(half < 2.0)
    # within 5 SE (the 95% half-width is 1.96 SE) of the exact root, every unit
    assert np.all(np.abs(result.root - root) <= 5 * half / 1.96), (result.root, root)
    assert np.all(np.abs(result.proposed.costs - root) <= 0.5 + 5 * half / 1.96)
    exact = fairness(fld.matrix(p * (1 - np.eye(len(p)))), root)
    assert exact.worst < 1e-9  # the planted root is exactly fair
    assert result.validation.spread < 0.25 * result.validation_current.spread
    # rounding a cost of ~13 to a whole point alone moves its vpp by up to 4%
    assert result.validation.worst < 0.1 < result.validation_current.worst


def test_fewest_changes_moves_the_largest_misfits_first(planted):
    names, p, cards = planted
    fld = DuelField.from_value_table(planted_table(p, names, 4000, 11), cards)
    result = balance_duels(fld, fld, fewest_changes=True, tolerance=0.1, resamples=20,
                           max_factor=5)  # fmt: skip
    table = result.cost_table()
    assert result.proposed.worst <= 0.1 < result.current.worst
    assert set(table[table["change"] != 0]["unit"]) <= set(result.free)
    assert len(result.free) < len(names)
    misfit = np.abs(np.log1p(result.current.relative))
    free = [names.index(u) for u in result.free]
    fixed = [i for i in range(len(names)) if i not in free]
    assert min(misfit[free]) >= max(misfit[fixed])


def test_granularity_bounds_and_bad_input(planted):
    names, p, cards = planted
    fld = DuelField.from_value_table(planted_table(p, names, 4000, 11), cards)
    result = balance_duels(fld, fld, granularity=5, resamples=0, max_factor=1.5)
    assert all(c % 5 == 0 for c in result.proposed.costs)
    assert np.all(result.root <= 30 + 1e-9) and np.all(result.root >= 20 / 1.5 - 1e-9)
    with pytest.raises(InputError, match="--damping"):
        balance_duels(fld, fld, damping=1.5)
    with pytest.raises(InputError, match="two units"):
        DuelField.from_value_table(planted_table(p[:1, :1], names[:1], 10, 1), cards)


def test_cli_on_d20_duels(tmp_path, capsys):
    import json

    from analyzer.cli import main

    out = tmp_path / "balance"
    main(["balance", "d20", "--criterion", "duels", "--trials", "200", "--resamples", "50",
          "--out", str(out)])  # fmt: skip
    text = capsys.readouterr().out
    assert "by duels" in text and "validation on fresh seeds" in text
    data = json.loads((out / "balance.json").read_text())
    assert data["criterion"] == "duels" and len(data["costs"]) >= 2
    assert data["spread"]["proposed"] < data["spread"]["current"]
    rendered(
        out,
        "Joint balance of d20 by duels",
        "spread of the value per point (SD / mean)",
        "fair cost [95% CI]",
        charts=("balance_costs", "balance_fairness"),
    )
    with pytest.raises(SystemExit) as exit_info:
        main(["balance", "d20", "--criterion", "duels", "--lists", "x.yaml"])
    assert exit_info.value.code == 2
    assert "--lists is for --criterion matches" in capsys.readouterr().err
