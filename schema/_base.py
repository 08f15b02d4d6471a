"""The two building blocks every document model shares: :class:`StrictModel` and :class:`LocalizedText`.

Kept apart from :mod:`lingjun.schema.models` so that the models of each record kind (the error catalogs in
:mod:`lingjun.schema.error_catalogs`) can import them without importing every other kind.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, model_validator

from lingjun.schema.fields import NonEmptyText

__all__ = ["StrictModel", "LocalizedText"]


class StrictModel(BaseModel):
    """Base of every model: unknown fields are errors, instances are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_enum_values=False)


class LocalizedText(StrictModel):
    """The same text in English and Simplified Chinese; both must be non-empty.

    Plain text: the site shows it as written, with balanced `code` spans and http(s) URLs as the only markup.
    """

    en: NonEmptyText
    zh: NonEmptyText

    @model_validator(mode="after")
    def _not_blank(self) -> "LocalizedText":
        for lang in ("en", "zh"):
            if not getattr(self, lang).strip():
                raise ValueError(f"{lang} text is blank")
        return self
