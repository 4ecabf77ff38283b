from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.decision_out_request import DecisionOutRequest
  from ..models.decision_out_response import DecisionOutResponse





T = TypeVar("T", bound="DecisionOut")



@_attrs_define
class DecisionOut:
    """ 
        Attributes:
            created_at (datetime.datetime):
            id (UUID):
            kind (str):
            request (DecisionOutRequest):
            response (DecisionOutResponse):
            sequence (int): position in the session's log, from 1
            state_version (int):
            client_ref (None | str | Unset):
            key_id (None | Unset | UUID): the API key that made it (none in open mode)
     """

    created_at: datetime.datetime
    id: UUID
    kind: str
    request: DecisionOutRequest
    response: DecisionOutResponse
    sequence: int
    state_version: int
    client_ref: None | str | Unset = UNSET
    key_id: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.decision_out_request import DecisionOutRequest # noqa: PLC0415
        from ..models.decision_out_response import DecisionOutResponse # noqa: PLC0415
        created_at = self.created_at.isoformat()

        id = str(self.id)

        kind = self.kind

        request = self.request.to_dict()

        response = self.response.to_dict()

        sequence = self.sequence

        state_version = self.state_version

        client_ref: None | str | Unset
        if isinstance(self.client_ref, Unset):
            client_ref = UNSET
        else:
            client_ref = self.client_ref

        key_id: None | str | Unset
        if isinstance(self.key_id, Unset):
            key_id = UNSET
        elif isinstance(self.key_id, UUID):
            key_id = str(self.key_id)
        else:
            key_id = self.key_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "id": id,
            "kind": kind,
            "request": request,
            "response": response,
            "sequence": sequence,
            "state_version": state_version,
        })
        if client_ref is not UNSET:
            field_dict["client_ref"] = client_ref
        if key_id is not UNSET:
            field_dict["key_id"] = key_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.decision_out_request import DecisionOutRequest # noqa: PLC0415
        from ..models.decision_out_response import DecisionOutResponse # noqa: PLC0415
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = UUID(d.pop("id"))




        kind = d.pop("kind")

        request = DecisionOutRequest.from_dict(d.pop("request"))




        response = DecisionOutResponse.from_dict(d.pop("response"))




        sequence = d.pop("sequence")

        state_version = d.pop("state_version")

        def _parse_client_ref(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        client_ref = _parse_client_ref(d.pop("client_ref", UNSET))


        def _parse_key_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                key_id_type_0 = UUID(data)



                return key_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        key_id = _parse_key_id(d.pop("key_id", UNSET))


        decision_out = cls(
            created_at=created_at,
            id=id,
            kind=kind,
            request=request,
            response=response,
            sequence=sequence,
            state_version=state_version,
            client_ref=client_ref,
            key_id=key_id,
        )


        decision_out.additional_properties = d
        return decision_out

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
