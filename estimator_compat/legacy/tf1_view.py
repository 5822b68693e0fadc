"""`tf` as TensorFlow 1.15 gave it to a program: `tf.compat.v1`, completed by estimator_compat.

The view reads through to TensorFlow's own `tf.compat.v1` on every access (so what install()
or the engine patches there is seen), except for the names TF 1.x had that TensorFlow 2 no
longer serves: `estimator` (the tf.compat.v1 estimator API), `contrib`, `layers` (functions and
classes), `compat` (`v1` is this view, `v2` is TensorFlow 2), and `disable_v2_behavior` /
`disable_eager_execution`, which become no-ops: the engine runs a TF1 model_fn as a graph inside
`tf.function`, on TensorFlow 2's runtime, which those calls would switch off process-wide.
`placeholder` & co. called outside any graph (TF1's default graph; official samples made the
serving receiver's placeholders at top level) are made in one graph kept for that purpose.
"""
import logging
import types

logger = logging.getLogger("tensorflow")


class View(types.ModuleType):
    """A module reading through to `real`, with `overrides` in front."""

    def __init__(self, name, real, overrides):
        super().__init__(name, getattr(real, "__doc__", None))
        self.__dict__["_real"] = real
        self.__dict__.update(overrides)

    def __getattr__(self, name):
        return getattr(self.__dict__["_real"], name)

    def __dir__(self):
        return sorted(set(dir(self.__dict__["_real"])) | {k for k in self.__dict__ if k != "_real"})


def _ignored(name):
    def call(*args, **kwargs):
        logger.info("estimator_compat: tf.%s() ignored: model_fns run as TF1 graphs inside "
                    "tf.function on TensorFlow 2's runtime, which this call would switch off.",
                    name)
    call.__name__ = name
    return call


_TOP_LEVEL_GRAPH = []


def _in_top_level_graph(fn):
    def call(*args, **kwargs):
        import tensorflow as tf
        if not tf.executing_eagerly():
            return fn(*args, **kwargs)
        if not _TOP_LEVEL_GRAPH:
            _TOP_LEVEL_GRAPH.append(tf.Graph())
        with _TOP_LEVEL_GRAPH[0].as_default():
            return fn(*args, **kwargs)
    call.__name__, call.__doc__ = fn.__name__, fn.__doc__
    return call


_VIEW = []


def build():
    """The TF 1.x `tensorflow` module (made once; install() is applied first)."""
    if _VIEW:
        return _VIEW[0]
    import tensorflow as tf

    from estimator_compat.legacy import contrib, estimator_v1, install
    from estimator_compat.legacy import layers as compat_layers

    install()
    view = View("tensorflow", tf.compat.v1, {
        "estimator": estimator_v1, "contrib": contrib.build(), "layers": compat_layers.use(),
        "disable_v2_behavior": _ignored("disable_v2_behavior"),
        "disable_eager_execution": _ignored("disable_eager_execution"),
        **{name: _in_top_level_graph(getattr(tf.compat.v1, name)) for name in (
            "placeholder", "placeholder_with_default", "sparse_placeholder")},
        "__version__": tf.__version__, "__estimator_compat_tf1__": True})
    view.compat = View("tensorflow.compat", tf.compat, {"v1": view, "v2": tf})
    _VIEW.append(view)
    return view
