"""`tf.compat.v1.estimator.tpu.experimental.EmbeddingConfigSpec`, for TPUEstimator on CPU/GPU.

Without a TPU, tf.estimator trained the spec's embedding columns as ordinary embeddings, with
the model_fn's optimizer; so does estimator_compat (TPUEstimator(use_tpu=False)). The spec's
arguments are checked as tf.estimator checked them; asking for a TPU is an error there anyway.
"""
import collections

_FIELDS = ("feature_columns", "tensor_core_feature_columns", "optimization_parameters",
           "clipping_limit", "pipeline_execution_with_tensor_core",
           "experimental_gradient_multiplier_fn", "feature_to_config_dict",
           "table_to_config_dict", "partition_strategy", "profile_data_directory")


class EmbeddingConfigSpec(collections.namedtuple("EmbeddingConfigSpec", _FIELDS)):
    """Which columns are TPU embeddings and how a TPU would optimize them."""

    def __new__(cls, feature_columns=None, optimization_parameters=None, clipping_limit=None,
                pipeline_execution_with_tensor_core=False,
                experimental_gradient_multiplier_fn=None, feature_to_config_dict=None,
                table_to_config_dict=None, partition_strategy="div",
                profile_data_directory=None):
        by_dicts = feature_to_config_dict is not None and table_to_config_dict is not None
        if bool(feature_columns) == by_dicts:
            raise ValueError("Exactly one of `feature_columns` and the pair "
                             "`feature_to_config_dict` and `table_to_config_dict` must be "
                             "specified.")
        if partition_strategy not in ("div", "mod"):
            raise ValueError(f"Invalid partition_strategy {partition_strategy!r}. Must be one "
                             "of 'mod' or 'div'.")
        if optimization_parameters is None and not by_dicts:
            raise ValueError("optimization_parameters must be given (e.g. the TPU embedding "
                             "optimizer's parameters); without a TPU the model_fn's optimizer "
                             "trains the embeddings.")
        return super().__new__(
            cls, list(feature_columns or []) or None, None, optimization_parameters,
            clipping_limit, pipeline_execution_with_tensor_core,
            experimental_gradient_multiplier_fn, feature_to_config_dict, table_to_config_dict,
            partition_strategy, profile_data_directory)


class _OptimizationParameters:
    """TF 1.x's TPU embedding optimizer parameters (gone from TF 2.21): kept as given, for an
    EmbeddingConfigSpec; without a TPU they are not used."""

    def __init__(self, learning_rate, **kwargs):
        self.learning_rate = learning_rate
        self.__dict__.update(kwargs)

    def __repr__(self):
        return f"{type(self).__name__}({self.__dict__})"


PARAMETER_CLASSES = {name: type(name, (_OptimizationParameters,), {"__module__": __name__})
                     for name in ("AdagradParameters", "AdamParameters", "FtrlParameters",
                                  "StochasticGradientDescentParameters")}
