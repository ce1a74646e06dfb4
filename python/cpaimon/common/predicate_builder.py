"""pypaimon's PredicateBuilder at its module path (pypaimon.common.predicate_builder)."""
from cpaimon.predicate import PredicateBuilder

__all__ = ["PredicateBuilder"]
