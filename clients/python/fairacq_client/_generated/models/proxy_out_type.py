from enum import StrEnum

class ProxyOutType(StrEnum):
    AB_TREE = "ab_tree"
    AB_TREE_RELAXED = "ab_tree_relaxed"
    NAIVE_LOGISTIC = "naive_logistic"
    NAIVE_TREE = "naive_tree"
    QP_LOGISTIC = "qp_logistic"
    QP_TREE = "qp_tree"

    def __str__(self) -> str:
        return str(self.value)
