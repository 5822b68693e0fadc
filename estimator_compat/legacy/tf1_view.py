"""`tf` as TensorFlow 1.15 gave it to a program: `tf.compat.v1`, completed by estimator_compat.

The view reads through to TensorFlow's own `tf.compat.v1` on every access (so what install()
or the engine patches there is seen), except for the names TF 1.x had that TensorFlow 2 no
longer serves: `estimator` (the tf.compat.v1 estimator API), `contrib`, `layers` (functions and
classes), `compat` (`v1` is this view, `v2` is TensorFlow 2), and the execution-mode switches
(`disable_v2_behavior`, `enable_eager_execution`, ...), which act on the calling thread only
(`graph_mode.py`): the program runs in graph mode, the engine keeps TensorFlow 2's runtime.
"""
import types


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


_VIEW = []


def build():
    """The TF 1.x `tensorflow` module (made once; install() is applied first)."""
    if _VIEW:
        return _VIEW[0]
    import tensorflow as tf

    from estimator_compat.legacy import contrib, estimator_v1, graph_mode, install, tf1_config
    from estimator_compat.legacy import layers as compat_layers

    install()
    view = View("tensorflow", tf.compat.v1, {
        "estimator": estimator_v1, "contrib": contrib.build(), "layers": compat_layers.use(),
        **graph_mode.SWITCHES,
        "__version__": tf.__version__, "__estimator_compat_tf1__": True})
    view.compat = View("tensorflow.compat", tf.compat, {"v1": view, "v2": tf})
    view.config = View("tensorflow.config", tf.compat.v1.config, tf1_config.OVERRIDES)
    _VIEW.append(view)
    return view
