"""Graphs written so that older TensorFlow reads them: SavedModels and `.meta` files.

Teams move training to TensorFlow 2.21 and keep serving, evaluation and tools on older binaries;
TF1 code even asked for it (`export_savedmodel(strip_default_attrs=True)`). Attributes at their
default values are already stripped when the graph is written; what is left that TensorFlow
1.15 cannot parse is of two kinds:

- attributes TF 2.x added that only inform or check (`VarHandleOp.debug_name`,
  `MatMul.grad_a/grad_b`, `AssignVariableOp.validate_shape`): removed here, nothing a
  correct graph computes changes;
- ops TF 1.15 did not have (`ParseExampleV2`, which `tf.io.parse_example` now builds): kept,
  and named in one log line, since the graph needs them.

`tf115_ops.json` is TF 1.15.5's op registry (op: attribute names), listed by
`tools/tf115_ops.py` in the TF 1.15 side venv.
"""
import json
import logging
import os

import tensorflow as tf
from google.protobuf import text_format
from tensorflow.core.protobuf import saved_model_pb2

logger = logging.getLogger("tensorflow")
INFORMATIVE_ATTRS = {"debug_name", "grad_a", "grad_b", "validate_shape"}
_TF115_OPS = []


def tf115_ops():
    """{op name: [attribute names]} of TensorFlow 1.15.5."""
    if not _TF115_OPS:
        with open(os.path.join(os.path.dirname(__file__), "tf115_ops.json")) as f:
            _TF115_OPS.append(json.load(f)["ops"])
    return _TF115_OPS[0]


def _nodes(graph_def):
    yield from graph_def.node
    for function in graph_def.library.function:
        yield from function.node_def


def for_old_readers(graph_def):
    """Removes the informative attributes TF 1.15 did not know from `graph_def` (in place);
    returns (ops TF 1.15 did not have, `op.attr` names it did not know), both sorted."""
    known = tf115_ops()
    ops, attrs = set(), set()
    for node in _nodes(graph_def):
        if node.op not in known:
            if not graph_def.library.function or node.op not in {
                    f.signature.name for f in graph_def.library.function}:
                ops.add(node.op)
            continue
        for name in list(node.attr):
            if name.startswith("_") or name in known[node.op]:
                continue
            if name in INFORMATIVE_ATTRS:
                del node.attr[name]
            else:
                attrs.add(f"{node.op}.{name}")
    return sorted(ops), sorted(attrs)


def say_unreadable(path, ops, attrs):
    """One log line naming what keeps TensorFlow 1.15 from loading `path` (none if nothing)."""
    if ops or attrs:
        logger.info("TensorFlow 1.15 cannot load %s: it uses %s (TF 1.15 reads graphs whose "
                    "ops all existed there; TF 2.x reads this one).", path, "; ".join(
                        ([f"ops TF 1.15 did not have: {', '.join(ops)}"] if ops else []) +
                        ([f"attributes TF 1.15 did not know: {', '.join(attrs)}"]
                         if attrs else [])))


def rewrite_saved_model(export_dir, shown_path=None):
    """Applies for_old_readers to every graph of the SavedModel in `export_dir` (binary or
    text), then logs what TF 1.15 could still not read."""
    binary = os.path.join(export_dir, "saved_model.pb")
    text = os.path.join(export_dir, "saved_model.pbtxt")
    proto = saved_model_pb2.SavedModel()
    as_text = not tf.io.gfile.exists(binary)
    with tf.io.gfile.GFile(text if as_text else binary, "r" if as_text else "rb") as f:
        if as_text:
            text_format.Parse(f.read(), proto)
        else:
            proto.ParseFromString(f.read())
    ops, attrs = set(), set()
    for meta_graph in proto.meta_graphs:
        more_ops, more_attrs = for_old_readers(meta_graph.graph_def)
        ops.update(more_ops)
        attrs.update(more_attrs)
    with tf.io.gfile.GFile(text if as_text else binary, "w" if as_text else "wb") as f:
        f.write(text_format.MessageToString(proto) if as_text else proto.SerializeToString())
    say_unreadable(shown_path or export_dir, sorted(ops), sorted(attrs))
