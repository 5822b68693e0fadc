"""Helpers of tensorflow_estimator 2.15's `tpu._tpu_estimator_embedding` that need no TPU:

- the names TPU embedding tables and their CPU variables share
  (`_get_table_name_from_embedding_var_name`: `tbl_<var>`;
  `_get_embedding_var_name_from_table_name`: the reverse;
  `_get_embedding_variable_name(scope_name, var_name)`: `<scope>/<var>`;
  `_get_slot_variable_names(scope_name, var_name, optimization_parameters)`: the slot
  variables a CPU run gives that table for `tf.compat.v1.tpu.experimental`'s Adagrad / Adam /
  Ftrl / StochasticGradientDescent parameters, as TF1's `*SlotVariableNames` tuples);
- the feature preparation of TPU embedding inputs (`_get_weights_from_features`,
  `_get_sparse_feature_from_feature`: pop a feature, checked; `_maybe_dense_to_sparse`: a
  dense id tensor's non-zero entries as a SparseTensor; `_split_tensor`: dense or sparse, split
  along the batch);
- `get_tpu_embedding_columns(feature_columns)`: the columns made by
  `tf.compat.v1.tpu.experimental.embedding_column` / `shared_embedding_columns` (TensorFlow's
  own TPU embedding column classes, v1 and v2)."""
import collections

import tensorflow as tf

# TF1's tpu_embedding tuples of slot variable names (gone from TensorFlow 2.21)
AdagradSlotVariableNames = collections.namedtuple("AdagradSlotVariableNames", ["accumulator"])
AdamSlotVariableNames = collections.namedtuple("AdamSlotVariableNames", ["m", "v"])
FtrlSlotVariableNames = collections.namedtuple("FtrlSlotVariableNames",
                                               ["accumulator", "linear"])
_TABLE_NAME_PREFIX = "tbl_"
_LEN_TABLE_NAME_PREFIX = len(_TABLE_NAME_PREFIX)


def _get_table_name_from_embedding_var_name(embedding_var_name):
    return f"{_TABLE_NAME_PREFIX}{embedding_var_name}"


def _get_embedding_var_name_from_table_name(table_name):
    return table_name[_LEN_TABLE_NAME_PREFIX:]


def _get_embedding_variable_name(scope_name, var_name):
    return f"{scope_name}{'/' if scope_name else ''}{var_name}"


def _get_slot_variable_names(scope_name, var_name, optimization_parameters):
    """The slot variable names of embedding `<scope>/<var>` under the optimizer the TPU
    embedding parameters name (None for SGD; a ValueError for other parameters)."""
    from estimator_compat.tpu.embedding_config import PARAMETER_CLASSES
    name = _get_embedding_variable_name(scope_name, var_name)
    if isinstance(optimization_parameters, PARAMETER_CLASSES["AdagradParameters"]):
        return AdagradSlotVariableNames(f"{name}/Adagrad")
    if isinstance(optimization_parameters, PARAMETER_CLASSES["AdamParameters"]):
        return AdamSlotVariableNames(f"{name}/Adam/m", f"{name}/Adam/v")
    if isinstance(optimization_parameters, PARAMETER_CLASSES["FtrlParameters"]):
        return FtrlSlotVariableNames(f"{name}/Ftrl", f"{name}/Ftrl_1")
    if isinstance(optimization_parameters,
                  PARAMETER_CLASSES["StochasticGradientDescentParameters"]):
        return None
    raise ValueError("Support to infer full variable name for optimization_parameter "
                     f"{optimization_parameters} has not been added.")


def _get_weights_from_features(weight_key_name, features):
    """Pops and returns the SparseTensor of weights `weight_key_name` (None for None)."""
    if weight_key_name is None:
        return None
    if weight_key_name not in features:
        raise ValueError(
            f"Cannot find weights {weight_key_name} for weighted_categorical_column. Please "
            "check if the weights are present in feature dict. Also note weight-sharing among "
            "weighted_categorical_column is not supported on TPU.")
    weights = features.pop(weight_key_name)
    if not isinstance(weights, tf.sparse.SparseTensor):
        raise ValueError(
            f"weighted_categorical_column with weight key name {weight_key_name} has dense "
            "weights. Dense weights are not supported on TPU. Please use sparse weights "
            "instead.")
    return weights


def _get_sparse_feature_from_feature(feature_key, features):
    """Pops and returns feature `feature_key`; a SparseTensor must hold integer ids."""
    feature = features.pop(feature_key)
    if isinstance(feature, tf.sparse.SparseTensor) and not feature.dtype.is_integer:
        raise ValueError(
            "SparseTensor with string as values are not supported. If you are using "
            "categorical_column_with_vocabulary_file or categorical_column_with_vocabulary_list,"
            " please call your_column.categorical_column._transform_feature({your_column.key: "
            "features[your_column.key]}) in your input_fn() to convert string to int. "
            f"feature_key = {feature_key}.")
    return feature


def _maybe_dense_to_sparse(tensor):
    """A SparseTensor as given; a dense tensor's non-zero entries as a SparseTensor."""
    if isinstance(tensor, tf.sparse.SparseTensor):
        return tensor
    indices = tf.compat.v1.where(tensor)
    values = tf.gather_nd(tensor, indices)
    shape = tf.shape(tensor, out_type=tf.int64)
    return tf.sparse.SparseTensor(indices, values, shape)


def _split_tensor(tensor, num_splits):
    """`num_splits` pieces along axis 0 (tf.sparse.split for a SparseTensor)."""
    if isinstance(tensor, tf.sparse.SparseTensor):
        return tf.sparse.split(sp_input=tensor, num_split=num_splits, axis=0)
    return tf.split(tensor, num_splits)


def get_tpu_embedding_columns(feature_columns):
    """The TPU embedding columns among `feature_columns`, in order."""
    from tensorflow.python.tpu import feature_column as tpu_fc
    from tensorflow.python.tpu import feature_column_v2 as tpu_fc_v2
    classes = (tpu_fc._TPUEmbeddingColumn, tpu_fc._TPUSharedEmbeddingColumn,
               tpu_fc_v2._TPUEmbeddingColumnV2, tpu_fc_v2._TPUSharedEmbeddingColumnV2)
    return [column for column in feature_columns if isinstance(column, classes)]
