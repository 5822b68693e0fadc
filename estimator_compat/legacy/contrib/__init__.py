"""`tf.contrib`, as far as estimator-era code used it (TensorFlow 2 removed the whole package).

Served: `.estimator` (early-stopping hooks, InMemoryEvaluatorHook), `.learn` (learn_runner,
Experiment, RunConfig), `.training.HParams`, `.tpu` (TPUEstimator & co.), `.layers` (layer_norm,
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
    from estimator_compat.legacy import rnn_cells
    from estimator_compat.legacy.contrib import framework, layers, metrics
    from estimator_compat.legacy.namespaces import namespace

    estimator = namespace(
        "tensorflow.contrib.estimator", "tf.contrib.estimator (early stopping)",
        **{n: getattr(experimental, n) for n in (
            "stop_if_higher_hook", "stop_if_lower_hook", "stop_if_no_increase_hook",
            "stop_if_no_decrease_hook", "make_early_stopping_hook", "InMemoryEvaluatorHook")})
    contrib_learn = namespace("tensorflow.contrib.learn", "tf.contrib.learn",
                              **{n: getattr(learn, n) for n in
                                 ("learn_runner", "Experiment", "RunConfig", "TaskType")})
    for name in ("tensorflow.contrib.learn.python", "tensorflow.contrib.learn.python.learn"):
        namespace(name, "tf.contrib.learn", learn_runner=learn.learn_runner, learn=contrib_learn)
    sys.modules["tensorflow.contrib.learn.python.learn.learn_runner"] = learn.learn_runner
    contrib = namespace(
        "tensorflow.contrib", "tf.contrib, as far as estimator_compat serves it",
        estimator=estimator, learn=contrib_learn,
        training=namespace("tensorflow.contrib.training", "tf.contrib.training",
                           HParams=learn.HParams),
        tpu=namespace("tensorflow.contrib.tpu", "tf.contrib.tpu",
                      **{n: getattr(tpu, n) for n in (
                          "TPUEstimator", "TPUEstimatorSpec", "RunConfig", "TPUConfig",
                          "InputPipelineConfig", "CrossShardOptimizer")}),
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
            TPUClusterResolver=tf.distribute.cluster_resolver.TPUClusterResolver))
    _BUILT.append(contrib)
    return contrib
