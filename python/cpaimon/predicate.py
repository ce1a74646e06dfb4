"""Predicates, as pypaimon's ``PredicateBuilder`` (``read_builder.new_predicate_builder()``).

A predicate is a C object (include/cpaimon/predicate.h); literals are passed as Arrow arrays and
coerced to the column type when the read builder binds the predicate to the table schema.
"""
from typing import Any, List, Optional

import pyarrow as pa

from cpaimon import _cpaimon


class Predicate:
    """A C predicate, or an AND / OR of predicates that is built in C when first needed.

    Combining is lazy so that a chain joined two at a time (``p = or_predicates([p, q])``, n
    times) is built once, in O(n), instead of copying the tree at every join; the tree is walked
    with a loop, never by recursion, however deep it is.
    """

    def __init__(self, handle=None, how=None, children=None, leaf=None):
        self._built = handle
        self._how = how
        self._children = children
        self._leaf = leaf  # (method, field, values) of a PredicateBuilder leaf, for pickling

    @property
    def _handle(self):
        if self._built is None:
            self._built = _cpaimon.predicate_build(self._program())
        return self._built

    def _recipe(self):
        """The tree in postfix order as PredicateBuilder calls: ("leaf", method, field, values)
        and (how, n) entries. Walked with a loop, as _program."""
        recipe, todo = [], [(self, False)]
        while todo:
            node, combined = todo.pop()
            if node._leaf is not None:
                recipe.append(("leaf",) + node._leaf)
            elif node._children is None:
                raise TypeError("this predicate was not made by a PredicateBuilder and cannot "
                                "be pickled")
            elif combined:
                recipe.append((node._how, len(node._children)))
            else:
                todo.append((node, True))
                todo.extend((child, False) for child in reversed(node._children))
        return recipe

    def __reduce__(self):
        # Picklable (a Ray or process-pool worker rebuilds it), as pypaimon's predicates are.
        return _from_recipe, (self._recipe(),)

    def _program(self):
        """The tree in postfix order for ``_cpaimon.predicate_build``."""
        program, todo = [], [(self, False)]
        while todo:
            node, combined = todo.pop()
            if node._built is not None:
                program.append(node._built)
            elif combined:
                program.append((node._how, len(node._children)))
            else:
                todo.append((node, True))
                todo.extend((child, False) for child in reversed(node._children))
        return program

    def __repr__(self):
        return f"Predicate({_cpaimon.predicate_text(self._handle)})"


def _from_recipe(recipe) -> "Predicate":
    builder, stack = PredicateBuilder(), []
    for step in recipe:
        if step[0] == "leaf":
            stack.append(builder._leaf(*step[1:]))
        else:
            how, n = step
            children = stack[len(stack) - n:]
            del stack[len(stack) - n:]
            stack.append(Predicate(how=how, children=children))
    return stack[0]


def _values(values: List[Any]) -> pa.Array:
    return pa.array(values)


class PredicateBuilder:
    """pypaimon's PredicateBuilder. Built with the table's fields (``PredicateBuilder(
    table.fields)``), it refuses a column that is not among them, as pypaimon does; from a read
    builder it checks columns when the read binds the predicate."""

    def __init__(self, row_field: Optional[List[Any]] = None):
        self.field_names = None if row_field is None else [
            f if isinstance(f, str) else f.name for f in row_field]

    def _leaf(self, method: str, field: str, values: Optional[List[Any]]) -> Predicate:
        if self.field_names is not None and field not in self.field_names:
            raise ValueError(f"The field {field} is not in field list {self.field_names}.")
        arr = None if values is None else _values(values)
        return Predicate(_cpaimon.predicate_leaf(method, field, arr), leaf=(method, field, values))

    def equal(self, field: str, literal: Any) -> Predicate:
        return self._leaf("equal", field, [literal])

    def not_equal(self, field: str, literal: Any) -> Predicate:
        return self._leaf("not_equal", field, [literal])

    def less_than(self, field: str, literal: Any) -> Predicate:
        return self._leaf("less_than", field, [literal])

    def less_or_equal(self, field: str, literal: Any) -> Predicate:
        return self._leaf("less_or_equal", field, [literal])

    def greater_than(self, field: str, literal: Any) -> Predicate:
        return self._leaf("greater_than", field, [literal])

    def greater_or_equal(self, field: str, literal: Any) -> Predicate:
        return self._leaf("greater_or_equal", field, [literal])

    def is_null(self, field: str) -> Predicate:
        return self._leaf("is_null", field, None)

    def is_not_null(self, field: str) -> Predicate:
        return self._leaf("is_not_null", field, None)

    def startswith(self, field: str, pattern_literal: Any) -> Predicate:
        return self._leaf("startswith", field, [pattern_literal])

    def endswith(self, field: str, pattern_literal: Any) -> Predicate:
        return self._leaf("endswith", field, [pattern_literal])

    def contains(self, field: str, pattern_literal: Any) -> Predicate:
        return self._leaf("contains", field, [pattern_literal])

    def is_in(self, field: str, literals: List[Any]) -> Predicate:
        return self._leaf("is_in", field, list(literals))

    def is_not_in(self, field: str, literals: List[Any]) -> Predicate:
        return self._leaf("is_not_in", field, list(literals))

    def between(self, field: str, included_lower_bound: Any, included_upper_bound: Any) -> Predicate:
        return self._leaf("between", field, [included_lower_bound, included_upper_bound])

    def not_between(self, field: str, included_lower_bound: Any,
                    included_upper_bound: Any) -> Predicate:
        return self.or_predicates([self.less_than(field, included_lower_bound),
                                   self.greater_than(field, included_upper_bound)])

    def like(self, field: str, pattern_literal: Any) -> Predicate:
        """SQL LIKE: '%' any run, '_' one character, '\\' escapes them."""
        return self._leaf("like", field, [pattern_literal])

    @staticmethod
    def and_predicates(predicates: List[Predicate]) -> Optional[Predicate]:
        predicates = [p for p in predicates if p is not None]
        if not predicates:
            return None
        if len(predicates) == 1:
            return predicates[0]
        return Predicate(how="and", children=predicates)

    @staticmethod
    def or_predicates(predicates: List[Predicate]) -> Optional[Predicate]:
        predicates = [p for p in predicates if p is not None]
        if not predicates:
            return None
        if len(predicates) == 1:
            return predicates[0]
        return Predicate(how="or", children=predicates)
