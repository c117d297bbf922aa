"""Files a command writes (`export OUT`, `extract -o FILE`): the target checked before any work, and written beside
itself and renamed at the end, so that a failed run leaves neither a half file nor a lost old one."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from newscorpus.cli.main import CommandError


def output_target(out: str, force: bool) -> Path:
    """The path to write, checked before the work starts; a CommandError naming the fix otherwise."""
    path = Path(out)
    if path.is_dir():
        raise CommandError(f"{out} is a directory: give a file name, e.g. {path / 'corpus.jsonl'}")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise CommandError(f"folder {parent} does not exist: create it first (mkdir -p {parent})")
    if path.exists() and not force:
        raise CommandError(f"{out} exists: --force overwrites it, or give another file name")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise CommandError(f"cannot write {out}: permission denied; choose a folder you can write to")
    return path


@contextlib.contextmanager
def replacing(target: Path) -> Iterator[BinaryIO]:
    """A binary stream whose content becomes ``target`` when the block ends without an exception; an OSError
    (a full disk, a folder that refuses files such as /proc) is a CommandError naming the file."""
    partial = None
    try:
        handle, partial = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent)
        with os.fdopen(handle, "wb") as stream:
            yield stream
        os.replace(partial, target)
        partial = None
    except OSError as error:
        raise CommandError(f"cannot write {target}: {error.strerror or error}") from None
    finally:
        if partial is not None:
            with contextlib.suppress(OSError):
                os.unlink(partial)
