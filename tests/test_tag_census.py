"""TensorBoard shows what it showed (issue 44): the event files of every canned estimator,
model_to_estimator, the summary hooks and train_and_evaluate hold the tags, kinds and steps
the originals wrote, with values close to theirs.

`tests/programs/tag_census/tf1_canned.py` (a TF 1.x program: TF 1.15's `tf.estimator`, i.e.
the tf.compat.v1.estimator classes) and `tf2_canned.py` (a TF 2.x program: the V2 classes
and heads, compat.v1 classes, Keras) each train every case 12 steps into a model_dir of its
own, starting from the same seeded weights, and evaluate. The recordings
`tests/fixtures/tag_census/tf115.json` / `tf215.json` are their census under TensorFlow
1.15.5 and tensorflow-estimator 2.15 (and `tf28.json`, `tf2_boosted_trees.py`'s under
TensorFlow 2.8, the last tf.estimator with BoostedTrees) (`python tools/tag_census.py record tf1|tf2`,
2026-12-06); here the same programs run through `estimator-compat run` and their census is
compared as a whole: a tag renamed, added or missing, a histogram written as a scalar, a
step moved, fails.
"""
import json
import os

import pytest
from tensorboard.backend.event_processing import plugin_event_multiplexer

from helpers import PROGRAMS, Program
from tools import tag_census

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "tag_census")
# tf.estimator 2.15's V2 Baseline* read two batches per step from a one-shot-iterator
# input_fn: its step-1 loss is the second batch's (3.072, the mean square of labels 16-31;
# TF 1.15's and ours: 3.345, batch 0). Their tags, kinds and steps are compared.
# Two more: tf.estimator 2.15's own LinearSDCA values vary from run to run (its SDCA kernel
# updates in parallel), and the RNNClassifier's Keras cell draws its weights its own way.
VALUES_DIFFER = {"tf2": {"baseline_classifier", "baseline_regressor", "linear_sdca",
                         "rnn_classifier"}}


PROGRAMS_BY_ORIGINAL = {"tf1": ("tf1_canned.py", "tf115.json"),
                        "tf2": ("tf2_canned.py", "tf215.json"),
                        "tf28": ("tf2_boosted_trees.py", "tf28.json")}


def recorded(which):
    with open(os.path.join(FIXTURES, PROGRAMS_BY_ORIGINAL[which][1])) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def roots(tmp_path_factory):
    """The programs run at once (one TensorFlow process each), to their end."""
    root = tmp_path_factory.mktemp("tag_census")
    programs = {which: Program(os.path.join(PROGRAMS, "tag_census", program),
                               "--root", root / which)
                for which, (program, _) in PROGRAMS_BY_ORIGINAL.items()}
    for program in programs.values():
        program.wait()
    return {which: str(root / which) for which in programs}


@pytest.mark.parametrize("which", list(PROGRAMS_BY_ORIGINAL))
def test_the_originals_tags_kinds_steps_and_values(roots, which):
    census = tag_census.census(roots[which])
    problems = tag_census.compare(census, recorded(which))
    for case in VALUES_DIFFER.get(which, ()):
        problems = [p for p in problems if not (p.startswith(case + "/") and ": values " in p)]
    assert not problems, "\n".join(problems)


def test_a_renamed_tag_fails_the_census():
    expected = recorded("tf1")
    renamed = json.loads(json.dumps(expected))
    train = renamed["dnn_classifier"]["."]
    train["dnn/hiddenlayer_0/activation"] = train.pop("dnn/dnn/hiddenlayer_0/activation")
    train["average_loss"]["kind"] = "histogram"
    problems = tag_census.compare(renamed, expected)
    assert any("'dnn/dnn/hiddenlayer_0/activation' not written" in p for p in problems)
    assert any("'dnn/hiddenlayer_0/activation' written, not by the original" in p
               for p in problems)
    assert any("'average_loss': a histogram, the original's a scalar" in p for p in problems)
    assert tag_census.compare(expected, expected) == []


_PLUGINS = {"scalar": "scalars", "histogram": "histograms", "image": "images", "text": "text"}


@pytest.mark.parametrize("which,case", [("tf1", "combined_classifier"),
                                        ("tf1", "model_fn_hooks"), ("tf2", "dnn_multi_head")])
def test_tensorboard_reads_each_tag_the_original_wrote(roots, which, case):
    """TensorBoard's own data layer (the plugin event multiplexer behind `tensorboard
    --logdir`) finds, in each run of the model_dir, every tag the original wrote, under the
    dashboard that showed it, at the same steps; and the run's graph."""
    model_dir = os.path.join(roots[which], case)
    multiplexer = plugin_event_multiplexer.EventMultiplexer(
        size_guidance={"tensors": 0, "images": 0})
    multiplexer.AddRunsFromDirectory(model_dir)
    multiplexer.Reload()
    runs = multiplexer.Runs()
    for directory, tags in recorded(which)[case].items():
        run = directory
        assert run in runs, f"{case}: TensorBoard found no run {run!r} (runs: {sorted(runs)})"
        for tag, entry in tags.items():
            kind = entry["kind"]
            if kind == "graph":
                assert multiplexer.PluginRunToTagToContent("graphs").get(run), (run, tag)
            elif kind in _PLUGINS:
                content = multiplexer.PluginRunToTagToContent(_PLUGINS[kind]).get(run, {})
                assert tag in content, f"{case}/{run}: no {kind} {tag!r} in {sorted(content)}"
                steps = [e.step for e in multiplexer.Tensors(run, tag)]
                assert steps == entry["steps"], (run, tag)
            elif kind == "tensor":  # an evaluation's checkpoint_path: no dashboard shows it
                assert tag in runs[run]["tensors"], (run, tag)
                assert not any(tag in multiplexer.PluginRunToTagToContent(p).get(run, {})
                               for p in _PLUGINS.values()), (run, tag)


def test_graph_tab_shows_the_tf1_train_graph(roots):
    """TensorBoard's graph tab shows the newest graph event of a run: for training, the TF1
    train graph of the `.meta` files (variables, the input iterator, the model_fn's ops under
    their name scopes), not the compiled step's function graph."""
    model_dir = os.path.join(roots["tf1"], "combined_classifier")
    multiplexer = plugin_event_multiplexer.EventMultiplexer()
    multiplexer.AddRunsFromDirectory(model_dir)
    multiplexer.Reload()
    nodes = {node.name: node.op for node in multiplexer.Graph(".").node}
    assert nodes["global_step"] in ("VariableV2", "VarHandleOp")
    assert nodes["IteratorGetNext"] == "IteratorGetNext"
    assert any(n.startswith("dnn/hiddenlayer_0/") for n in nodes)
    assert any(n.startswith("linear/linear_model/") for n in nodes)
    assert not [n for n in nodes if n.startswith("while/")]


def test_projector_finds_the_checkpoint_embeddings(roots):
    """TensorBoard's projector lists a model_dir's 2-D checkpoint variables (neither original
    wrote a projector_config.pbtxt for the canned models; it reads the checkpoint): the DNN's
    layers, as tf.estimator's model_dirs offered them."""
    from tensorboard.plugins import base_plugin
    from tensorboard.plugins.projector import projector_plugin
    model_dir = os.path.join(roots["tf1"], "dnn_classifier")
    multiplexer = plugin_event_multiplexer.EventMultiplexer()
    multiplexer.AddRunsFromDirectory(model_dir)
    multiplexer.Reload()
    plugin = projector_plugin.ProjectorPlugin(
        base_plugin.TBContext(logdir=model_dir, multiplexer=multiplexer))
    plugin._update_configs()
    tensors = {e.tensor_name for config in plugin._configs.values()
               for e in config.embeddings}
    assert {"dnn/hiddenlayer_0/kernel", "dnn/logits/kernel"} <= tensors, sorted(tensors)
