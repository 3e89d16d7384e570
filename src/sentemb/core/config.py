"""Configuration schemas: the base every params section's schema derives from, and their validation.

**One place for every value.** ``params.yaml`` holds every setting of the pipeline; a schema (one per params section,
in the package that uses the section: :class:`sentemb.siamese_cbow.config.SiameseCBOWConfig` for ``model`` …) gives
each setting's type, bounds, unit and source in its ``Field`` description, and no value. A missing key is an error,
never a silent default, so what is in force is what ``params.yaml`` says (``tests/test_config.py`` checks both: no
schema field has a default, and ``params.yaml`` validates against every schema). The only fields that may be left
out are those a schema names as not applicable to a choice made in the same section (the paraphrastic encoders'
arguments: :data:`sentemb.paraphrastic.config.ENCODER_ARGUMENTS`); they are ``None`` when absent, and required when
the choice reads them.

Library callers build a schema from a mapping (``SiameseCBOWConfig.model_validate(params["model"])``) or with
keywords; :func:`validate` does the same with an error that names the file and the dotted key.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sentemb.core.errors import SentembError


class Schema(BaseModel):
    """A params section (or a saved model's ``config.json``): unknown keys are refused, so a typo never passes
    silently; instances are immutable (``model_copy(update=…)`` makes a variant)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


S = TypeVar("S", bound=Schema)

Seed = Annotated[int, Field(ge=0, le=2**32 - 1, description="seeds numpy's and torch's generators (0 … 2³² − 1)")]
Device = Annotated[str, Field(pattern=r"^(auto|cpu|cuda(:\d+)?)$",
                              description="auto: CUDA when present, else the CPU; cpu; cuda or cuda:N")]
Probability = Annotated[float, Field(ge=0, le=1)]


def problems(error: ValidationError, key: str) -> str:
    """A pydantic error as ``key.sub: message (got value)`` clauses joined by ``; ``."""
    out = []
    for err in error.errors():
        loc = ".".join(p for p in [key, *map(str, err["loc"])] if p)
        got = "" if err["type"] == "missing" else f" (got {err.get('input')!r})"
        out.append(f"{loc}: {err['msg']}{got}")
    return "; ".join(out)


def validate(schema: type[S], value: Any, source: str, key: str = "") -> S:
    """``value`` (a mapping read from ``source``) as ``schema``.

    Args:
        source: the file the value was read from, for the message (``params.yaml``, ``models/glove/config.json``).
        key: the dotted key of the value in that file (``model``, ``pretrain.glove``; ``""`` for the whole file).

    Raises:
        SentembError: ``source: key.field: what is wrong (got value)``, every problem in one line.
    """
    try:
        return schema.model_validate(value if value is not None else {})
    except ValidationError as e:
        raise SentembError(f"{source}: {problems(e, key)}") from None


def defaulted_fields(schema: type[Schema]) -> list[str]:
    """The fields of ``schema`` (and of the schemas nested in it) that have a default value: for the test of the rule
    above."""
    out = []
    for name, field in schema.model_fields.items():
        if not field.is_required():
            out.append(name)
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, Schema):
            out += [f"{name}.{n}" for n in defaulted_fields(annotation)]
    return out
