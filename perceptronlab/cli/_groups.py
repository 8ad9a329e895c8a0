"""Option groups: flags that several commands share, declared once, shown under one heading.

An option group is a frozen dataclass made by :func:`option_group`: each field is one flag, with
its Typer annotation (``label: LabelOpt = None``) and its default, and the class names the heading
that ``--help`` shows its flags under. A command takes the whole group as one parameter::

    def evaluate(model: ModelArg, data: DataArg, table: TableOptions = TableOptions(), ...): ...

and :func:`expand_groups` (called for every command by
:func:`perceptronlab.cli.register_commands`) gives Typer the command with that parameter spread
into the group's flags, in the fields' order, each under the group's heading; when the command
runs, the flags' values are gathered into the dataclass again before the command's body sees them.
A flag keeps its name, aliases, default and help wherever its group is used.

>>> from perceptronlab.cli._common import OutputOptions
>>> def hello(name: str, output: OutputOptions = OutputOptions()) -> str:
...     return name if output.quiet else name.upper()
>>> command = expand_groups(hello)
>>> list(inspect.signature(command).parameters)
['name', 'json_output', 'quiet']
>>> command(name="ada", json_output=False, quiet=True)
'ada'
>>> [flag.rich_help_panel for flag in inspect.signature(command).parameters["quiet"].annotation.__metadata__]
['Output']
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import inspect
import typing
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

T = TypeVar("T")

#: the attribute that holds an option group's ``--help`` heading
_PANEL = "__option_panel__"
_KEYWORD = inspect.Parameter.KEYWORD_ONLY
#: ``Annotated`` subscripted at run time with a tuple built there
_ANNOTATED: Any = Annotated


def option_group(panel: str) -> Callable[[type[T]], type[T]]:
    """A class decorator: the class becomes a frozen dataclass whose flags ``--help`` shows under
    the heading ``panel``. A field's default is its flag's; a field without one is a required
    flag."""

    def make(cls: type[T]) -> type[T]:
        group = dataclasses.dataclass(frozen=True)(cls)
        setattr(group, _PANEL, panel)
        return group

    return make


def is_group(kind: Any) -> bool:
    """Whether ``kind`` (a parameter's annotation) is an option group."""
    return isinstance(kind, type) and dataclasses.is_dataclass(kind) and hasattr(kind, _PANEL)


def group_parameters(group: type) -> list[inspect.Parameter]:
    """The group's flags as keyword parameters: each field's Typer annotation, a copy of its
    option set under the group's heading, and its default."""
    hints = typing.get_type_hints(group, include_extras=True)
    panel = getattr(group, _PANEL)
    parameters = []
    for field in dataclasses.fields(group):
        base, *extras = typing.get_args(hints[field.name])
        metadata = (base, *(_under(panel, extra) for extra in extras))
        default = field.default
        parameters.append(
            inspect.Parameter(
                field.name,
                _KEYWORD,
                default=inspect.Parameter.empty if default is dataclasses.MISSING else default,
                annotation=_ANNOTATED[metadata],  # Annotated[base, *extras] (Python 3.10)
            )
        )
    return parameters


def _under(panel: str, extra: Any) -> Any:
    """A copy of a Typer option (or argument) shown under ``panel``; other metadata as it is."""
    if hasattr(extra, "rich_help_panel"):
        extra = copy.copy(extra)
        extra.rich_help_panel = panel
    return extra


def expand_groups(command: Callable[..., Any]) -> Callable[..., Any]:
    """``command`` as Typer should see it: each option-group parameter spread into its flags
    (:func:`group_parameters`), where the parameter stood; when called, the flags' values are
    gathered into the group again. A command without groups is returned as it is."""
    hints = typing.get_type_hints(command, include_extras=True)
    signature = inspect.signature(command)
    groups: dict[str, tuple[type, list[str]]] = {}
    parameters: list[inspect.Parameter] = []
    for parameter in signature.parameters.values():
        kind = hints.get(parameter.name, parameter.annotation)
        if not is_group(kind):
            parameters.append(parameter.replace(annotation=kind, kind=_KEYWORD))
            continue
        flags = group_parameters(kind)
        groups[parameter.name] = (kind, [flag.name for flag in flags])
        parameters += flags
    if not groups:
        return command
    names = [p.name for p in parameters]
    clash = {name for name in names if names.count(name) > 1}
    if clash:
        raise TypeError(f"{command.__name__}: a group's flag has another parameter's name: {clash}")

    @functools.wraps(command)
    def run(**values: Any) -> Any:
        for name, (group, fields) in groups.items():
            given = {field: values.pop(field) for field in fields if field in values}
            values[name] = group(**given)  # a flag not given (a call from Python): its default
        return command(**values)

    run.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in parameters}
    run.__annotations__["return"] = hints.get("return", signature.return_annotation)
    return run
