"""Train the learned block model (block_classifier.py) on labelled pages; training-time only (LightGBM, from the
`eval` extra).

Every text block the rules leave out of the body is a row: its FEATURES and whether it is body (at least half
of its tokens in gold lines, as training.py labels blocks; of blocks with the same text only one copy, the rules'
kept one or else the first, so a hidden copy of the article is not body). The model is the additions the rules
miss (letting it drop the rules' blocks too lost held-out F1).

Weights: a row weighs its tokens over its page's body tokens (every page counts alike, as in the mean page F1 we
are judged on: a 100-token teaser costs a short article far more than a long one), and each page over the number
of its site's pages (a site's template, repeated on 13 pages of one set, does not outweigh 13 sites: the model is
for sites it has never seen).
"""

from __future__ import annotations

import datetime
from collections import Counter
from dataclasses import dataclass

import numpy as np

from newscorpus.core.extraction import block_classifier, prepare_page, region
from newscorpus.core.extraction.block_features import FEATURES, block_features
from newscorpus.core.extraction.training import match_gold

# LightGBM settings and THRESHOLD (probability .38), chosen by the held-out F1 of the site-grouped cross-validation
# (`newscorpus train extraction --data <six dev sets> --no-fit --cross-validate --folds 5 --seed 20240601`, which
# trains a model inside each fold): leaves, depth and rounds within noise of each other; with the page weights
# below, the scores run lower than an unweighted model's, hence a threshold under 0.
PARAMS = {
    "objective": "binary",
    "num_leaves": 15,
    "max_depth": 5,
    "learning_rate": 0.075,
    "min_data_in_leaf": 50,
    "feature_fraction": 0.8,
    "bagging_fraction": 0.8,
    "bagging_freq": 1,
    "verbose": -1,
    "deterministic": True,
    "num_threads": 1,
}
ROUNDS = 80
THRESHOLD = -0.5
# A row's weight: its tokens x PAGE_TOKENS / (its page's body tokens, at least MIN_PAGE_TOKENS): pages count alike
# whatever their length (PAGE_TOKENS only scales the weights to the sizes min_data_in_leaf was set for; a page with
# under MIN_PAGE_TOKENS body tokens, often a near-empty or mislabelled one, counts as one of that size).
PAGE_TOKENS = 500
MIN_PAGE_TOKENS = 50


@dataclass
class PageRows:
    features: np.ndarray  # open blocks (not kept by the rules) x FEATURES
    labels: np.ndarray
    weights: np.ndarray


def page_rows(html: bytes, gold: str, url: str | None = None) -> PageRows | None:
    """The training rows of one page (`gold`: its body, without a headline line)."""
    page = prepare_page(html, url=url)
    if not hasattr(page, "blocks") or not page.blocks:
        return None
    blocks = page.blocks
    language = region.page_language(blocks)
    choice = region.choose_region(blocks, titles=page.head.titles, learned=False, site=page.site,
                                  hidden=region.hidden_blocks(blocks, page.hidden))
    indices = block_classifier.candidates(blocks)
    window = region.item_window(blocks, choice.headline) if choice.headline is not None else None
    comments = region.comment_sections(blocks)
    rows = block_features(blocks, choice.kept, choice.roots, choice.headline, language, indices, window, comments)
    tokens, matched, _ = match_gold(blocks, gold)
    labels = np.array([tokens[i] > 0 and matched[i] >= 0.5 * tokens[i] for i in indices], dtype=float)
    kept = set(choice.kept)
    texts: set[str] = set()
    for row in sorted(range(len(indices)), key=lambda r: (indices[r] not in kept, r)):
        if labels[row]:
            text = blocks[indices[row]].text
            labels[row] = text not in texts
            texts.add(text)
    positions = block_classifier.open_positions(blocks, indices, choice.kept, comments, choice.headline)
    gold_tokens = sum(tokens[index] for index, label in zip(indices, labels, strict=True) if label)
    scale = PAGE_TOKENS / max(gold_tokens, MIN_PAGE_TOKENS)
    return PageRows(rows[positions], labels[positions], np.array([tokens[indices[p]] * scale for p in positions]))


def row_weights(pages: list[PageRows], groups: list[str] | None = None) -> np.ndarray:
    """Every page's row weights, each page's divided by the number of pages of its site (`groups`; None: 1)."""
    sizes = Counter(groups or [])
    return np.concatenate([page.weights / (sizes[group] if groups is not None else 1)
                           for page, group in zip(pages, groups if groups is not None else pages, strict=True)])


def fit(pages: list[PageRows], seed: int, source: dict | None = None, groups: list[str] | None = None) -> dict:
    """A model (the dict block_classifier.TreeModel.from_dict reads) fitted on the pages' rows; `groups`: each
    page's site, whose page count divides the page's weight (None: every page alone)."""
    import lightgbm

    features = np.vstack([p.features for p in pages])
    labels = np.concatenate([p.labels for p in pages])
    dataset = lightgbm.Dataset(features, labels, weight=row_weights(pages, groups))
    booster = lightgbm.train({**PARAMS, "seed": seed}, dataset, ROUNDS)
    trees = [_flatten(tree["tree_structure"]) for tree in booster.dump_model()["tree_info"]]
    return {
        "features": list(FEATURES),
        "threshold": THRESHOLD,
        "base": 0.0,
        "depth": max(depth for _, depth in trees),
        "trees": [tree for tree, _ in trees],
        "source": {
            **(source or {}),
            "seed": seed,
            "rows": int(len(labels)),
            "pages": len(pages),
            "params": {**PARAMS, "rounds": ROUNDS, "page_tokens": PAGE_TOKENS, "min_page_tokens": MIN_PAGE_TOKENS,
                       "site_weights": groups is not None},
            "date": datetime.date.today().isoformat(),
        },
    }


def _flatten(root: dict) -> tuple[dict, int]:
    """A LightGBM tree dump as node arrays (feature -1 at leaves) and its depth."""
    tree: dict[str, list] = {"feature": [], "split": [], "left": [], "right": [], "value": []}
    depth = 0
    stack = [(root, -1, "", 0)]
    while stack:
        node, parent, side, level = stack.pop()
        index = len(tree["feature"])
        if parent >= 0:
            tree[side][parent] = index
        depth = max(depth, level)
        if "leaf_value" in node or "split_feature" not in node:
            tree["feature"].append(-1)
            tree["split"].append(0.0)
            tree["value"].append(round(float(node.get("leaf_value", 0.0)), 6))
            tree["left"].append(index)
            tree["right"].append(index)
            continue
        if node.get("decision_type", "<=") != "<=":
            raise ValueError(f"unsupported split {node.get('decision_type')}")
        tree["feature"].append(int(node["split_feature"]))
        tree["split"].append(float(node["threshold"]))
        tree["value"].append(0.0)
        tree["left"].append(-1)
        tree["right"].append(-1)
        stack.append((node["right_child"], index, "right", level + 1))
        stack.append((node["left_child"], index, "left", level + 1))
    return tree, depth
