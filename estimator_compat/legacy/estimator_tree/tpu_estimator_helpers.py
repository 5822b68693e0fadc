"""Small helpers of tensorflow_estimator 2.15's `tpu.tpu_estimator` that hold no TPU state, as
TPU programs and forks of TPUEstimator imported them:

- `_is_iterable(obj)`, `_extract_key_names(tensor_or_dict)`,
  `_add_item_to_params(params, key, value)` (a dict, or an HParams-like object);
- `_CapturedObject` (capture once, get), `_get_scaffold(captured_scaffold_fn)`, `_NotSaver`,
  `_SIGNAL` (the infeed/outfeed thread signals' values);
- `_create_global_step(graph)`: the int64 resource variable `global_step`.
The export-output helpers are tpu_export_outputs.py."""
import tensorflow as tf

v1 = tf.compat.v1


class _SIGNAL:
    """The values an infeed/outfeed thread's queue carries besides iteration counts."""
    NEXT_BATCH = -1
    STOP = -2


class _NotSaver:
    """What to pass instead of a saver when nothing should be saved: `save()` does nothing."""

    def __init__(self, message):
        self._message = message

    def save(self, *args, **kwargs):
        del args, kwargs
        v1.logging.info(self._message)


class _CapturedObject:
    """Holds one object, captured once (a second capture, or a get before any, is a
    RuntimeError)."""

    def __init__(self):
        self._object = None
        self._captured = False

    def capture(self, o):
        if self._captured:
            raise RuntimeError("InternalError: Object can capture only once. Please file bug.")
        self._captured = True
        self._object = o

    def get(self):
        if not self._captured:
            raise RuntimeError("InternalError: Object is not captured properly before `get`. "
                               "Please file bug.")
        return self._object


def _is_iterable(obj):
    """Whether `iter(obj)` works."""
    try:
        iter(obj)
        return True
    except TypeError:
        return False


def _extract_key_names(tensor_or_dict):
    """The sorted keys of a dict; [] for anything else."""
    if isinstance(tensor_or_dict, dict):
        return sorted(tensor_or_dict.keys())
    return []


def _add_item_to_params(params, key, value):
    """Sets `params[key] = value`; on an HParams-like object (with `set_hparam`) through
    `set_hparam` for a key it has, `add_hparam` for a new one."""
    if hasattr(params, "set_hparam"):
        if key in params:
            params.set_hparam(key, value)
        else:
            params.add_hparam(key, value)
    else:
        params[key] = value


def _get_scaffold(captured_scaffold_fn):
    """The Scaffold that TPUEstimatorSpec's captured `scaffold_fn` builds (None without one;
    a ValueError when it returns None)."""
    scaffold_fn = captured_scaffold_fn.get()
    if not scaffold_fn:
        return None
    scaffold = scaffold_fn()
    if scaffold is None:
        raise ValueError("TPUEstimatorSpec.scaffold_fn returns None, which is not allowed")
    finalize = scaffold.finalize

    def _finalize():
        # TPUEstimator ran finalize inside a context that rejected tensors from a TPU
        # computation; off TPU there are none, so it is the scaffold's own finalize (whose
        # result, as in 2.15, is not returned).
        finalize()

    scaffold.finalize = _finalize
    return scaffold


def _create_global_step(graph):
    """Creates `global_step` (int64 scalar resource variable at 0, not trainable, in
    GLOBAL_VARIABLES and GLOBAL_STEP) in `graph` (or the default graph)."""
    graph = graph or v1.get_default_graph()
    if v1.train.get_global_step(graph) is not None:
        raise ValueError('"global_step" already exists.')
    with graph.as_default() as g, g.name_scope(None):
        return v1.get_variable(
            v1.GraphKeys.GLOBAL_STEP, shape=[], dtype=tf.int64,
            initializer=v1.zeros_initializer(), trainable=False, use_resource=True,
            collections=[v1.GraphKeys.GLOBAL_VARIABLES, v1.GraphKeys.GLOBAL_STEP])
