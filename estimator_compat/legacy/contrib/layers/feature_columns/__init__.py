"""tf.contrib.layers' feature columns, as TF 1.15 built them (variable names, scopes, ordering,
hashed ids, parse specs), on TensorFlow 2's ops.

Where TF 1.15's names live here:
- real_valued_column, sparse_column_with_keys / _hash_bucket / _integerized_feature /
  _vocabulary_file, weighted_sparse_column, one_hot_column, embedding_column,
  shared_embedding_columns, bucketized_column: `columns.py`
- crossed_column (TF 1.15's SparseFeatureCross hashing, both kernels): `crossing.py`
- input_from_feature_columns, weighted_sum_from_feature_columns,
  joint_weighted_sum_from_feature_columns, transform_features, check_feature_columns,
  infer_real_valued_columns: `ops.py`
- create_feature_spec_for_parsing, parse_feature_columns_from_examples,
  make_place_holder_tensors_for_base_features: `parsing.py`
- scattered_embedding_column: `scattered.py`
- sequence_input_from_feature_columns, parse_feature_columns_from_sequence_examples:
  `sequence.py`
- multi_class_target, regression_target (and, in slim, binary_svm_target, ProblemType,
  get_default_binary_metrics_for_eval, target_column): `targets.py`
"""


def names():
    """{TF 1.15 name: value} of the served feature-column names."""
    from estimator_compat.legacy.contrib.layers.feature_columns import (
        columns,
        crossing,
        ops,
        parsing,
        scattered,
        sequence,
        targets,
    )
    served = {n: getattr(columns, n) for n in (
        "real_valued_column", "sparse_column_with_keys", "sparse_column_with_hash_bucket",
        "sparse_column_with_integerized_feature", "sparse_column_with_vocabulary_file",
        "weighted_sparse_column", "one_hot_column", "embedding_column", "bucketized_column",
        "shared_embedding_columns")}
    served["crossed_column"] = crossing.crossed_column
    served.update({n: getattr(ops, n) for n in (
        "input_from_feature_columns", "weighted_sum_from_feature_columns",
        "transform_features", "check_feature_columns", "joint_weighted_sum_from_feature_columns",
        "infer_real_valued_columns")})
    served.update({n: getattr(parsing, n) for n in (
        "create_feature_spec_for_parsing", "parse_feature_columns_from_examples",
        "make_place_holder_tensors_for_base_features")})
    served["scattered_embedding_column"] = scattered.scattered_embedding_column
    served.update({n: getattr(sequence, n) for n in (
        "sequence_input_from_feature_columns", "parse_feature_columns_from_sequence_examples")})
    served.update({n: getattr(targets, n) for n in ("multi_class_target", "regression_target")})
    return served


_COLUMN_NAMES = ("real_valued_column", "sparse_column_with_keys",
                 "sparse_column_with_hash_bucket", "sparse_column_with_integerized_feature",
                 "sparse_column_with_vocabulary_file", "weighted_sparse_column",
                 "one_hot_column", "embedding_column", "shared_embedding_columns",
                 "bucketized_column", "crossed_column", "create_feature_spec_for_parsing",
                 "make_place_holder_tensors_for_base_features", "scattered_embedding_column")
# TF 1.15's python/layers/target_column.py: {name: (our name in targets.py)}
TARGET_NAMES = ("multi_class_target", "regression_target", "binary_svm_target", "ProblemType",
                "get_default_binary_metrics_for_eval")


def module_names(which):
    """The served names of TF 1.15's `python/layers/feature_column.py` ("columns"),
    `feature_column_ops.py` ("ops") or `target_column.py` ("targets"), for their deep import
    paths."""
    served = names()
    if which == "columns":
        return {n: served[n] for n in _COLUMN_NAMES}
    if which == "targets":
        from estimator_compat.legacy.contrib.layers.feature_columns import targets
        return {n: getattr(targets, n) for n in TARGET_NAMES}
    return {n: v for n, v in served.items() if n not in _COLUMN_NAMES + TARGET_NAMES}
