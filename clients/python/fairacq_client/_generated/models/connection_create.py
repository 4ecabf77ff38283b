from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.connection_create_session_type import ConnectionCreateSessionType
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.connection_options import ConnectionOptions
  from ..models.field_mapping import FieldMapping





T = TypeVar("T", bound="ConnectionCreate")



@_attrs_define
class ConnectionCreate:
    """ 
        Attributes:
            mapping (FieldMapping): Where the adapter finds a task's features, its group and an annotation's label.
            session_id (UUID): a managed group sampler, or a balanced filter
            session_type (ConnectionCreateSessionType):
            name (str | Unset):
            options (ConnectionOptions | Unset):
     """

    mapping: FieldMapping
    session_id: UUID
    session_type: ConnectionCreateSessionType
    name: str | Unset = UNSET
    options: ConnectionOptions | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.connection_options import ConnectionOptions # noqa: PLC0415
        from ..models.field_mapping import FieldMapping # noqa: PLC0415
        mapping = self.mapping.to_dict()

        session_id = str(self.session_id)

        session_type = self.session_type.value

        name = self.name

        options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "mapping": mapping,
            "session_id": session_id,
            "session_type": session_type,
        })
        if name is not UNSET:
            field_dict["name"] = name
        if options is not UNSET:
            field_dict["options"] = options

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.connection_options import ConnectionOptions # noqa: PLC0415
        from ..models.field_mapping import FieldMapping # noqa: PLC0415
        d = dict(src_dict)
        mapping = FieldMapping.from_dict(d.pop("mapping"))




        session_id = UUID(d.pop("session_id"))




        session_type = ConnectionCreateSessionType(d.pop("session_type"))




        name = d.pop("name", UNSET)

        _options = d.pop("options", UNSET)
        options: ConnectionOptions | Unset
        if isinstance(_options,  Unset):
            options = UNSET
        else:
            options = ConnectionOptions.from_dict(_options)




        connection_create = cls(
            mapping=mapping,
            session_id=session_id,
            session_type=session_type,
            name=name,
            options=options,
        )

        return connection_create

