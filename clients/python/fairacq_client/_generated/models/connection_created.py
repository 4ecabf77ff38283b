from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.connection_created_session_type import ConnectionCreatedSessionType
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.connection_options import ConnectionOptions
  from ..models.field_mapping import FieldMapping
  from ..models.ledger_counts import LedgerCounts





T = TypeVar("T", bound="ConnectionCreated")



@_attrs_define
class ConnectionCreated:
    """ 
        Attributes:
            annotations (LedgerCounts):
            backend_path (str): the ML backend's URL path on this server (append it to the base URL)
            created_at (datetime.datetime):
            first_group (None | str): group samplers: the group whose tasks /predict puts first now (the sampler's rule on
                its current state; null when its budget is spent)
            id (UUID):
            mapping (FieldMapping): Where the adapter finds a task's features, its group and an annotation's label.
            model_version (str): what /setup and every prediction report; the ML backend's title
            name (None | str):
            options (ConnectionOptions):
            session_id (UUID):
            session_type (ConnectionCreatedSessionType):
            token (str): shown once: Label Studio's basic-auth password (any user name), or a Bearer token
     """

    annotations: LedgerCounts
    backend_path: str
    created_at: datetime.datetime
    first_group: None | str
    id: UUID
    mapping: FieldMapping
    model_version: str
    name: None | str
    options: ConnectionOptions
    session_id: UUID
    session_type: ConnectionCreatedSessionType
    token: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.connection_options import ConnectionOptions # noqa: PLC0415
        from ..models.field_mapping import FieldMapping # noqa: PLC0415
        from ..models.ledger_counts import LedgerCounts # noqa: PLC0415
        annotations = self.annotations.to_dict()

        backend_path = self.backend_path

        created_at = self.created_at.isoformat()

        first_group: None | str
        first_group = self.first_group

        id = str(self.id)

        mapping = self.mapping.to_dict()

        model_version = self.model_version

        name: None | str
        name = self.name

        options = self.options.to_dict()

        session_id = str(self.session_id)

        session_type = self.session_type.value

        token = self.token


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "annotations": annotations,
            "backend_path": backend_path,
            "created_at": created_at,
            "first_group": first_group,
            "id": id,
            "mapping": mapping,
            "model_version": model_version,
            "name": name,
            "options": options,
            "session_id": session_id,
            "session_type": session_type,
            "token": token,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.connection_options import ConnectionOptions # noqa: PLC0415
        from ..models.field_mapping import FieldMapping # noqa: PLC0415
        from ..models.ledger_counts import LedgerCounts # noqa: PLC0415
        d = dict(src_dict)
        annotations = LedgerCounts.from_dict(d.pop("annotations"))




        backend_path = d.pop("backend_path")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        def _parse_first_group(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        first_group = _parse_first_group(d.pop("first_group"))


        id = UUID(d.pop("id"))




        mapping = FieldMapping.from_dict(d.pop("mapping"))




        model_version = d.pop("model_version")

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        options = ConnectionOptions.from_dict(d.pop("options"))




        session_id = UUID(d.pop("session_id"))




        session_type = ConnectionCreatedSessionType(d.pop("session_type"))




        token = d.pop("token")

        connection_created = cls(
            annotations=annotations,
            backend_path=backend_path,
            created_at=created_at,
            first_group=first_group,
            id=id,
            mapping=mapping,
            model_version=model_version,
            name=name,
            options=options,
            session_id=session_id,
            session_type=session_type,
            token=token,
        )


        connection_created.additional_properties = d
        return connection_created

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
