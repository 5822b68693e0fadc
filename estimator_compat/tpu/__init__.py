"""`tf.compat.v1.estimator.tpu` / `tf.contrib.tpu`: TPUEstimator and its configs."""
from estimator_compat.tpu import experimental  # noqa: F401
from estimator_compat.tpu.cross_shard_optimizer import CrossShardOptimizer  # noqa: F401
from estimator_compat.tpu.tpu_config import InputPipelineConfig, RunConfig, TPUConfig  # noqa: F401
from estimator_compat.tpu.tpu_estimator import TPUEstimator  # noqa: F401
from estimator_compat.tpu.tpu_estimator_spec import TPUEstimatorSpec  # noqa: F401
