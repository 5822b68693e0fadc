"""`tf.contrib.tpu`: TPUEstimator & co. (`estimator_compat.tpu`), also under the deep paths
`tensorflow.contrib.tpu.python.tpu.{tpu_estimator, tpu_config, tpu_optimizer}`."""
from estimator_compat.legacy.namespaces import namespace


def build():
    from estimator_compat import tpu
    names = {n: getattr(tpu, n) for n in (
        "TPUEstimator", "TPUEstimatorSpec", "RunConfig", "TPUConfig", "InputPipelineConfig",
        "CrossShardOptimizer")}
    modules = {"tpu_estimator": ("TPUEstimator", "TPUEstimatorSpec"),
               "tpu_config": ("RunConfig", "TPUConfig", "InputPipelineConfig"),
               "tpu_optimizer": ("CrossShardOptimizer",)}
    tpu_python = namespace("tensorflow.contrib.tpu.python.tpu", "tf.contrib.tpu", **{
        module: namespace(f"tensorflow.contrib.tpu.python.tpu.{module}", f"tf.contrib.tpu's "
                          f"{module}", **{n: names[n] for n in members})
        for module, members in modules.items()})
    return namespace("tensorflow.contrib.tpu", "tf.contrib.tpu", **names,
                     python=namespace("tensorflow.contrib.tpu.python", "tf.contrib.tpu",
                                      tpu=tpu_python))
