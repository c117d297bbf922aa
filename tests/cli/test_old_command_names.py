"""Commands renamed to one spelling per concept still run under their old names: hidden from --help,
one deprecation line on stderr, then the same answer as the new name."""

from __future__ import annotations

import pytest

from newscorpus.cli.main import build_parser, main

RENAMED = [  # old words, new words
    (["dups"], ["near-duplicates"]),
    (["eval", "dedup"], ["eval", "near-duplicate"]),
    (["eval", "linenoise"], ["eval", "line-noise"]),
    (["eval", "siteaware"], ["eval", "site-aware"]),
]


def test_help_lists_the_new_names_only(capsys):
    for words in ([], ["eval"]):
        with pytest.raises(SystemExit):
            main([*words, "--help"])
        listed = capsys.readouterr().out
        for old, new in RENAMED:
            if old[:-1] == words:
                assert f"    {new[-1]} " in listed or f"    {new[-1]}\n" in listed
                assert f" {old[-1]} " not in listed and f"{{{old[-1]}" not in listed and f",{old[-1]}" not in listed


@pytest.mark.parametrize(("old", "new"), RENAMED)
def test_an_old_name_warns_once_then_answers_as_the_new_name(old, new, tmp_path, capsys):
    missing = ["--data-dir", str(tmp_path / "pg")] if new == ["near-duplicates"] else [str(tmp_path / "missing")]
    assert main([*new, *missing]) == 2
    new_err = capsys.readouterr().err
    assert main([*old, *missing]) == 2
    old_err = capsys.readouterr().err
    notice = f"newscorpus: `newscorpus {' '.join(old)}` is deprecated, use `newscorpus {' '.join(new)}`\n"
    assert old_err == notice + new_err
    assert new_err.count("\n") == 1


def test_a_mistyped_command_is_not_offered_an_old_name(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["eval", "linenoyse"])
    error = capsys.readouterr().err
    assert "'line-noise'" in error and "linenoise'" not in error.replace("'linenoyse'", "")
