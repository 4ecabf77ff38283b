"""Plotly figures as JSON, built on the server: the browser only hands them to ``Plotly.react``.

Colours are the Okabe–Ito palette (distinguishable with every common colour-vision
deficiency), and lines also differ by dash and marker symbol, so no series is told
apart by colour alone. Heatmaps use Viridis. A long trajectory is thinned to at most
:data:`MAX_POINTS` points per series (evenly, always keeping the last), more than a
chart has pixels across.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["MAX_POINTS", "OKABE_ITO", "Figure", "Slot", "Thinning", "bars", "empty", "figure", "heatmap",
           "lines", "markers"]

# Okabe & Ito (2008), "Color Universal Design": blue, orange, bluish green, vermillion, reddish purple,
# sky blue, black, yellow (last: it is faint on white).
OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#F0E442")
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x", "cross", "star", "hexagon")
MAX_POINTS = 2000
FONT = {"family": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif", "size": 13, "color": "#1a1a1a"}

Trace = dict[str, Any]


@dataclass(frozen=True)
class Slot:
    """A chart's place on a session page: rendered with the page, filled by the browser."""

    id: str
    title: str
    description: str  # what the chart shows, for screen readers and the figure caption


@dataclass(frozen=True)
class Figure:
    """A filled slot: Plotly's ``data`` and ``layout``."""

    data: list[Trace]
    layout: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"data": self.data, "layout": self.layout}


class Thinning:
    """Which of ``total`` points a series keeps: every ``stride``-th, and the last."""

    def __init__(self, total: int, max_points: int = MAX_POINTS) -> None:
        self.total = total
        self.stride = max(1, math.ceil(total / max_points))

    def keeps(self, index: int) -> bool:
        return index % self.stride == 0 or index == self.total - 1


def _colour(index: int) -> str:
    return OKABE_ITO[index % len(OKABE_ITO)]


def lines(name: str, x: Sequence[Any], y: Sequence[float | None], index: int, *, yaxis: str = "y") -> Trace:
    """A line series; markers too when it is short enough to see them."""
    mode = "lines+markers" if len(x) <= 60 else "lines"
    return {"type": "scatter", "mode": mode, "name": name, "x": list(x), "y": list(y), "yaxis": yaxis,
            "line": {"color": _colour(index), "dash": DASHES[index % len(DASHES)], "width": 2},
            "marker": {"symbol": SYMBOLS[index % len(SYMBOLS)], "size": 7, "color": _colour(index)}}


def markers(name: str, x: Sequence[Any], y: Sequence[float | None], index: int, *, symbol: str | None = None,
            text: Sequence[str] | None = None) -> Trace:
    trace: Trace = {"type": "scatter", "mode": "markers", "name": name, "x": list(x), "y": list(y),
                    "marker": {"symbol": symbol or SYMBOLS[index % len(SYMBOLS)], "size": 9,
                               "color": _colour(index), "line": {"width": 1, "color": "#1a1a1a"}}}
    if text is not None:
        trace["text"] = list(text)
    return trace


def bars(name: str, x: Sequence[Any], y: Sequence[float | None], index: int, *, yaxis: str = "y") -> Trace:
    return {"type": "bar", "name": name, "x": list(x), "y": list(y), "yaxis": yaxis,
            "marker": {"color": _colour(index), "line": {"width": 1, "color": "#1a1a1a"}}}


def heatmap(z: Sequence[Sequence[float]], x: Sequence[str], y: Sequence[str], name: str) -> Trace:
    return {"type": "heatmap", "name": name, "z": [list(row) for row in z], "x": list(x), "y": list(y),
            "colorscale": "Viridis", "zmin": 0, "zmax": 1, "hoverongaps": False,
            "colorbar": {"title": {"text": name}, "thickness": 14}}


def figure(data: list[Trace], x_title: str, y_title: str, **layout: Any) -> Figure:
    """A figure with the dashboard's axes, legend and font; ``layout`` adds to or overrides them."""
    base: dict[str, Any] = {
        "font": FONT, "colorway": list(OKABE_ITO), "margin": {"l": 60, "r": 20, "t": 10, "b": 50},
        "xaxis": {"title": {"text": x_title}, "automargin": True, "gridcolor": "#e5e5e5"},
        "yaxis": {"title": {"text": y_title}, "automargin": True, "gridcolor": "#e5e5e5"},
        "legend": {"orientation": "h", "x": 0, "y": 1.02, "yanchor": "bottom"},  # above: clear of the axis title
        "paper_bgcolor": "#ffffff", "plot_bgcolor": "#ffffff", "hovermode": "closest",
    }
    return Figure(data, {**base, **layout})


def empty(message: str) -> Figure:
    """A figure with no series that says why."""
    return Figure([], {"font": FONT, "margin": {"l": 20, "r": 20, "t": 10, "b": 20},
                       "xaxis": {"visible": False}, "yaxis": {"visible": False},
                       "annotations": [{"text": message, "showarrow": False, "font": {"size": 15},
                                        "xref": "paper", "yref": "paper", "x": 0.5, "y": 0.5}]})
