"""The PNG of a simulation's results: the worst-group curve of each policy with its 95% band."""

from __future__ import annotations

import io
from typing import Any

import matplotlib

matplotlib.use("Agg")  # no display in a server; must precede pyplot
import matplotlib.pyplot as plt

__all__ = ["render_png"]


def render_png(results: dict[str, Any], title: str) -> bytes:
    """Mean and interval of the compared measure against samples acquired, one line per policy."""
    points = results["points"]
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=100)
    try:
        for policy in results["policies"]:
            c = policy["curves"]["worst_group"]
            ax.plot(points, c["mean"], marker="o", markersize=3, label=policy["name"])
            ax.fill_between(points, c["low"], c["high"], alpha=0.2)
        ax.set_xlabel("samples acquired")
        ax.set_ylabel(results["measure"])
        ax.set_title(title)
        ax.grid(alpha=0.3)
        ax.legend()
        fig.tight_layout()
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", metadata={"Software": None})
        return buffer.getvalue()
    finally:
        plt.close(fig)
