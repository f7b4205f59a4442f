"""Where a command's output goes, checked before the work (plies.inputs.check_output): files and
folders, missing parents, files in the way, places nothing can be created."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from plies.errors import OutputError
from plies.inputs import check_output


def test_writable_targets(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    assert check_output(tmp_path / "out.png") == tmp_path / "out.png"
    for target, problem in [
        (tmp_path, "it is a directory"),
        (tmp_path / "no" / "out.png", f"there is no directory {str(tmp_path / 'no')!r}"),
        (tmp_path / "file" / "out.png", f"{str(tmp_path / 'file')!r} is not a directory"),
    ]:
        with pytest.raises(OutputError) as error:
            check_output(target)
        assert str(error.value) == f"cannot write {str(target)!r}: {problem}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]  # nothing is left behind


def test_folders_and_files_whose_parents_the_writer_makes(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    assert check_output(tmp_path / "runs" / "ttt", folder=True) == tmp_path / "runs" / "ttt"
    assert check_output(tmp_path, folder=True) == tmp_path  # a folder to resume
    assert check_output(tmp_path / "a" / "m.pt", make_parents=True) == tmp_path / "a" / "m.pt"
    for target, folder, problem in [
        (tmp_path / "file", True, "it is a file, not a folder"),
        (tmp_path / "file" / "runs" / "a", True, f"{str(tmp_path / 'file')!r} is not a directory"),
        (tmp_path / "file" / "m.pt", False, f"{str(tmp_path / 'file')!r} is not a directory"),
    ]:
        with pytest.raises(OutputError) as error:
            check_output(target, folder=folder, make_parents=True)
        assert str(error.value) == f"cannot write {str(target)!r}: {problem}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc")
def test_a_place_where_nothing_can_be_made_is_refused_even_for_root() -> None:
    # root passes every permission check, yet /proc takes no new folder: plies tries one
    for target, folder in [("/proc/nonexistent/run", True), ("/proc/version", False)]:
        with pytest.raises(OutputError, match=r"cannot write '/proc/[a-z/]+': "):
            check_output(target, folder=folder)
