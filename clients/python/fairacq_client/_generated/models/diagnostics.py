from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.diagnostics_rejections_type_0 import DiagnosticsRejectionsType0
  from ..models.diagnostics_splits_type_0_item import DiagnosticsSplitsType0Item





T = TypeVar("T", bound="Diagnostics")



@_attrs_define
class Diagnostics:
    """ 
        Attributes:
            warnings (list[str]): plain-language notes, e.g. a split game that stopped short of ε
            any_stopped_short (bool | None | Unset): ab_tree*: some kept split's game ended with gap > ε
            converged (bool | None | Unset): *_logistic: the classifier's solver converged
            games_played (int | None | Unset):
            hull_distance (float | None | Unset):
            rejections (DiagnosticsRejectionsType0 | None | Unset):
            splits (list[DiagnosticsSplitsType0Item] | None | Unset): ab_tree*: each kept split's game and tests
            stop_reason (None | str | Unset): ab_tree*: within_stop_distance, no_qualifying_split, max_depth
     """

    warnings: list[str]
    any_stopped_short: bool | None | Unset = UNSET
    converged: bool | None | Unset = UNSET
    games_played: int | None | Unset = UNSET
    hull_distance: float | None | Unset = UNSET
    rejections: DiagnosticsRejectionsType0 | None | Unset = UNSET
    splits: list[DiagnosticsSplitsType0Item] | None | Unset = UNSET
    stop_reason: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.diagnostics_rejections_type_0 import DiagnosticsRejectionsType0 # noqa: PLC0415
        from ..models.diagnostics_splits_type_0_item import DiagnosticsSplitsType0Item # noqa: PLC0415
        warnings = self.warnings



        any_stopped_short: bool | None | Unset
        if isinstance(self.any_stopped_short, Unset):
            any_stopped_short = UNSET
        else:
            any_stopped_short = self.any_stopped_short

        converged: bool | None | Unset
        if isinstance(self.converged, Unset):
            converged = UNSET
        else:
            converged = self.converged

        games_played: int | None | Unset
        if isinstance(self.games_played, Unset):
            games_played = UNSET
        else:
            games_played = self.games_played

        hull_distance: float | None | Unset
        if isinstance(self.hull_distance, Unset):
            hull_distance = UNSET
        else:
            hull_distance = self.hull_distance

        rejections: dict[str, Any] | None | Unset
        if isinstance(self.rejections, Unset):
            rejections = UNSET
        elif isinstance(self.rejections, DiagnosticsRejectionsType0):
            rejections = self.rejections.to_dict()
        else:
            rejections = self.rejections

        splits: list[dict[str, Any]] | None | Unset
        if isinstance(self.splits, Unset):
            splits = UNSET
        elif isinstance(self.splits, list):
            splits = []
            for splits_type_0_item_data in self.splits:
                splits_type_0_item = splits_type_0_item_data.to_dict()
                splits.append(splits_type_0_item)


        else:
            splits = self.splits

        stop_reason: None | str | Unset
        if isinstance(self.stop_reason, Unset):
            stop_reason = UNSET
        else:
            stop_reason = self.stop_reason


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "warnings": warnings,
        })
        if any_stopped_short is not UNSET:
            field_dict["any_stopped_short"] = any_stopped_short
        if converged is not UNSET:
            field_dict["converged"] = converged
        if games_played is not UNSET:
            field_dict["games_played"] = games_played
        if hull_distance is not UNSET:
            field_dict["hull_distance"] = hull_distance
        if rejections is not UNSET:
            field_dict["rejections"] = rejections
        if splits is not UNSET:
            field_dict["splits"] = splits
        if stop_reason is not UNSET:
            field_dict["stop_reason"] = stop_reason

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.diagnostics_rejections_type_0 import DiagnosticsRejectionsType0 # noqa: PLC0415
        from ..models.diagnostics_splits_type_0_item import DiagnosticsSplitsType0Item # noqa: PLC0415
        d = dict(src_dict)
        warnings = cast(list[str], d.pop("warnings"))


        def _parse_any_stopped_short(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        any_stopped_short = _parse_any_stopped_short(d.pop("any_stopped_short", UNSET))


        def _parse_converged(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        converged = _parse_converged(d.pop("converged", UNSET))


        def _parse_games_played(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        games_played = _parse_games_played(d.pop("games_played", UNSET))


        def _parse_hull_distance(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        hull_distance = _parse_hull_distance(d.pop("hull_distance", UNSET))


        def _parse_rejections(data: object) -> DiagnosticsRejectionsType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                rejections_type_0 = DiagnosticsRejectionsType0.from_dict(data)



                return rejections_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DiagnosticsRejectionsType0 | None | Unset, data)

        rejections = _parse_rejections(d.pop("rejections", UNSET))


        def _parse_splits(data: object) -> list[DiagnosticsSplitsType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                splits_type_0 = []
                _splits_type_0 = data
                for splits_type_0_item_data in (_splits_type_0):
                    splits_type_0_item = DiagnosticsSplitsType0Item.from_dict(splits_type_0_item_data)



                    splits_type_0.append(splits_type_0_item)

                return splits_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[DiagnosticsSplitsType0Item] | None | Unset, data)

        splits = _parse_splits(d.pop("splits", UNSET))


        def _parse_stop_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        stop_reason = _parse_stop_reason(d.pop("stop_reason", UNSET))


        diagnostics = cls(
            warnings=warnings,
            any_stopped_short=any_stopped_short,
            converged=converged,
            games_played=games_played,
            hull_distance=hull_distance,
            rejections=rejections,
            splits=splits,
            stop_reason=stop_reason,
        )


        diagnostics.additional_properties = d
        return diagnostics

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
