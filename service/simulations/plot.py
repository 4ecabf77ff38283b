"""The PNG of a simulation's results: each plotted curve of each policy with its 95% band."""

from __future__ import annotations

import io
from typing import Any

import matplotlib

matplotlib.use("Agg")  # no display in a server; must precede pyplot
import matplotlib.pyplot as plt

__all__ = ["render_png"]

LABELS = {"worst_group": None, "fairness": "{measure}", "disparity": "{measure}", "accuracy": "accuracy",
          "imbalance": "imbalance ‖shares − U‖", "acceptance_rate": "acceptance rate", "disclosivity": "disclosivity"}


def render_png(results: dict[str, Any], title: str) -> bytes:
    """Mean and interval of each plotted curve against the budget spent, one panel per curve."""
    points = results["points"]
    plotted = results.get("plotted", ["worst_group"])
    fig, axes = plt.subplots(1, len(plotted), figsize=(7 * len(plotted) ** 0.8, 4.2), dpi=100, squeeze=False)
    try:
        for ax, name in zip(axes[0], plotted, strict=True):
            for policy in results["policies"]:
                c = policy["curves"][name]
                ax.plot(points, c["mean"], marker="o", markersize=3, label=policy["name"])
                ax.fill_between(points, c["low"], c["high"], alpha=0.2)
            ax.set_xlabel(results.get("x_label", "samples acquired"))
            ax.set_ylabel((LABELS.get(name) or "{measure}").format(measure=results["measure"]))
            ax.grid(alpha=0.3)
        axes[0][0].legend()
        fig.suptitle(title)
        fig.tight_layout()
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", metadata={"Software": None})
        return buffer.getvalue()
    finally:
        plt.close(fig)
