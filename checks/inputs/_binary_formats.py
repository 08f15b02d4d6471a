"""Binary formats a user may hand ``--log`` by mistake, known by their first bytes (magic numbers), and the command
that gives the text inside where there is one.  Standard library only.

The numbers are the formats' own: gzip (RFC 1952), xz (the .xz file format), bzip2, Zstandard (RFC 8878), LZ4
frames, zip (PKWARE's APPNOTE), 7z, RAR, POSIX tar (``ustar`` at offset 257), ELF, PNG, JPEG, GIF, PDF, SQLite.
"""

from __future__ import annotations

from typing import Optional

__all__ = ["binary_format"]

#: ``(offset, magic, format, the command that prints the text inside (FILE stands for the file) or None)``
_MAGIC: tuple[tuple[int, bytes, str, Optional[str]], ...] = (
    (0, b"\x1f\x8b", "gzip-compressed", "zcat FILE"),
    (0, b"\xfd7zXZ\x00", "xz-compressed", "xzcat FILE"),
    (0, b"\x28\xb5\x2f\xfd", "zstd-compressed", "zstdcat FILE"),
    (0, b"\x04\x22\x4d\x18", "lz4-compressed", "lz4cat FILE"),
    (0, b"PK\x03\x04", "a zip archive", "unzip -p FILE"),
    (0, b"PK\x05\x06", "an empty zip archive", None),
    (0, b"7z\xbc\xaf\x27\x1c", "a 7z archive", "7z x -so FILE"),
    (0, b"Rar!\x1a\x07", "a RAR archive", "unrar p -inul FILE"),
    (257, b"ustar", "a tar archive", "tar -xOf FILE"),
    (0, b"\x7fELF", "an ELF executable or library", None),
    (0, b"\x89PNG\r\n\x1a\n", "a PNG image", None),
    (0, b"\xff\xd8\xff", "a JPEG image", None),
    (0, b"GIF87a", "a GIF image", None),
    (0, b"GIF89a", "a GIF image", None),
    (0, b"%PDF-", "a PDF document", None),
    (0, b"SQLite format 3\x00", "an SQLite database", None),
)


def binary_format(first: bytes) -> Optional[tuple[str, Optional[str]]]:
    """``(format, command)`` for a file whose first bytes are ``first`` (at least its first 512 bytes where the
    file has them), or None when no format above starts so.

    ``format`` is a noun phrase ("gzip-compressed", "a zip archive"); ``command`` prints the text inside for
    ``lingjun-check --log -`` (``FILE`` stands for the file), None where there is no text to read (an image).
    bzip2 counts only with its block header after ``BZh1``..``BZh9`` (a log line may start with "BZh").
    """
    for offset, magic, name, reader in _MAGIC:
        if first[offset:offset + len(magic)] == magic:
            return name, reader and f"{reader} | lingjun-check --log -"
    if first[:3] == b"BZh" and first[3:4] in b"123456789" and first[4:10] == b"1AY&SY":
        return "bzip2-compressed", "bzcat FILE | lingjun-check --log -"
    return None
