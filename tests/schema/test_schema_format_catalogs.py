"""The format catalogs' models (NCCL's warnings, libnvidia-container's errors) refuse what would break a reader later:
a subsystem glob with a bracket class (Python and the site's JavaScript read it differently), a subsystem id shaped
like a message's anchor, and a release version too long to compare."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from lingjun.schema.error_catalogs import FormatSubsystem, ReleaseVersion

TEXT = {"en": "x", "zh": "某"}


def _subsystem(**changes):
    return FormatSubsystem.model_validate({"id": "sockets", "files": ["misc/socket.cc"], "title": TEXT,
                                           "points_to": TEXT, "remedy": TEXT, **changes})


def test_a_plain_glob_of_path_characters_is_accepted():
    assert _subsystem(files=["transport/net_ib/**", "misc/mlx5dv*.cc", "include/ibv?.h"]).files[0] == "transport/net_ib/**"


@pytest.mark.parametrize("glob", ["[z-a]", "misc/[ab].cc", "misc/socket.cc\n", "a" * 121])
def test_a_glob_outside_path_characters_is_refused(glob):
    with pytest.raises(ValidationError):
        _subsystem(files=[glob])


def test_a_subsystem_id_shaped_like_a_message_anchor_is_refused():
    with pytest.raises(ValidationError, match="shape of a message's anchor"):
        _subsystem(id="6d278a7d")


def test_a_release_version_is_bounded():
    versions = TypeAdapter(ReleaseVersion)
    assert versions.validate_python("2.27.7") == "2.27.7"
    with pytest.raises(ValidationError):
        versions.validate_python("2.27." + "9" * 5000)


def _message(**changes):
    from lingjun.schema.error_catalogs import FormatMessage

    return FormatMessage.model_validate({"file": "misc/socket.cc", "lines": [10, 20], "versions": ["2.21.5", "2.28.9"],
                                         "format": "socketStartConnect: Connect to %s failed : %s", **changes})


def test_a_message_s_line_and_version_ranges_run_forwards():
    assert _message().lines == [10, 20]
    with pytest.raises(ValidationError, match="first line seen comes after the last"):
        _message(lines=[999, 1])
    with pytest.raises(ValidationError, match="first version comes after the last"):
        _message(versions=["2.30.7", "2.21.5"])
    with pytest.raises(ValidationError):
        _message(lines=[10.0, 20])


def test_an_xid_number_is_an_integer_not_a_float():
    from lingjun.schema.error_catalogs import XidEntry

    with pytest.raises(ValidationError):
        XidEntry.model_validate({"xid": 45.0, "name": "x", "kind": "other", "meaning": TEXT})
