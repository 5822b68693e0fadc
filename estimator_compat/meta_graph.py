"""TF 1.x's MetaGraphDef of the train graph, written next to each checkpoint (`model.ckpt-N.meta`).

TF 1.x tools read it: `tf.compat.v1.train.import_meta_graph(path)`, then the returned saver's
`restore(sess, checkpoint)`; ALBERT copies the best checkpoint with its .meta. The engine runs
TensorFlow 2 functions, so the graph is built once more the TF1 way: the model_fn in TRAIN mode
in a graph of its own (a TF 1.x program's with reference variables), its input from an
iterator of the input's structure (`IteratorGetNext`, as tf.estimator's train graph had it, so
a tool may feed those tensors), with the Saver tf.estimator made (sharded, relative paths) over
the same variable names (attributes at their default values left out). Built once per
input structure, when the first checkpoint is saved; written with every checkpoint while
RunConfig(checkpoint_save_graph_def=True). A model_fn that cannot be built this way (one that
works only inside tf.function) gets one INFO line and no .meta; training is not affected.
model_to_estimator's Estimators write none (the Keras model's variables live outside any
graph).

The same MetaGraphDef goes into the model_dir's event file (a GraphDef and a MetaGraphDef
event, as TF1's FileWriter wrote them), after the compiled step's graph written as training
starts: TensorBoard's graph tab shows the last, the model_fn's ops under their name scopes as
a TF1 program built them.
"""
import logging

import tensorflow as tf
from tensorflow.python.lib.io import file_io

from estimator_compat import summaries
from estimator_compat.eager_calls import program_graph
from estimator_compat.engine import seeding
from estimator_compat.engine.input_pipeline import split_element
from estimator_compat.engine.model_fn_call import call_model_fn
from estimator_compat.export import old_readers
from estimator_compat.mode_keys import ModeKeys
from estimator_compat.variables import fresh_keras_names

logger = logging.getLogger("tensorflow")


def build(estimator, element_spec, renamed=None):
    """The serialized MetaGraphDef of `estimator`'s train graph for inputs of `element_spec`
    (one element's TypeSpecs), or None where the model_fn cannot be built in a TF1 graph.
    `renamed`: {variable name: its checkpoint name, or None where the checkpoint has no
    entry for it} (CheckpointIO.renamed_in_checkpoint), so the graph's Saver restores the
    checkpoints written beside it."""
    level = logger.level
    logger.setLevel(logging.ERROR)  # the model_fn's own logging was shown by its trace
    try:
        with tf.Graph().as_default(), fresh_keras_names(), program_graph(), \
                seeding.kept_random():  # the Keras layers' seed draws leave no trace
            legacy = lambda what: tf.nest.map_structure(  # noqa: E731
                lambda spec: getattr(spec, f"_to_legacy_output_{what}")(), element_spec)
            iterator = tf.compat.v1.data.Iterator.from_structure(
                legacy("types"), legacy("shapes"), output_classes=legacy("classes"))
            features, labels = split_element(iterator.get_next())
            tf.compat.v1.train.get_or_create_global_step()
            call_model_fn(estimator._model_fn, features, labels, ModeKeys.TRAIN,
                          estimator._params_for_call(ModeKeys.TRAIN), estimator.config,
                          announce=False)  # a .meta file's copy, not a call of the user's
            saver = tf.compat.v1.train.Saver(
                var_list=_saver_names(renamed),
                sharded=True, max_to_keep=estimator.config.keep_checkpoint_max,
                keep_checkpoint_every_n_hours=estimator.config.keep_checkpoint_every_n_hours,
                save_relative_paths=True)
            meta = saver.export_meta_graph(strip_default_attrs=True)
            old_readers.say_unreadable("the model.ckpt-*.meta files",
                                       *old_readers.for_old_readers(meta.graph_def))
            return meta.SerializeToString()
    except Exception as e:  # noqa: BLE001 - any model_fn that only runs inside tf.function
        failure = e
    finally:
        logger.setLevel(level)
    logger.info("estimator_compat: no model.ckpt-*.meta files: the model_fn could not be built "
                "in a TF 1.x graph (%s: %s). Checkpoints are not affected.",
                type(failure).__name__,
                str(failure).splitlines()[0] if str(failure) else "")
    return None


def _saver_names(renamed):
    """The Saver's {checkpoint name: variable} where some variables are saved under other
    names; None (every global variable under its own) otherwise."""
    if not renamed:
        return None
    variables = tf.compat.v1.global_variables()
    if any(getattr(v, "_save_slice_info", None) is not None for v in variables):
        return None  # partitioned variables keep the Saver's own naming
    names = {}
    for var in variables:
        name = var.op.name
        key = renamed.get(name, name)
        if key is not None:
            names[key] = var
    return names


def write(serialized, checkpoint_path):
    """Writes `<checkpoint_path>.meta` through a temporary file of a name no other writer uses
    (TensorFlow's atomic write: `.tmp<uuid>`, then a rename), so it is never half-written and
    two trainers on one model_dir never take each other's temporary file."""
    path = checkpoint_path + ".meta"
    file_io.atomic_write_string_to_file(path, serialized, overwrite=True)
    return path


class MetaGraphs:
    """The .meta of one Estimator's train graph, built on first use per input structure.

    The checkpoint saved as training starts waits for the first one saved after a step (or
    for `flush` at the end): the build (a tenth to a few tenths of a second for canned models)
    is kept off the time to the first step."""

    def __init__(self, estimator):
        self._estimator = estimator
        self._built = {}  # element structure (repr) -> serialized MetaGraphDef or None
        self._pending = []  # checkpoints saved before the build
        self.element_spec = None  # set by the train trace
        self.renamed = None  # CheckpointIO.renamed_in_checkpoint, set with it

    def write_for(self, checkpoint_path, defer=False):
        if self.element_spec is None or not self._estimator._meta_graph_buildable:
            return
        key = repr(self.element_spec)
        if key not in self._built and defer:
            self._pending.append(checkpoint_path)
            return
        self._write([checkpoint_path])

    def flush(self):
        """Writes the .meta of checkpoints still waiting for one."""
        if self._pending and self.element_spec is not None:
            self._write([])

    def _write(self, paths):
        key = repr(self.element_spec)
        if key not in self._built:
            self._built[key] = build(self._estimator, self.element_spec,
                                     self.renamed() if self.renamed else None)
            if self._built[key] is not None:  # TensorBoard's graph tab shows the TF1 graph
                summaries.write_graph(self._estimator.model_dir, self._built[key])
        serialized = self._built[key]
        paths, self._pending = self._pending + paths, []
        for path in paths:
            if serialized is not None and tf.io.gfile.exists(path + ".index"):
                write(serialized, path)
