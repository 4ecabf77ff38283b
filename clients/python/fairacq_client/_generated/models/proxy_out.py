from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.proxy_out_type import ProxyOutType
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.proxy_out_hyperparameters import ProxyOutHyperparameters
  from ..models.proxy_out_tree_type_0_item import ProxyOutTreeType0Item
  from ..models.proxy_out_versions_type_0 import ProxyOutVersionsType0





T = TypeVar("T", bound="ProxyOut")



@_attrs_define
class ProxyOut:
    """ 
        Attributes:
            hyperparameters (ProxyOutHyperparameters):
            type_ (ProxyOutType):
            n_leaves (int | None | Unset):
            tree (list[ProxyOutTreeType0Item] | None | Unset): node table of tree proxies (null for logistic proxies or with
                include_tree=false)
            versions (None | ProxyOutVersionsType0 | Unset): libraries that fitted the proxy
     """

    hyperparameters: ProxyOutHyperparameters
    type_: ProxyOutType
    n_leaves: int | None | Unset = UNSET
    tree: list[ProxyOutTreeType0Item] | None | Unset = UNSET
    versions: None | ProxyOutVersionsType0 | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.proxy_out_hyperparameters import ProxyOutHyperparameters # noqa: PLC0415
        from ..models.proxy_out_tree_type_0_item import ProxyOutTreeType0Item # noqa: PLC0415
        from ..models.proxy_out_versions_type_0 import ProxyOutVersionsType0 # noqa: PLC0415
        hyperparameters = self.hyperparameters.to_dict()

        type_ = self.type_.value

        n_leaves: int | None | Unset
        if isinstance(self.n_leaves, Unset):
            n_leaves = UNSET
        else:
            n_leaves = self.n_leaves

        tree: list[dict[str, Any]] | None | Unset
        if isinstance(self.tree, Unset):
            tree = UNSET
        elif isinstance(self.tree, list):
            tree = []
            for tree_type_0_item_data in self.tree:
                tree_type_0_item = tree_type_0_item_data.to_dict()
                tree.append(tree_type_0_item)


        else:
            tree = self.tree

        versions: dict[str, Any] | None | Unset
        if isinstance(self.versions, Unset):
            versions = UNSET
        elif isinstance(self.versions, ProxyOutVersionsType0):
            versions = self.versions.to_dict()
        else:
            versions = self.versions


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "hyperparameters": hyperparameters,
            "type": type_,
        })
        if n_leaves is not UNSET:
            field_dict["n_leaves"] = n_leaves
        if tree is not UNSET:
            field_dict["tree"] = tree
        if versions is not UNSET:
            field_dict["versions"] = versions

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.proxy_out_hyperparameters import ProxyOutHyperparameters # noqa: PLC0415
        from ..models.proxy_out_tree_type_0_item import ProxyOutTreeType0Item # noqa: PLC0415
        from ..models.proxy_out_versions_type_0 import ProxyOutVersionsType0 # noqa: PLC0415
        d = dict(src_dict)
        hyperparameters = ProxyOutHyperparameters.from_dict(d.pop("hyperparameters"))




        type_ = ProxyOutType(d.pop("type"))




        def _parse_n_leaves(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        n_leaves = _parse_n_leaves(d.pop("n_leaves", UNSET))


        def _parse_tree(data: object) -> list[ProxyOutTreeType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tree_type_0 = []
                _tree_type_0 = data
                for tree_type_0_item_data in (_tree_type_0):
                    tree_type_0_item = ProxyOutTreeType0Item.from_dict(tree_type_0_item_data)



                    tree_type_0.append(tree_type_0_item)

                return tree_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ProxyOutTreeType0Item] | None | Unset, data)

        tree = _parse_tree(d.pop("tree", UNSET))


        def _parse_versions(data: object) -> None | ProxyOutVersionsType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                versions_type_0 = ProxyOutVersionsType0.from_dict(data)



                return versions_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ProxyOutVersionsType0 | Unset, data)

        versions = _parse_versions(d.pop("versions", UNSET))


        proxy_out = cls(
            hyperparameters=hyperparameters,
            type_=type_,
            n_leaves=n_leaves,
            tree=tree,
            versions=versions,
        )


        proxy_out.additional_properties = d
        return proxy_out

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
