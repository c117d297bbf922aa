"""`newscorpus extract` and `newscorpus eval extraction` through the argument parser."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from newscorpus.cli import extraction_commands
from newscorpus.cli.groups import get_or_add_group
from newscorpus.cli.main import CommandError

PAGE = (
    "<html><head><title>大桥通车_新闻</title><meta name='author' content='李四'></head><body>"
    "<div><a href='/'>首页</a></div><div><h1>大桥通车</h1><p>记者今天获悉，跨江大桥于上午正式通车，全长三公里。</p>"
    "<p>大桥通车后，两岸通行时间由一小时缩短到十分钟。</p></div></body></html>"
)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="newscorpus")
    subparsers = parser.add_subparsers(dest="command")
    extraction_commands.register(subparsers)
    # another module adding a child to the same group must work
    get_or_add_group(subparsers, "eval").add_parser("near-duplicate").set_defaults(func=lambda args: 0)
    return parser


def _run(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    return args.func(args)


def test_extract_one_file_prints_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "page.html"
    page.write_bytes(PAGE.encode("gbk"))
    assert _run(["extract", str(page), "--url", "https://news.example.cn/1"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["url"] == "https://news.example.cn/1"
    assert record["title"] == "大桥通车"
    assert record["author"] == "李四"
    assert "跨江大桥于上午正式通车" in record["body"]
    assert record["reason"] is None


def test_extract_directory_with_manifest(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_text(PAGE, encoding="utf-8")
    (tmp_path / "b.html").write_bytes(b"")
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps({"items": [{"stem": "a", "url": "https://x.example/a"}]}), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert _run(["extract", str(tmp_path), "--manifest", str(manifest), "-o", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [Path(r["path"]).name for r in records] == ["a.html", "b.html"]
    assert records[0]["url"] == "https://x.example/a"
    assert records[1]["reason"] == "empty"


def test_extract_bad_path_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(CommandError):
        _run(["extract", str(tmp_path / "missing.html")])


def test_eval_extraction_with_floors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "set"
    data.mkdir()
    (data / "p.html").write_text(PAGE, encoding="utf-8")
    (data / "p.txt").write_text(
        "大桥通车\n记者今天获悉，跨江大桥于上午正式通车，全长三公里。\n大桥通车后，两岸通行时间由一小时缩短到十分钟。",
        encoding="utf-8",
    )
    (data / "manifest.json").write_text(json.dumps({"items": [{"stem": "p", "lang": "zh"}]}), encoding="utf-8")
    low, high = tmp_path / "low.json", tmp_path / "high.json"
    low.write_text(json.dumps({"f1": {"zh": 0.5}}), encoding="utf-8")
    high.write_text(json.dumps({"f1": {"zh": 1.01}}), encoding="utf-8")
    assert _run(["eval", "extraction", str(data), "--floors", str(low), "--jsonl", str(tmp_path / "r.jsonl")]) == 0
    assert "newscorpus" in capsys.readouterr().out
    assert _run(["eval", "extraction", str(data), "--floors", str(high)]) == 1
    with pytest.raises(CommandError):
        _run(["eval", "extraction", str(tmp_path / "nothing")])
    with pytest.raises(CommandError):
        _run(["eval", "extraction", str(data), "--compare", "no-such-tool"])


@pytest.mark.parametrize("flags", [["--no-fit", "--cross-validate"], ["--no-fit", "--block-model"]])
def test_train_without_lightgbm_is_one_line_before_any_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            flags: list[str]) -> None:
    import importlib.util

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *rest: None if name == "lightgbm"
                        else find_spec(name, *rest))
    with pytest.raises(CommandError, match=r"LightGBM, which is not installed \(pip install 'newscorpus\[eval\]'\)"):
        _run(["train", "extraction", "--data", str(tmp_path / "no such set"), *flags])
