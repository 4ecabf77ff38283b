from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.session_status import SessionStatus
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.balanced_filter_out_target import BalancedFilterOutTarget
  from ..models.decision_counts import DecisionCounts
  from ..models.diagnostics import Diagnostics
  from ..models.proxy_out import ProxyOut
  from ..models.realized import Realized
  from ..models.sampling import Sampling
  from ..models.training_out import TrainingOut





T = TypeVar("T", bound="BalancedFilterOut")



@_attrs_define
class BalancedFilterOut:
    """ 
        Attributes:
            created_at (datetime.datetime):
            group_names (list[str]): column order of conditional_matrix and the shares
            groups (list[Any]): as given at creation
            id (UUID):
            job_id (None | UUID):
            name (None | str):
            proxy (ProxyOut):
            seed (int):
            status (SessionStatus):
            target (BalancedFilterOutTarget):
            training (TrainingOut):
            version (int):
            acceptance_probabilities (list[float] | None | Unset): ρ per leaf, max ρ = 1
            acceptance_rate (float | None | Unset): Σ_j r̂_j ρ_j
            accepted_distribution (list[float] | None | Unset): expected group shares of accepted points
            base_rates (list[float] | None | Unset): P(group) in the training data
            conditional_matrix (list[list[float]] | None | Unset): A (leaves × groups): P(group | leaf)
            decisions (DecisionCounts | None | Unset):
            diagnostics (Diagnostics | None | Unset):
            disclosivity (float | None | Unset): max_j,i |P(z=i | leaf j) − P(z=i)| (Definition 5)
            error (None | str | Unset): why the fit failed or was cancelled
            imbalance (float | None | Unset): ‖accepted distribution − U‖₂ (Definition 2)
            leaf_rates (list[float] | None | Unset): r̂: share of training points per leaf
            q (list[float] | None | Unset): Algorithm 1's QP solution
            realized (None | Realized | Unset): after the first outcome report
            sampling (None | Sampling | Unset):
     """

    created_at: datetime.datetime
    group_names: list[str]
    groups: list[Any]
    id: UUID
    job_id: None | UUID
    name: None | str
    proxy: ProxyOut
    seed: int
    status: SessionStatus
    target: BalancedFilterOutTarget
    training: TrainingOut
    version: int
    acceptance_probabilities: list[float] | None | Unset = UNSET
    acceptance_rate: float | None | Unset = UNSET
    accepted_distribution: list[float] | None | Unset = UNSET
    base_rates: list[float] | None | Unset = UNSET
    conditional_matrix: list[list[float]] | None | Unset = UNSET
    decisions: DecisionCounts | None | Unset = UNSET
    diagnostics: Diagnostics | None | Unset = UNSET
    disclosivity: float | None | Unset = UNSET
    error: None | str | Unset = UNSET
    imbalance: float | None | Unset = UNSET
    leaf_rates: list[float] | None | Unset = UNSET
    q: list[float] | None | Unset = UNSET
    realized: None | Realized | Unset = UNSET
    sampling: None | Sampling | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.balanced_filter_out_target import BalancedFilterOutTarget # noqa: PLC0415
        from ..models.decision_counts import DecisionCounts # noqa: PLC0415
        from ..models.diagnostics import Diagnostics # noqa: PLC0415
        from ..models.proxy_out import ProxyOut # noqa: PLC0415
        from ..models.realized import Realized # noqa: PLC0415
        from ..models.sampling import Sampling # noqa: PLC0415
        from ..models.training_out import TrainingOut # noqa: PLC0415
        created_at = self.created_at.isoformat()

        group_names = self.group_names



        groups = self.groups



        id = str(self.id)

        job_id: None | str
        if isinstance(self.job_id, UUID):
            job_id = str(self.job_id)
        else:
            job_id = self.job_id

        name: None | str
        name = self.name

        proxy = self.proxy.to_dict()

        seed = self.seed

        status = self.status.value

        target = self.target.to_dict()

        training = self.training.to_dict()

        version = self.version

        acceptance_probabilities: list[float] | None | Unset
        if isinstance(self.acceptance_probabilities, Unset):
            acceptance_probabilities = UNSET
        elif isinstance(self.acceptance_probabilities, list):
            acceptance_probabilities = self.acceptance_probabilities


        else:
            acceptance_probabilities = self.acceptance_probabilities

        acceptance_rate: float | None | Unset
        if isinstance(self.acceptance_rate, Unset):
            acceptance_rate = UNSET
        else:
            acceptance_rate = self.acceptance_rate

        accepted_distribution: list[float] | None | Unset
        if isinstance(self.accepted_distribution, Unset):
            accepted_distribution = UNSET
        elif isinstance(self.accepted_distribution, list):
            accepted_distribution = self.accepted_distribution


        else:
            accepted_distribution = self.accepted_distribution

        base_rates: list[float] | None | Unset
        if isinstance(self.base_rates, Unset):
            base_rates = UNSET
        elif isinstance(self.base_rates, list):
            base_rates = self.base_rates


        else:
            base_rates = self.base_rates

        conditional_matrix: list[list[float]] | None | Unset
        if isinstance(self.conditional_matrix, Unset):
            conditional_matrix = UNSET
        elif isinstance(self.conditional_matrix, list):
            conditional_matrix = []
            for conditional_matrix_type_0_item_data in self.conditional_matrix:
                conditional_matrix_type_0_item = conditional_matrix_type_0_item_data


                conditional_matrix.append(conditional_matrix_type_0_item)


        else:
            conditional_matrix = self.conditional_matrix

        decisions: dict[str, Any] | None | Unset
        if isinstance(self.decisions, Unset):
            decisions = UNSET
        elif isinstance(self.decisions, DecisionCounts):
            decisions = self.decisions.to_dict()
        else:
            decisions = self.decisions

        diagnostics: dict[str, Any] | None | Unset
        if isinstance(self.diagnostics, Unset):
            diagnostics = UNSET
        elif isinstance(self.diagnostics, Diagnostics):
            diagnostics = self.diagnostics.to_dict()
        else:
            diagnostics = self.diagnostics

        disclosivity: float | None | Unset
        if isinstance(self.disclosivity, Unset):
            disclosivity = UNSET
        else:
            disclosivity = self.disclosivity

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        imbalance: float | None | Unset
        if isinstance(self.imbalance, Unset):
            imbalance = UNSET
        else:
            imbalance = self.imbalance

        leaf_rates: list[float] | None | Unset
        if isinstance(self.leaf_rates, Unset):
            leaf_rates = UNSET
        elif isinstance(self.leaf_rates, list):
            leaf_rates = self.leaf_rates


        else:
            leaf_rates = self.leaf_rates

        q: list[float] | None | Unset
        if isinstance(self.q, Unset):
            q = UNSET
        elif isinstance(self.q, list):
            q = self.q


        else:
            q = self.q

        realized: dict[str, Any] | None | Unset
        if isinstance(self.realized, Unset):
            realized = UNSET
        elif isinstance(self.realized, Realized):
            realized = self.realized.to_dict()
        else:
            realized = self.realized

        sampling: dict[str, Any] | None | Unset
        if isinstance(self.sampling, Unset):
            sampling = UNSET
        elif isinstance(self.sampling, Sampling):
            sampling = self.sampling.to_dict()
        else:
            sampling = self.sampling


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "group_names": group_names,
            "groups": groups,
            "id": id,
            "job_id": job_id,
            "name": name,
            "proxy": proxy,
            "seed": seed,
            "status": status,
            "target": target,
            "training": training,
            "version": version,
        })
        if acceptance_probabilities is not UNSET:
            field_dict["acceptance_probabilities"] = acceptance_probabilities
        if acceptance_rate is not UNSET:
            field_dict["acceptance_rate"] = acceptance_rate
        if accepted_distribution is not UNSET:
            field_dict["accepted_distribution"] = accepted_distribution
        if base_rates is not UNSET:
            field_dict["base_rates"] = base_rates
        if conditional_matrix is not UNSET:
            field_dict["conditional_matrix"] = conditional_matrix
        if decisions is not UNSET:
            field_dict["decisions"] = decisions
        if diagnostics is not UNSET:
            field_dict["diagnostics"] = diagnostics
        if disclosivity is not UNSET:
            field_dict["disclosivity"] = disclosivity
        if error is not UNSET:
            field_dict["error"] = error
        if imbalance is not UNSET:
            field_dict["imbalance"] = imbalance
        if leaf_rates is not UNSET:
            field_dict["leaf_rates"] = leaf_rates
        if q is not UNSET:
            field_dict["q"] = q
        if realized is not UNSET:
            field_dict["realized"] = realized
        if sampling is not UNSET:
            field_dict["sampling"] = sampling

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.balanced_filter_out_target import BalancedFilterOutTarget # noqa: PLC0415
        from ..models.decision_counts import DecisionCounts # noqa: PLC0415
        from ..models.diagnostics import Diagnostics # noqa: PLC0415
        from ..models.proxy_out import ProxyOut # noqa: PLC0415
        from ..models.realized import Realized # noqa: PLC0415
        from ..models.sampling import Sampling # noqa: PLC0415
        from ..models.training_out import TrainingOut # noqa: PLC0415
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        group_names = cast(list[str], d.pop("group_names"))


        groups = cast(list[Any], d.pop("groups"))


        id = UUID(d.pop("id"))




        def _parse_job_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                job_id_type_0 = UUID(data)



                return job_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        job_id = _parse_job_id(d.pop("job_id"))


        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        proxy = ProxyOut.from_dict(d.pop("proxy"))




        seed = d.pop("seed")

        status = SessionStatus(d.pop("status"))




        target = BalancedFilterOutTarget.from_dict(d.pop("target"))




        training = TrainingOut.from_dict(d.pop("training"))




        version = d.pop("version")

        def _parse_acceptance_probabilities(data: object) -> list[float] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                acceptance_probabilities_type_0 = cast(list[float], data)

                return acceptance_probabilities_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[float] | None | Unset, data)

        acceptance_probabilities = _parse_acceptance_probabilities(d.pop("acceptance_probabilities", UNSET))


        def _parse_acceptance_rate(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        acceptance_rate = _parse_acceptance_rate(d.pop("acceptance_rate", UNSET))


        def _parse_accepted_distribution(data: object) -> list[float] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                accepted_distribution_type_0 = cast(list[float], data)

                return accepted_distribution_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[float] | None | Unset, data)

        accepted_distribution = _parse_accepted_distribution(d.pop("accepted_distribution", UNSET))


        def _parse_base_rates(data: object) -> list[float] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                base_rates_type_0 = cast(list[float], data)

                return base_rates_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[float] | None | Unset, data)

        base_rates = _parse_base_rates(d.pop("base_rates", UNSET))


        def _parse_conditional_matrix(data: object) -> list[list[float]] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                conditional_matrix_type_0 = []
                _conditional_matrix_type_0 = data
                for conditional_matrix_type_0_item_data in (_conditional_matrix_type_0):
                    conditional_matrix_type_0_item = cast(list[float], conditional_matrix_type_0_item_data)

                    conditional_matrix_type_0.append(conditional_matrix_type_0_item)

                return conditional_matrix_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[list[float]] | None | Unset, data)

        conditional_matrix = _parse_conditional_matrix(d.pop("conditional_matrix", UNSET))


        def _parse_decisions(data: object) -> DecisionCounts | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                decisions_type_0 = DecisionCounts.from_dict(data)



                return decisions_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DecisionCounts | None | Unset, data)

        decisions = _parse_decisions(d.pop("decisions", UNSET))


        def _parse_diagnostics(data: object) -> Diagnostics | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                diagnostics_type_0 = Diagnostics.from_dict(data)



                return diagnostics_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Diagnostics | None | Unset, data)

        diagnostics = _parse_diagnostics(d.pop("diagnostics", UNSET))


        def _parse_disclosivity(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        disclosivity = _parse_disclosivity(d.pop("disclosivity", UNSET))


        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))


        def _parse_imbalance(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        imbalance = _parse_imbalance(d.pop("imbalance", UNSET))


        def _parse_leaf_rates(data: object) -> list[float] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                leaf_rates_type_0 = cast(list[float], data)

                return leaf_rates_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[float] | None | Unset, data)

        leaf_rates = _parse_leaf_rates(d.pop("leaf_rates", UNSET))


        def _parse_q(data: object) -> list[float] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                q_type_0 = cast(list[float], data)

                return q_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[float] | None | Unset, data)

        q = _parse_q(d.pop("q", UNSET))


        def _parse_realized(data: object) -> None | Realized | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                realized_type_0 = Realized.from_dict(data)



                return realized_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Realized | Unset, data)

        realized = _parse_realized(d.pop("realized", UNSET))


        def _parse_sampling(data: object) -> None | Sampling | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                sampling_type_0 = Sampling.from_dict(data)



                return sampling_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Sampling | Unset, data)

        sampling = _parse_sampling(d.pop("sampling", UNSET))


        balanced_filter_out = cls(
            created_at=created_at,
            group_names=group_names,
            groups=groups,
            id=id,
            job_id=job_id,
            name=name,
            proxy=proxy,
            seed=seed,
            status=status,
            target=target,
            training=training,
            version=version,
            acceptance_probabilities=acceptance_probabilities,
            acceptance_rate=acceptance_rate,
            accepted_distribution=accepted_distribution,
            base_rates=base_rates,
            conditional_matrix=conditional_matrix,
            decisions=decisions,
            diagnostics=diagnostics,
            disclosivity=disclosivity,
            error=error,
            imbalance=imbalance,
            leaf_rates=leaf_rates,
            q=q,
            realized=realized,
            sampling=sampling,
        )


        balanced_filter_out.additional_properties = d
        return balanced_filter_out

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
