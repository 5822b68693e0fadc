"""`tf.contrib`, as far as estimator-era code used it (TensorFlow 2 removed the whole package).

Served: `.estimator` (early-stopping hooks, InMemoryEvaluatorHook, the in-memory boosted
trees trainers), `.learn` (see learn.py),
`.training.HParams`, `.tpu` (TPUEstimator & co.), `.lookup` (the TF1 tables), `.layers` (layer_norm,
fully_connected, optimize_loss, initializers, regularizers), `.framework` (global step and
variable helpers), `.rnn` (the TF1 cells of `rnn_cells`), `.data` (map_and_batch, parallel_interleave),
`.metrics` (streaming_*), `.cluster_resolver.TPUClusterResolver`. Any other name raises an error
naming its TensorFlow 2 replacement (see `missing`).
"""
import sys

_BUILT = []


def build():
    """The `tensorflow.contrib` module (made once, its submodules in sys.modules)."""
    if _BUILT:
        return _BUILT[0]
    import tensorflow as tf

    from estimator_compat import experimental, learn, tpu
    from estimator_compat.canned import boosted_trees
    from estimator_compat.legacy import rnn_cells
    from estimator_compat.legacy.contrib import framework, layers, lookup, metrics
    from estimator_compat.legacy.contrib import learn as contrib_learn
    from estimator_compat.legacy.namespaces import namespace
    from estimator_compat.tpu.cluster_resolver import TPUClusterResolver

    estimator = namespace(
        "tensorflow.contrib.estimator", "tf.contrib.estimator (early stopping, in-memory "
        "boosted trees)",
        **{n: getattr(experimental, n) for n in (
            "stop_if_higher_hook", "stop_if_lower_hook", "stop_if_no_increase_hook",
            "stop_if_no_decrease_hook", "make_early_stopping_hook", "InMemoryEvaluatorHook")},
        **{n: getattr(boosted_trees, n) for n in (
            "boosted_trees_classifier_train_in_memory",
            "boosted_trees_regressor_train_in_memory")})
    hparam = namespace("tensorflow.contrib.training.python.training.hparam",
                       "tf.contrib.training's hparam", HParams=learn.HParams)
    namespace("tensorflow.contrib.training.python", "tf.contrib.training",
              training=namespace("tensorflow.contrib.training.python.training",
                                 "tf.contrib.training", hparam=hparam, HParams=learn.HParams))
    tpu_names = {n: getattr(tpu, n) for n in (
        "TPUEstimator", "TPUEstimatorSpec", "RunConfig", "TPUConfig", "InputPipelineConfig",
        "CrossShardOptimizer")}
    tpu_modules = {"tpu_estimator": ("TPUEstimator", "TPUEstimatorSpec"),
                   "tpu_config": ("RunConfig", "TPUConfig", "InputPipelineConfig"),
                   "tpu_optimizer": ("CrossShardOptimizer",)}
    tpu_python = namespace("tensorflow.contrib.tpu.python.tpu", "tf.contrib.tpu", **{
        module: namespace(f"tensorflow.contrib.tpu.python.tpu.{module}", f"tf.contrib.tpu's "
                          f"{module}", **{n: tpu_names[n] for n in names})
        for module, names in tpu_modules.items()})
    contrib = namespace(
        "tensorflow.contrib", "tf.contrib, as far as estimator_compat serves it",
        estimator=estimator, learn=contrib_learn.build(),
        training=namespace("tensorflow.contrib.training", "tf.contrib.training",
                           HParams=learn.HParams, python=sys.modules[
                               "tensorflow.contrib.training.python"]),
        tpu=namespace("tensorflow.contrib.tpu", "tf.contrib.tpu", **tpu_names,
                      python=namespace("tensorflow.contrib.tpu.python", "tf.contrib.tpu",
                                       tpu=tpu_python)),
        lookup=namespace("tensorflow.contrib.lookup", "tf.contrib.lookup", **lookup.FUNCTIONS),
        layers=namespace("tensorflow.contrib.layers", "tf.contrib.layers", **layers.FUNCTIONS),
        data=namespace("tensorflow.contrib.data", "tf.contrib.data",
                       map_and_batch=tf.data.experimental.map_and_batch,
                       parallel_interleave=tf.data.experimental.parallel_interleave),
        metrics=namespace("tensorflow.contrib.metrics", "tf.contrib.metrics", **metrics.FUNCTIONS),
        framework=namespace("tensorflow.contrib.framework", "tf.contrib.framework",
                            **framework.FUNCTIONS),
        rnn=namespace("tensorflow.contrib.rnn", "tf.contrib.rnn (the TF1 cells)",
                      **rnn_cells.CLASSES, static_rnn=tf.compat.v1.nn.static_rnn,
                      static_bidirectional_rnn=tf.compat.v1.nn.static_bidirectional_rnn),
        cluster_resolver=namespace(
            "tensorflow.contrib.cluster_resolver", "tf.contrib.cluster_resolver",
            TPUClusterResolver=TPUClusterResolver))
    _BUILT.append(contrib)
    return contrib
