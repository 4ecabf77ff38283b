"""FairBatch's disparities, signed λ update and integer batch composition.

Everything here works on per-cell arrays in the label-major order of
:mod:`service.algorithms.fairbatch.cells` and is O(cells).

Disparities the controller acts on compare one label in two adjacent groups,
cells ``a = (y, z_a)`` and ``b = (y, z_b)``:

* equal opportunity, equalized odds — ``e = L_a - L_b``, the difference of the
  cells' mean losses (Algorithms 2 and 3);
* demographic parity — Appendix A.1 for unequal cell sizes: the reweighted losses
  ``L'_{y,z} = (m_{y,z} / m_{·,z}) L_{y,z}`` and, on the negative label, the
  shifted absolute value ``|x|_c = |x - c|`` with ``c = m_{y,z_a}/m_{·,z_a} - m_{y,z_b}/m_{·,z_b}``,
  so ``e = L'_a - L'_b - c`` (``c = 0`` on the positive label). For the 0/1 loss
  ``P(ŷ = 1 | z_a) - P(ŷ = 1 | z_b) = e_negative - e_positive``, so both being 0 is
  sufficient for parity. This is Algorithm 4, whose losses against the label 1
  equal ``r - L'`` on the negative cells; for the 0/1 loss the two agree exactly,
  so a client should report 0/1 error rates for demographic parity (with a
  surrogate such as log loss the shift ``c``, a difference of probabilities, is on
  another scale).

  A.1's condition is stronger than parity: on the negative label it asks
  ``P(ŷ=0, y=0 | z_a) = P(ŷ=0, y=0 | z_b)``, which cannot hold when base rates
  differ as much as in the paper's synthetic data (0.32 against 0.70). That λ then
  runs to the edge of its box and, being the largest disparity, keeps every other
  λ still; the model goes on adapting to the extreme batches, so where training
  stops sets the accuracy-parity trade-off (as with the paper's released code).

Appendix B.5's threshold T ("the λ parameters are only updated if the disparity
is above some threshold T") gates the update on :func:`gate_disparity`, the
fairness gap itself between adjacent groups. For EO and ED that is the largest
``|e|`` of the pairs above (their pair disparity already is the gap of the
measure). For DP it is the largest parity gap ``|P(ŷ=1|z_a) - P(ŷ=1|z_b)|``
between adjacent groups (``= |e_negative - e_positive|`` of the group pair for 0/1
losses), not A.1's label-wise ``|e|``: on the negative label that one stays far
above any T when base rates differ, so a gate on it would never close and T would
have no effect. Which λ moves, and in which direction, is still decided by A.1's
disparities (Algorithm 4); the gate only decides whether one moves at all. While
A.1's negative-label λ sits at the edge of its box (as on the paper's synthetic
data) no λ moves either way, so T cannot set the trade-off there; where training
stops does.

Every disparity is reported signed, ``e > 0`` meaning cell ``a`` of the pair is
behind and receives probability.

References
----------
Roh, Lee, Whang, Suh (2021), "FairBatch: Batch Selection for Model Fairness",
ICLR — Section 3.1 (signed update λ ← λ - α·sign(g - f)), Section 3.2 (update only
the coordinate of the largest disparity), Appendix A.1 (demographic parity with
unequal cells, ``L'`` and ``|x|_c``), Algorithms 2-4 (Appendix A.6), Appendix B.5
(threshold T on the disparity), Section 4 "Measuring Fairness" (disparities against the overall rate).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from service.algorithms.fairbatch.cells import CellLayout

__all__ = [
    "Move",
    "gate_disparity",
    "largest_remainder",
    "pair_disparities",
    "reported_disparity",
    "signed_update",
]

# Fractional parts that agree to this many decimals are ties in the largest-remainder
# rounding; they are broken by cell index, so float noise (0.4999999999 vs 0.5) in
# p·batch_size cannot decide which cell gets the extra example.
REMAINDER_DECIMALS = 9


def _group_rates(counts: np.ndarray, layout: CellLayout) -> np.ndarray:
    """``r_{y,z} = m_{y,z} / m_{·,z}`` per cell (0 for a group without examples)."""
    table = counts.reshape(layout.n_labels, layout.n_groups).astype(float)
    totals = table.sum(axis=0)
    rates = np.divide(table, totals, out=np.zeros_like(table), where=totals > 0)
    return np.asarray(rates.ravel())


def pair_disparities(metric: str, layout: CellLayout, counts: np.ndarray, losses: np.ndarray) -> np.ndarray:
    """Signed disparity ``e_j`` of every λ pair ``(a, b)``; ``e_j > 0`` means cell ``a`` is behind.

    "Behind" is the side the signed update moves probability toward: the larger
    loss (EO, ED) or the larger A.1-shifted reweighted loss (DP).
    """
    a = np.fromiter((p[0] for p in layout.pairs), dtype=np.int64, count=len(layout.pairs))
    b = np.fromiter((p[1] for p in layout.pairs), dtype=np.int64, count=len(layout.pairs))
    if metric != "demographic_parity":
        return np.asarray(losses[a] - losses[b])
    rates = _group_rates(counts, layout)
    reweighted = rates * losses
    negative = (a // layout.n_groups) != layout.positive
    shift = np.where(negative, rates[a] - rates[b], 0.0)
    return np.asarray(reweighted[a] - reweighted[b] - shift)


def _positive_rates(counts: np.ndarray, layout: CellLayout, losses: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``P(ŷ = 1 | z)`` per group from 0/1 error rates (binary labels), and which groups have rows."""
    table = counts.reshape(layout.n_labels, layout.n_groups).astype(float)
    loss = np.where(table > 0, losses.reshape(table.shape), 0.0)
    rates = _group_rates(counts, layout).reshape(table.shape)
    neg = 1 - layout.positive
    positive_rate = rates[neg] * loss[neg] + rates[layout.positive] * (1.0 - loss[layout.positive])
    return positive_rate, table.sum(axis=0) > 0


def gate_disparity(
    metric: str, layout: CellLayout, counts: np.ndarray, losses: np.ndarray, pairs: np.ndarray
) -> float:
    """The disparity Appendix B.5's threshold T is compared with: the measure's largest adjacent gap.

    EO, ED: ``max_j |e_j|`` over ``pairs`` (the output of :func:`pair_disparities`).
    DP: ``max |P(ŷ=1|z_k) - P(ŷ=1|z_{k+1})|`` over adjacent groups with examples, in
    the order of ``groups``, with ``P(ŷ=1|z) = r_{0,z} L_{0,z} + r_{1,z} (1 - L_{1,z})``
    (exact for 0/1 losses, where the gap of a group pair is ``e_negative - e_positive``).
    """
    if metric != "demographic_parity":
        return float(np.max(np.abs(pairs)))
    positive_rate, present = _positive_rates(counts, layout, losses)
    rate = positive_rate[present]
    return float(np.max(np.abs(np.diff(rate)))) if rate.size > 1 else 0.0


def reported_disparity(metric: str, layout: CellLayout, counts: np.ndarray, losses: np.ndarray) -> float:
    """The paper's disparity (each group against the overall rate) from per-cell losses.

    EO: ``max_z |L_{1,z} - L_{1,·}|``; ED: the same maximised over labels; DP:
    ``max_z |P(ŷ=1|z) - P(ŷ=1)|`` with ``P(ŷ=1|z) = r_{0,z} L_{0,z} + r_{1,z} (1 - L_{1,z})``.
    Exact when the losses are 0/1 error rates (1 - L is then the rate of correct
    predictions); with a surrogate loss it is the same formula on that loss.
    """
    table = counts.reshape(layout.n_labels, layout.n_groups).astype(float)
    loss = np.where(table > 0, losses.reshape(table.shape), 0.0)
    if metric == "demographic_parity":
        totals = table.sum(axis=0)
        positive_rate, present = _positive_rates(counts, layout, losses)
        overall = float(np.sum(totals[present] * positive_rate[present]) / totals.sum())
        return float(np.max(np.abs(positive_rate[present] - overall)))
    rows = [layout.positive] if metric == "equal_opportunity" else range(layout.n_labels)
    worst = 0.0
    for y in rows:
        present = table[y] > 0
        if present.any():
            overall = float(np.sum(table[y] * loss[y]) / table[y].sum())
            worst = max(worst, float(np.max(np.abs(loss[y][present] - overall))))
    return worst


@dataclass(frozen=True)
class Move:
    """Which λ the signed update changed (``None``: none) and by how much (signed)."""

    index: int | None
    amount: float


def signed_update(
    probabilities: np.ndarray,
    layout: CellLayout,
    disparities: np.ndarray,
    step_size: float,
    threshold: float,
    gate: float | None = None,
) -> tuple[np.ndarray, Move]:
    """One FairBatch step: move ``step_size`` inside the pair with the largest ``|e|`` only.

    Only that pair's λ changes (Section 3.2); probability goes to the cell that is
    behind (``a`` when ``e > 0``, so λ grows; ``b`` when ``e < 0``), and the amount
    is clipped to what the giving cell holds, which keeps λ in its feasible box and
    both cells in ``[0, c]``. Nothing moves when ``gate <= threshold`` (Appendix B.5;
    ``gate`` is :func:`gate_disparity`, by default ``max |e|``) or when ``e = 0``
    (with ``T = 0`` a zero disparity leaves λ unchanged as in Algorithm 2). Ties
    between pairs go to the lowest λ index.
    """
    j = int(np.argmax(np.abs(disparities)))
    e = float(disparities[j])
    if gate is None:
        gate = abs(e)
    if gate <= threshold or e == 0.0:
        return probabilities.copy(), Move(None, 0.0)
    a, b = layout.pairs[j]
    receiver, giver = (a, b) if e > 0 else (b, a)
    amount = min(step_size, float(probabilities[giver]))
    if amount <= 0.0:  # λ already at the edge of its box in that direction
        return probabilities.copy(), Move(None, 0.0)
    out = probabilities.copy()
    out[receiver] += amount
    out[giver] -= amount
    return out, Move(j, amount if e > 0 else -amount)


def largest_remainder(probabilities: np.ndarray, total: int) -> np.ndarray:
    """Integer counts summing to ``total``, proportional to ``probabilities`` (Hamilton's method).

    Each cell gets ``floor(p·total)``; the examples left over go one each to the
    cells with the largest fractional parts, ties to the lowest cell index.
    """
    quotas = np.asarray(probabilities, dtype=float) * total
    counts = np.floor(quotas).astype(np.int64)
    left = int(total - counts.sum())
    if left > 0:
        fractions = np.round(quotas - counts, REMAINDER_DECIMALS)
        order = np.lexsort((np.arange(len(quotas)), -fractions))
        counts[order[:left]] += 1
    return np.asarray(counts)
