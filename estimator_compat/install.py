"""`install()`: make legacy imports of tf.estimator resolve to estimator_compat.

After `estimator_compat.install()` (idempotent), these names resolve here; nothing TensorFlow
2.21 still provides with working behaviour is replaced:

- `tf.estimator`, `tf.compat.v1.estimator`, `tf.compat.v2.estimator` (and their `export`,
  `experimental`, `inputs` submodules); `import tensorflow.estimator`,
  `import tensorflow.compat.v1.estimator`, `import tensorflow_estimator`
  (`tensorflow_estimator.estimator`, `tensorflow_estimator.compat.v1.estimator`). The
  compat.v1 ones (`compat_v1`) have tf.compat.v1's canned classes (summed loss, TF1
  signatures), the others the V2 ones.
- `tf.contrib` (also as `tf.compat.v1.contrib`, when it does not exist): `.estimator` (the
  early-stopping hooks), `.learn` (`learn_runner`, `Experiment`, `RunConfig`; also
  `tensorflow.contrib.learn.python.learn.learn_runner`), `.training.HParams`, `.tpu`
  (TPUEstimator, TPUEstimatorSpec, RunConfig, TPUConfig, InputPipelineConfig,
  CrossShardOptimizer), `.layers.layer_norm`, `.data.map_and_batch` / `parallel_interleave`,
  `.cluster_resolver.TPUClusterResolver`; any other name gets an error saying it is not
  supported.
- `tf.compat.v1.layers.<fn>` (only the names that raise under Keras 3; see compat_layers).
- `tf.compat.v1.train.ProfilerHook` (TensorFlow's cannot be built in eager mode).
- `tf.keras.optimizers.legacy.{Adagrad, Adam, Ftrl, RMSprop, SGD, Optimizer}`, which Keras 3
  keeps only to raise: Keras 3's optimizers of the same name (see keras_legacy).
"""
import sys
import types

from estimator_compat.tf_modules import set_attr

_INSTALLED = []


class _Namespace(types.ModuleType):
    """A legacy namespace: what it lacks is named in a clear error, not a bare AttributeError."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(f"{self.__name__.replace('tensorflow.', 'tf.')}.{name} is not "
                             "provided by TensorFlow 2.21 nor by estimator_compat: this TF1 API "
                             "is not supported.")


def _module(name, doc, **attrs):
    module = sys.modules.get(name)
    if module is None or not getattr(module, "__estimator_compat__", False):
        module = _Namespace(name, doc)
        module.__estimator_compat__ = True
        sys.modules[name] = module
    for key, value in attrs.items():
        setattr(module, key, value)
    return module


def install():
    """Registers the aliases; returns the `estimator_compat` package (as `tf.estimator`)."""
    import tensorflow as tf

    import estimator_compat as api
    from estimator_compat import (compat_layers, compat_v1, contrib_layers, experimental,
                                  export, inputs, keras_legacy, tpu)
    from estimator_compat.hooks.builtin import ProfilerHook

    if _INSTALLED:
        return api
    by_owner = {"tensorflow": api, "tensorflow.compat.v1": compat_v1,
                "tensorflow.compat.v2": api}
    for owner, module in by_owner.items():
        set_attr(owner, "estimator", module, import_module=True)
    compat_layers.use()  # after the imports above, which make new tf.compat.v1 wrappers
    keras_legacy.use()
    for prefix, module in by_owner.items():
        sys.modules[prefix + ".estimator"] = module
        for sub, sub_module in (("export", export), ("experimental", experimental),
                                ("inputs", inputs), ("tpu", tpu)):
            sys.modules[f"{prefix}.estimator.{sub}"] = sub_module
    v1_namespace = _module("tensorflow_estimator.compat.v1",
                           "tf.compat.v1 of tensorflow_estimator", estimator=compat_v1)
    sys.modules["tensorflow_estimator.compat.v1.estimator"] = compat_v1
    _module("tensorflow_estimator.compat", "compat of tensorflow_estimator", v1=v1_namespace)
    _module("tensorflow_estimator", "tensorflow_estimator, served by estimator_compat",
            estimator=api, compat=sys.modules["tensorflow_estimator.compat"],
            __version__="2.15.0+estimator_compat")
    sys.modules["tensorflow_estimator.estimator"] = api
    if not hasattr(tf, "contrib"):
        contrib_estimator = _module(
            "tensorflow.contrib.estimator", "tf.contrib.estimator (early stopping)",
            stop_if_higher_hook=experimental.stop_if_higher_hook,
            stop_if_lower_hook=experimental.stop_if_lower_hook,
            stop_if_no_increase_hook=experimental.stop_if_no_increase_hook,
            stop_if_no_decrease_hook=experimental.stop_if_no_decrease_hook,
            make_early_stopping_hook=experimental.make_early_stopping_hook,
            InMemoryEvaluatorHook=experimental.InMemoryEvaluatorHook)
        from estimator_compat import learn
        contrib_learn = _module("tensorflow.contrib.learn", "tf.contrib.learn",
                                **{n: getattr(learn, n) for n in
                                   ("learn_runner", "Experiment", "RunConfig", "TaskType")})
        for name in ("tensorflow.contrib.learn.python", "tensorflow.contrib.learn.python.learn"):
            _module(name, "tf.contrib.learn", learn_runner=learn.learn_runner, learn=contrib_learn)
        sys.modules["tensorflow.contrib.learn.python.learn.learn_runner"] = learn.learn_runner
        training = _module("tensorflow.contrib.training", "tf.contrib.training",
                           HParams=learn.HParams)
        contrib_tpu = _module("tensorflow.contrib.tpu", "tf.contrib.tpu",
                              **{n: getattr(tpu, n) for n in (
                                  "TPUEstimator", "TPUEstimatorSpec", "RunConfig", "TPUConfig",
                                  "InputPipelineConfig", "CrossShardOptimizer")})
        layers = _module("tensorflow.contrib.layers", "tf.contrib.layers",
                         layer_norm=contrib_layers.layer_norm)
        data = _module("tensorflow.contrib.data", "tf.contrib.data",
                       map_and_batch=tf.data.experimental.map_and_batch,
                       parallel_interleave=tf.data.experimental.parallel_interleave)
        cluster_resolver = _module(
            "tensorflow.contrib.cluster_resolver", "tf.contrib.cluster_resolver",
            TPUClusterResolver=tf.distribute.cluster_resolver.TPUClusterResolver)
        contrib = _module("tensorflow.contrib", "tf.contrib, as far as estimator_compat serves",
                          estimator=contrib_estimator, learn=contrib_learn, training=training,
                          tpu=contrib_tpu, layers=layers, data=data,
                          cluster_resolver=cluster_resolver)
        for owner in ("tensorflow", "tensorflow.compat.v1"):
            set_attr(owner, "contrib", contrib)
    set_attr("tensorflow.compat.v1.train", "ProfilerHook", ProfilerHook)
    _INSTALLED.append(True)
    return api
