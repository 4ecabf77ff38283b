from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.export_create_format import ExportCreateFormat
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.dataset_source import DatasetSource
  from ..models.decision_log_source import DecisionLogSource





T = TypeVar("T", bound="ExportCreate")



@_attrs_define
class ExportCreate:
    """ 
        Attributes:
            format_ (ExportCreateFormat):
            source (DatasetSource | DecisionLogSource):
            kinds (list[str] | Unset): decision logs: only entries of these kinds (create, next…)
            since (datetime.datetime | Unset): decision logs: entries created at or after this
            until (datetime.datetime | Unset): decision logs: entries created before this
     """

    format_: ExportCreateFormat
    source: DatasetSource | DecisionLogSource
    kinds: list[str] | Unset = UNSET
    since: datetime.datetime | Unset = UNSET
    until: datetime.datetime | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.dataset_source import DatasetSource # noqa: PLC0415
        from ..models.decision_log_source import DecisionLogSource # noqa: PLC0415
        format_ = self.format_.value

        source: dict[str, Any]
        if isinstance(self.source, DecisionLogSource):
            source = self.source.to_dict()
        else:
            source = self.source.to_dict()


        kinds: list[str] | Unset = UNSET
        if not isinstance(self.kinds, Unset):
            kinds = self.kinds



        since: str | Unset = UNSET
        if not isinstance(self.since, Unset):
            since = self.since.isoformat()

        until: str | Unset = UNSET
        if not isinstance(self.until, Unset):
            until = self.until.isoformat()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "format": format_,
            "source": source,
        })
        if kinds is not UNSET:
            field_dict["kinds"] = kinds
        if since is not UNSET:
            field_dict["since"] = since
        if until is not UNSET:
            field_dict["until"] = until

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dataset_source import DatasetSource # noqa: PLC0415
        from ..models.decision_log_source import DecisionLogSource # noqa: PLC0415
        d = dict(src_dict)
        format_ = ExportCreateFormat(d.pop("format"))




        def _parse_source(data: object) -> DatasetSource | DecisionLogSource:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                source_type_0 = DecisionLogSource.from_dict(data)



                return source_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            source_type_1 = DatasetSource.from_dict(data)



            return source_type_1

        source = _parse_source(d.pop("source"))


        kinds = cast(list[str], d.pop("kinds", UNSET))


        _since = d.pop("since", UNSET)
        since: datetime.datetime | Unset
        if isinstance(_since,  Unset):
            since = UNSET
        else:
            since = datetime.datetime.fromisoformat(_since)




        _until = d.pop("until", UNSET)
        until: datetime.datetime | Unset
        if isinstance(_until,  Unset):
            until = UNSET
        else:
            until = datetime.datetime.fromisoformat(_until)




        export_create = cls(
            format_=format_,
            source=source,
            kinds=kinds,
            since=since,
            until=until,
        )

        return export_create

