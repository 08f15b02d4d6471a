"""The images of a release, as every consumer compares them.

A release publishes one image (most records) or several variants (``inference-nv-pytorch`` 25.04:
a vLLM image and an SGLang image, each with its own tags and component list).  Consumers (the site,
the diffs, the finder, the bundle the checker reads) iterate :func:`release_images` instead of
reading ``image_tags`` and ``components`` directly, so a release with variants and one without are
handled by the same code, and a diff compares a variant with the same variant of another release.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from lingjun.schema.models import (
    ComponentEntry,
    CpuArch,
    ImageTag,
    ImageVariant,
    ListState,
    LocalizedText,
    ReleaseRecord,
    Runtime,
    Scenario,
)

__all__ = ["ReleaseImage", "release_images", "image_for_tag"]


@dataclass(frozen=True)
class ReleaseImage:
    """One image of a release: a variant, or the release itself when it has none.

    Attributes:
        record: the release.
        variant: the variant, or None for a release without variants.
    """

    record: ReleaseRecord
    variant: Optional[ImageVariant] = None

    @property
    def variant_id(self) -> Optional[str]:
        """The variant's id (``vllm``), or None for the release's only image."""
        return self.variant.id if self.variant else None

    @property
    def ref(self) -> str:
        """``family:release`` or ``family:release#variant`` (``inference-nv-pytorch:25.04#vllm``)."""
        return self.record.ref + (f"#{self.variant.id}" if self.variant else "")

    @property
    def title(self) -> Optional[LocalizedText]:
        """The variant's title, or None for the release's only image."""
        return self.variant.title if self.variant else None

    @property
    def image_tags(self) -> list[ImageTag]:
        """Tags of this image."""
        return list(self.variant.image_tags if self.variant else self.record.image_tags)

    @property
    def scenarios(self) -> list[Scenario]:
        """What this image is for, where the variant states it (else empty: see the family's scenarios)."""
        return list(self.variant.scenarios) if self.variant else []

    @property
    def architectures(self) -> list[CpuArch]:
        """CPU architectures of this image: the variant's, else the release's (empty: not stated)."""
        if self.variant and self.variant.architectures:
            return list(self.variant.architectures)
        return list(self.record.architectures)

    @property
    def components(self) -> list[ComponentEntry]:
        """The component list of this image (entries may be limited to one architecture)."""
        return list(self.variant.components if self.variant else self.record.components)

    @property
    def component_list(self) -> ListState:
        """How complete :attr:`components` is (see :class:`~lingjun.schema.models.ListState`)."""
        state = self.variant.component_list if self.variant else self.record.component_list
        return state if state is not None else ListState.not_published

    @property
    def presence_unknown(self) -> list[str]:
        """Components the list leaves out while the sources leave open whether the image ships them."""
        return list(self.variant.presence_unknown if self.variant else self.record.presence_unknown)

    @property
    def runtimes(self) -> list[Runtime]:
        """Framework runtimes (separate Python environments) of this image."""
        return list(self.variant.runtimes if self.variant else self.record.runtimes)

    @property
    def python(self) -> Optional[str]:
        """Python of this image: the variant's, else the release's."""
        return (self.variant.python if self.variant else None) or self.record.python

    @property
    def cuda(self) -> Optional[str]:
        """CUDA toolkit of this image: the variant's, else the release's."""
        return (self.variant.cuda if self.variant else None) or self.record.cuda

    @property
    def ppu_sdk(self) -> Optional[str]:
        """PPU SDK of this image: the variant's, else the release's."""
        return (self.variant.ppu_sdk if self.variant else None) or self.record.ppu_sdk

    def components_for(self, architecture: Optional[CpuArch]) -> list[ComponentEntry]:
        """Entries that apply on ``architecture`` (entries without architectures apply on every one).

        ``None`` returns every entry.
        """
        if architecture is None:
            return self.components
        return [e for e in self.components if not e.architectures or architecture in e.architectures]


def release_images(record: ReleaseRecord) -> list[ReleaseImage]:
    """The images of ``record``: one per variant, or the release itself when it has no variants."""
    if record.variants:
        return [ReleaseImage(record, v) for v in record.variants]
    return [ReleaseImage(record)]


def image_for_tag(record: ReleaseRecord, tag: str) -> Optional[ReleaseImage]:
    """The image of ``record`` published under ``tag`` (the tag or the full reference), or None."""
    for image in release_images(record):
        if any(tag in (t.tag, t.reference) for t in image.image_tags):
            return image
    return None
