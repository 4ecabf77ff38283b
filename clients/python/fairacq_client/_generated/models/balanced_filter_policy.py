from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.proxy_spec import ProxySpec





T = TypeVar("T", bound="BalancedFilterPolicy")



@_attrs_define
class BalancedFilterPolicy:
    """ A proxy (and its α) fitted on each repetition's training rows, then filtering the candidates.

        Attributes:
            proxy (ProxySpec): The proxy to learn (SPEC §5.3); fields a type does not use are ignored.
            name (str | Unset): how results name it (default: the type and α)
     """

    proxy: ProxySpec
    name: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.proxy_spec import ProxySpec # noqa: PLC0415
        proxy = self.proxy.to_dict()

        name = self.name


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "proxy": proxy,
        })
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.proxy_spec import ProxySpec # noqa: PLC0415
        d = dict(src_dict)
        proxy = ProxySpec.from_dict(d.pop("proxy"))




        name = d.pop("name", UNSET)

        balanced_filter_policy = cls(
            proxy=proxy,
            name=name,
        )

        return balanced_filter_policy

