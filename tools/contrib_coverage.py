"""How much of TF 1.15's `tf.contrib` estimator_compat serves, module by module.

Counted against `tests/fixtures/tf115_api.json` (every public name TF 1.15.5 had, listed by
`tools/tf115_census.py` in the TF 1.15 side venv). A name is *served* when it resolves in the
TF 1.x view's `tf.contrib.<module>`, *declined* when it raises the error naming its TensorFlow 2
replacement (`legacy/contrib/missing.py`), *missing* otherwise. A module whose namespace says
`__served_whole__` must have nothing missing (tests/test_contrib_coverage.py).

    python tools/contrib_coverage.py          # the README's coverage table (Markdown)
"""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
API = os.path.join(ROOT, "tests", "fixtures", "tf115_api.json")


def tf115_api():
    with open(API) as f:
        return json.load(f)


def _classify(module, names):
    served, declined, missing = [], [], []
    for name in names:
        try:
            getattr(module, name)
        except AttributeError as error:
            (declined if "in TensorFlow 2 use" in str(error) else missing).append(name)
        else:
            served.append(name)
    return served, declined, missing


def census():
    """[(module, whole, served, declined, missing)] for every tf.contrib module of TF 1.15."""
    from estimator_compat.legacy import tf1_view
    contrib = tf1_view.build().contrib
    rows = []
    for module, names in sorted(tf115_api()["contrib"].items()):
        try:
            served_module = getattr(contrib, module)
        except AttributeError:
            rows.append((module, False, [], [], sorted(names)))
            continue
        whole = bool(getattr(served_module, "__served_whole__", False))
        rows.append((module, whole) + _classify(served_module, sorted(names)))
    return rows


def markdown(rows):
    lines = ["| `tf.contrib.` module | TF 1.15 names | served | declined (error names the "
             "replacement) | missing |", "|---|---|---|---|---|"]
    totals = [0, 0, 0, 0]
    for module, whole, served, declined, missing in rows:
        count = len(served) + len(declined) + len(missing)
        for i, n in enumerate((count, len(served), len(declined), len(missing))):
            totals[i] += n
        if not served and not whole:
            continue
        mark = " (whole)" if whole else ""
        lines.append(f"| `{module}`{mark} | {count} | {len(served)} | {len(declined)} | "
                     f"{len(missing)} |")
    lines.append("| every module | {} | {} | {} | {} |".format(*totals))
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown(census()))
