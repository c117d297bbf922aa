"""`newscorpus eval near-duplicate` on a tiny data set written here: metrics, baselines, CLI, floors."""

from __future__ import annotations

import json
from pathlib import Path

from newscorpus.cli.main import main
from newscorpus.core.near_duplicate.config import NearDuplicateConfig
from newscorpus.evaluation.near_duplicate_eval import load_near_duplicate_data
from newscorpus.evaluation.near_duplicate_runner import check_floors, run_near_duplicate_eval
from newscorpus.evaluation.pair_metrics import PairCounts, adjusted_rand_index, all_pair_counts
from tests.core.near_duplicate.texts import (
    EN_FOLLOWUP_PARAGRAPHS,
    EN_FOLLOWUP_TITLE,
    EN_PARAGRAPHS,
    EN_TITLE,
    ZH_FOLLOWUP_PARAGRAPHS,
    ZH_FOLLOWUP_TITLE,
    ZH_PARAGRAPHS,
    ZH_TITLE,
    en_reprint,
    zh_reprint,
)


def write_data_set(folder: Path) -> Path:
    docs = [  # insertion order: a reprint before its original, as in a crawl
        ("d1", "zh", *zh_reprint(), "c1", "reprint"),
        ("d2", "zh", ZH_TITLE, "\n".join(ZH_PARAGRAPHS), "c1", "original"),
        ("d3", "zh", ZH_FOLLOWUP_TITLE, "\n".join(ZH_FOLLOWUP_PARAGRAPHS), "c2", "related"),
        ("d4", "en", EN_TITLE, "\n\n".join(EN_PARAGRAPHS), "c3", "original"),
        ("d5", "en", EN_FOLLOWUP_TITLE, "\n\n".join(EN_FOLLOWUP_PARAGRAPHS), "c4", "related"),
        ("d6", "en", *en_reprint(), "c3", "reprint"),
    ]
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "docs.jsonl").open("w", encoding="utf-8") as out:
        for doc_id, lang, title, body, _, kind in docs:
            out.write(json.dumps({"id": doc_id, "lang": lang, "title": title, "body": body, "kind": kind}) + "\n")
    with (folder / "clusters.jsonl").open("w", encoding="utf-8") as out:
        for doc_id, *_, cluster, _ in docs:
            out.write(json.dumps({"id": doc_id, "cluster": cluster}) + "\n")
    pairs = [
        ("d1", "d2", 1, "original-reprint", "zh", "medium"),
        ("d2", "d3", 0, "followup-vs-original", "zh", None),
        ("d4", "d6", 1, "original-reprint", "en", "medium"),
        ("d4", "d5", 0, "followup-vs-original", "en", None),
    ]
    with (folder / "pairs.jsonl").open("w", encoding="utf-8") as out:
        for a, b, label, kind, lang, strength in pairs:
            row = {"a": a, "b": b, "label": label, "type": kind, "lang": lang}
            out.write(json.dumps(row | ({"strength": strength} if strength else {})) + "\n")
    return folder


def test_only_system_fields_reach_the_method(tmp_path):
    data = load_near_duplicate_data(write_data_set(tmp_path / "data"))
    assert all(set(doc) == {"id", "lang", "title", "body"} for doc in data.docs)
    assert data.kind_of["d2"] == "original"


def test_ours_separates_reprints_from_follow_ups_and_baselines_run(tmp_path):
    data = load_near_duplicate_data(write_data_set(tmp_path / "data"))
    run = run_near_duplicate_eval(data, NearDuplicateConfig(), ["chunk-md5", "simhash-k3", "minhash-lsh"], tune=False)
    ours = run.ours()
    for lang in ("zh", "en"):
        counts = ours.langs[lang].labelled
        assert (counts.tp, counts.fp, counts.fn, counts.tn) == (1, 0, 0, 1)
        assert ours.langs[lang].ari == 1.0 and ours.langs[lang].link_ari == 1.0
        assert ours.langs[lang].all_pairs.ce == 0.0
    assert {r.name for r in run.results} == {"ours", "chunk-md5", "simhash-k3", "minhash-lsh"}
    assert "| ours | zh | 1 | 0 | 0 | 1 |" in run.report()
    assert check_floors(ours, {"zh": {"f1_min": 0.9, "ce_max": 0.01}}) == []
    assert check_floors(ours, {"en": {"f1_min": 1.01, "ce_max": 0.01}}) == ["en: F1 1.0000 below floor 1.01"]


def test_pair_metrics_and_ari():
    counts = PairCounts()
    for label, judged in ((1, True), (1, False), (0, True), (0, False), (0, False)):
        counts.add(label, judged)
    assert (counts.precision, counts.recall, round(counts.ce, 3), counts.ee) == (0.5, 0.5, 0.333, 0.5)
    truth = {"a": "x", "b": "x", "c": "y"}
    assert adjusted_rand_index(truth, {"a": "1", "b": "1", "c": "2"}) == 1.0
    assert adjusted_rand_index(truth, {"a": "1", "b": "2", "c": "3"}) == 0.0
    every = all_pair_counts({("a", "c")}, truth, ["a", "b", "c"])
    assert (every.tp, every.fp, every.fn, every.tn) == (0, 1, 1, 1)


def test_cli_eval_near_duplicate_with_floors_and_jsonl(tmp_path, capsys):
    data_dir = write_data_set(tmp_path / "data")
    floors = tmp_path / "floors.json"
    floors.write_text(json.dumps({"zh": {"f1_min": 0.9, "ce_max": 0.01}, "en": {"f1_min": 0.9, "ce_max": 0.01}}))
    decisions = tmp_path / "pairs.jsonl"
    argv = ["eval", "near-duplicate", str(data_dir), "--compare", "none", "--floors", str(floors),
            "--jsonl", str(decisions)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "**Labelled pairs**" in out and out.rstrip().endswith("floors: all met")
    rows = [json.loads(line) for line in decisions.read_text().splitlines()]
    assert {(r["a"], r["b"], r["judged_same"]) for r in rows} >= {("d1", "d2", True), ("d2", "d3", False)}
    floors.write_text(json.dumps({"zh": {"f1_min": 1.5, "ce_max": 0.0}}))
    assert main(["eval", "near-duplicate", str(data_dir), "--compare", "none", "--floors", str(floors)]) == 1
    captured = capsys.readouterr()
    assert "FLOOR MISSED" in captured.err and "floors: all met" not in captured.out


def test_cli_user_errors_exit_2(tmp_path):
    assert main(["eval", "near-duplicate", str(tmp_path / "missing")]) == 2
    (tmp_path / "empty").mkdir()
    assert main(["eval", "near-duplicate", str(tmp_path / "empty")]) == 2
    data_dir = write_data_set(tmp_path / "data")
    assert main(["eval", "near-duplicate", str(data_dir), "--compare", "bogus"]) == 2
