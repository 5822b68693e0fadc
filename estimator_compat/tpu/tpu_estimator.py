"""TPUEstimator: the original BERT code's estimator. use_tpu=False runs on CPU/GPU.

The model_fn and input_fn get `params['batch_size']` (train/eval/predict batch size for the
mode) and `params['use_tpu']`, as TPUEstimator gave them. `TPUConfig.iterations_per_loop`
becomes steps_per_execution: that many train steps per compiled call, hooks seeing one run per
call, as on TPU. use_tpu=True
resolves a TPU with TPUClusterResolver and runs under TPUStrategy; where none is reachable the
error says so and suggests use_tpu=False.
"""
import copy

import tensorflow as tf

from estimator_compat.estimator import Estimator
from estimator_compat.mode_keys import ModeKeys
from estimator_compat.tpu.embedding_config import EmbeddingConfigSpec
from estimator_compat.tpu.tpu_config import RunConfig


class TPUEstimator(Estimator):
    def __init__(self, model_fn=None, model_dir=None, config=None, params=None, use_tpu=True,
                 train_batch_size=None, eval_batch_size=None, predict_batch_size=None,
                 batch_axis=None, eval_on_tpu=True, export_to_tpu=True, export_to_cpu=True,
                 warm_start_from=None, embedding_config_spec=None,
                 export_saved_model_api_version=None):
        if config is None:
            config = RunConfig()
        params = copy.deepcopy(params or {})
        if "batch_size" in params:
            raise ValueError("params cannot include 'batch_size': TPUEstimator sets it from "
                             "train_batch_size / eval_batch_size / predict_batch_size.")
        for name, value in (("train_batch_size", train_batch_size),
                            ("eval_batch_size", eval_batch_size),
                            ("predict_batch_size", predict_batch_size)):
            if value is not None and (not isinstance(value, int) or value <= 0):
                raise ValueError(f"{name} must be a positive integer, given: {value!r}")
        if embedding_config_spec is not None:
            _check_embedding_config_spec(embedding_config_spec, use_tpu)
        self._use_tpu = use_tpu
        self._batch_sizes = {ModeKeys.TRAIN: train_batch_size, ModeKeys.EVAL: eval_batch_size,
                             ModeKeys.PREDICT: predict_batch_size}
        tpu_config = getattr(config, "tpu_config", None)
        if tpu_config is not None and config.steps_per_execution == 1:
            config = config.replace(steps_per_execution=tpu_config.iterations_per_loop)
        if use_tpu:
            strategy = _tpu_strategy(config)
            config = config.replace(train_distribute=strategy, eval_distribute=strategy)
        super().__init__(model_fn, model_dir=model_dir, config=config, params=params,
                         warm_start_from=warm_start_from)

    def _params_for_call(self, mode=None):
        """model_fn's params as TPUEstimator passed them: plus `batch_size` (of the mode) and
        `use_tpu`."""
        return dict(self._input_params_for_call(mode), use_tpu=self._use_tpu)

    def _input_params_for_call(self, mode=None):
        """input_fn's params: plus `batch_size` only, as TF 1.15 / 2.15 passed them off TPU."""
        params = dict(self._params)
        if self._batch_sizes.get(mode) is not None:
            params["batch_size"] = self._batch_sizes[mode]
        return params


def _check_embedding_config_spec(spec, use_tpu):
    if not isinstance(spec, EmbeddingConfigSpec):
        raise TypeError("embedding_config_spec must be a tf.compat.v1.estimator.tpu."
                        f"experimental.EmbeddingConfigSpec, given {type(spec).__name__}.")
    if use_tpu:
        raise ValueError("TPU embeddings (embedding_config_spec) run on a TPU's embedding "
                         "cores, which estimator_compat does not drive. Set use_tpu=False: "
                         "the spec's embedding columns are then trained as ordinary "
                         "embeddings by the model_fn's optimizer, as TPUEstimator did on "
                         "CPU/GPU.")


def _tpu_strategy(config):
    try:
        resolver = tf.distribute.cluster_resolver.TPUClusterResolver(
            tpu=getattr(config, "master", None) or None)
        tf.config.experimental_connect_to_cluster(resolver)
        tf.tpu.experimental.initialize_tpu_system(resolver)
    except (ValueError, tf.errors.OpError, RuntimeError) as e:
        raise ValueError(f"TPUEstimator(use_tpu=True): no TPU is reachable ({e}). Pass "
                         "use_tpu=False to run on CPU/GPU.") from None
    return tf.distribute.TPUStrategy(resolver)
