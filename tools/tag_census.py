"""The TensorBoard tag census: what a model_dir's event files hold, per directory and tag.

    python tools/tag_census.py record tf1 > tests/fixtures/tag_census/tf115.json
    python tools/tag_census.py record tf2 > tests/fixtures/tag_census/tf215.json
    python tools/tag_census.py record tf28 > tests/fixtures/tag_census/tf28.json
    python tools/tag_census.py read ROOT          # the census of model_dirs already written
    python tools/tag_census.py compare OURS.json ORIGINAL.json

`record` runs `tests/programs/tag_census/tf1_canned.py` in the TF 1.15 side venv (tf1; its
python from $TF115_PYTHON, default /work/side/tf115/bin/python) or `tf2_canned.py` in the
TF 2.15 one (tf2, $TF215_PYTHON), or `tf2_boosted_trees.py` in a TensorFlow 2.8 +
tensorflow-estimator 2.8 venv (tf28, $TF28_PYTHON: tf.estimator 2.15 had no BoostedTrees),
each training every canned class a few steps into a model_dir of its own under a temporary root, then prints the census of that root as JSON:
`{case: {directory: {tag: {"kind", "steps", "values"}}}}`, the directory relative to the
case's model_dir ("." for the training events, "eval", "hooks"...). A kind is what TensorBoard
shows the value as: scalar, histogram, image, audio, text, tensor, graph, meta_graph,
run_metadata, session_log; the graph events are listed under the tags `__graph__` /
`__meta_graph__`, the session logs (START, CHECKPOINT) under `__session_log__`.
Values are summarised to compare across versions: a scalar's number, a histogram's
[min, max, count, sum], an image's [width, height], a text's string.

tests/test_tag_census.py runs the same programs here (`estimator-compat run`) and compares the
census with these recordings. Reading uses TensorBoard's own event loader, so the census is
what TensorBoard reads.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAMS = os.path.join(ROOT, "tests", "programs", "tag_census")
SIDE = {"tf1": (os.environ.get("TF115_PYTHON", "/work/side/tf115/bin/python"), "tf1_canned.py"),
        "tf2": (os.environ.get("TF215_PYTHON", "/work/side/tf215/bin/python"), "tf2_canned.py"),
        "tf28": (os.environ.get("TF28_PYTHON", "/work/side/tf28/bin/python"),
                 "tf2_boosted_trees.py")}
_PLUGIN_KINDS = {"scalars": "scalar", "histograms": "histogram", "images": "image",
                 "audio": "audio", "text": "text"}


def _kind_and_value(value, plugins):
    """(kind, summarised value) of one Summary.Value; `plugins` {tag: plugin name} carries
    the metadata a TF2 writer gives only with a tag's first value."""
    if value.metadata.plugin_data.plugin_name:
        plugins[value.tag] = value.metadata.plugin_data.plugin_name
    field = value.WhichOneof("value")
    if field == "simple_value":
        return "scalar", round(float(value.simple_value), 6)
    if field == "histo":
        h = value.histo
        return "histogram", [round(float(x), 5) for x in (h.min, h.max, h.num, h.sum)]
    if field == "image":
        return "image", [value.image.width, value.image.height]
    if field == "audio":
        return "audio", [value.audio.length_frames]
    if field == "tensor":
        import numpy as np
        from tensorboard.util import tensor_util
        kind = _PLUGIN_KINDS.get(plugins.get(value.tag), "tensor")
        array = tensor_util.make_ndarray(value.tensor)
        if kind == "text":
            return kind, [x.decode("utf-8", "replace") for x in np.ravel(array)]
        if kind == "scalar":
            return kind, round(float(array), 6)
        if kind == "histogram" and array.size:  # [[left, right, count], ...]
            return kind, [round(float(x), 5) for x in (
                array[:, 0].min(), array[:, 1].max(), array[:, 2].sum(),
                (array[:, 2] * (array[:, 0] + array[:, 1]) / 2).sum())]
        if kind == "image":
            return kind, [x.decode() for x in np.ravel(array)[:2]]
        return kind, list(array.shape)
    return field or "empty", None


def census_of_dir(directory):
    """{tag: {"kind", "steps", "values"}} of the event files directly in `directory`."""
    from tensorboard.backend.event_processing import event_file_loader
    found, plugins = {}, {}  # the raw events (the legacy loader: no data_compat migration)

    def add(tag, kind, step, value):
        entry = found.setdefault(tag, {"kind": kind, "steps": [], "values": []})
        if entry["kind"] != kind:
            entry["kind"] = "%s+%s" % (entry["kind"], kind)
        entry["steps"].append(int(step))
        entry["values"].append(value)

    names = sorted(n for n in os.listdir(directory) if "tfevents" in n)
    for name in names:
        path = os.path.join(directory, name)
        for event in event_file_loader.LegacyEventFileLoader(path).Load():
            field = event.WhichOneof("what")
            if field == "graph_def":
                add("__graph__", "graph", event.step, None)
            elif field == "meta_graph_def":
                add("__meta_graph__", "meta_graph", event.step, None)
            elif field == "session_log":
                add("__session_log__", "session_log", event.step,
                    event.session_log.SessionStatus.Name(event.session_log.status))
            elif field == "tagged_run_metadata":
                add(event.tagged_run_metadata.tag, "run_metadata", event.step, None)
            elif field == "summary":
                for value in event.summary.value:
                    kind, summary = _kind_and_value(value, plugins)
                    add(value.tag, kind, event.step, summary)
    return found


def census(root):
    """{case: {directory: census_of_dir}} of each model_dir under `root` (a directory with a
    `checkpoint` file), directories relative to the model_dir."""
    result = {}
    for case in sorted(os.listdir(root)):
        model_dir = os.path.join(root, case)
        if not os.path.isfile(os.path.join(model_dir, "checkpoint")):
            continue
        dirs = {}
        for here, _, files in os.walk(model_dir):
            if any("tfevents" in f for f in files):
                dirs[os.path.relpath(here, model_dir)] = census_of_dir(here)
        result[case] = dirs
    return result


UNORDERED = ("graph", "meta_graph", "session_log")  # steps compared as sets (TF1 wrote the
# graph twice at step 0: the summary writer's and the checkpoint saver's)
VOLATILE = ("global_step/sec",)  # values that are timings
NOT_COMPARED = ()  # kinds recorded but not compared (none now: meta graphs are written too)


def _close(a, b, rtol, atol):
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y, rtol, atol) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        return abs(a - b) <= atol + rtol * abs(b)
    return a == b


def compare(actual, expected, rtol=0.02, atol=0.01, cases=None):
    """The differences between two censuses, one line each (none: the same tags, kinds and
    steps in the same directories, each value within tolerance); `cases`: only these."""
    problems = []

    def keys(what, got, want):
        for extra in sorted(set(got) - set(want)):
            problems.append("%s: %r written, not by the original" % (what, extra))
        for missing in sorted(set(want) - set(got)):
            problems.append("%s: %r not written (the original wrote it)" % (what, missing))
        return sorted(set(got) & set(want))

    for case in keys("cases", actual if cases is None else
                     {c: actual[c] for c in cases if c in actual},
                     expected if cases is None else {c: expected[c] for c in cases}):
        for directory in keys(case, actual[case], expected[case]):
            got, want = actual[case][directory], expected[case][directory]
            where = "%s/%s" % (case, directory)
            got = {t: e for t, e in got.items() if e["kind"] not in NOT_COMPARED}
            want = {t: e for t, e in want.items() if e["kind"] not in NOT_COMPARED}
            for tag in keys(where, got, want):
                g, w = got[tag], want[tag]
                if g["kind"] != w["kind"]:
                    problems.append("%s %r: a %s, the original's a %s" % (
                        where, tag, g["kind"], w["kind"]))
                    continue
                steps = (lambda x: sorted(set(x))) if w["kind"] in UNORDERED else list
                if steps(g["steps"]) != steps(w["steps"]):
                    problems.append("%s %r: at steps %s, the original's at %s" % (
                        where, tag, steps(g["steps"]), steps(w["steps"])))
                elif (w["kind"] not in UNORDERED and tag not in VOLATILE and
                      not _close(g["values"], w["values"], rtol, atol)):
                    problems.append("%s %r: values %s, the original's %s" % (
                        where, tag, g["values"], w["values"]))
    return problems


def record(which):
    python, program = SIDE[which]
    root = tempfile.mkdtemp(prefix="tag_census_")
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    subprocess.check_call([python, os.path.join(PROGRAMS, program), "--root", root], env=env,
                          stdout=sys.stderr)
    return census(root)


def main(argv):
    if len(argv) == 2 and argv[0] == "record" and argv[1] in SIDE:
        result = record(argv[1])
    elif len(argv) == 2 and argv[0] == "read":
        result = census(argv[1])
    elif len(argv) == 3 and argv[0] == "compare":
        with open(argv[1]) as f, open(argv[2]) as g:
            print("\n".join(compare(json.load(f), json.load(g))) or "the same")
        return
    else:
        sys.exit(__doc__)
    json.dump(result, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main(sys.argv[1:])
