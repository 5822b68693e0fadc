"""The boosted trees' TensorFlow variables, under tf.estimator 2.8's checkpoint names.

The ensemble itself is `boosted_trees:0_serialized` / `boosted_trees:0_stamp` (the proto and
its stamp, as TensorFlow's ensemble resource saved them) and each numeric feature's quantile
boundaries `boosted_trees/QuantileAccumulator:0_bucket_boundaries_<i>`; those keys are not
valid variable names, so these variables are made outside the trace and saved under the keys.
Beside them, `boosted_trees/ensemble/*` hold the same trees as dense arrays for the traversal
ops (and the SavedModel); a tf.estimator 2.8 checkpoint, which lacks them, fills them from its
proto (`fill_missing`).
"""
import numpy as np
import tensorflow as tf

from estimator_compat.canned.boosted_trees import ensemble as ensemble_lib, proto
from estimator_compat.variables import adopt, current_store, outside_trace

v1 = tf.compat.v1
SERIALIZED_KEY = "boosted_trees:0_serialized"
STAMP_KEY = "boosted_trees:0_stamp"
BOUNDARIES_KEY = "boosted_trees/QuantileAccumulator:0_bucket_boundaries_{}"
ARRAY_SCOPE = "boosted_trees/ensemble/"
ARRAY_NAMES = ("kind", "feature", "dimension", "threshold", "left", "right", "value", "weight",
               "pruned_to", "pruned_change", "states")


def empty_arrays(logits):
    out = ensemble_lib.arrays(proto.TreeEnsemble(), logits)
    out["states"] = ensemble_lib.states(proto.TreeEnsemble())
    return out


def arrays_of(serialized, logits):
    ensemble = ensemble_lib.parse(serialized)
    out = ensemble_lib.arrays(ensemble, logits)
    out["states"] = ensemble_lib.states(ensemble)
    return out


def _keyed(key, make):
    """The variable saved under checkpoint key `key`, made once per Estimator."""
    var = current_store().get(key)
    if var is None:
        with outside_trace():
            var = make()
    adopt({key: var})
    return var


def ensemble_arrays(logits):
    """{name: variable} of the dense arrays (made in the trace: `boosted_trees/ensemble/*`)."""
    out = {}
    with tf.name_scope("ensemble"):
        for name, value in empty_arrays(logits).items():
            out[name] = v1.Variable(value, name=name, trainable=False, validate_shape=False,
                                    shape=[None] * value.ndim, use_resource=True)
    return out


def proto_variables():
    """(serialized proto, stamp) variables, saved under tf.estimator's keys."""
    serialized = _keyed(SERIALIZED_KEY, lambda: tf.Variable(
        b"", trainable=False, name="boosted_trees_serialized"))
    stamp = _keyed(STAMP_KEY, lambda: tf.Variable(
        np.int64(0), trainable=False, name="boosted_trees_stamp"))
    return serialized, stamp


def boundary_variables(num_streams):
    return [_keyed(BOUNDARIES_KEY.format(i), lambda: tf.Variable(
        np.zeros([0], np.float32), trainable=False, shape=[None],
        name=f"bucket_boundaries_{i}")) for i in range(num_streams)]


def flag(name, initial):
    """A saved bool (`boosted_trees/<name>`), as tf.estimator's."""
    return v1.Variable(initial, name=name, trainable=False, dtype=tf.bool, use_resource=True)


def fill_missing(logits):
    """CheckpointIO's fill_missing: the dense arrays of a tf.estimator 2.8 checkpoint, from its
    serialized ensemble."""
    def fill(names, reader, variables):
        if not any(n.startswith(ARRAY_SCOPE) for n in names) or \
                not reader.has_tensor(SERIALIZED_KEY):
            return {}
        arrays = arrays_of(reader.get_tensor(SERIALIZED_KEY), logits)
        return {n: arrays[n[len(ARRAY_SCOPE):]] for n in names
                if n.startswith(ARRAY_SCOPE) and n[len(ARRAY_SCOPE):] in arrays}
    return fill
