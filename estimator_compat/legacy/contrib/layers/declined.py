"""The names of tf.contrib.layers / tf.contrib.slim / tf.contrib.framework that estimator_compat
declines, with what replaces them in TensorFlow 2 (registered in `missing.REPLACEMENTS` by the
modules' build(), so their errors say it).

contrib.layers' own feature columns (`real_valued_column`, `input_from_feature_columns`, ...)
are declined: their variables (`input_from_feature_columns/<col>_embedding/weights`,
`weighted_sum_from_feature_columns/<col>/weights`), hashing and crosses (the removed
SparseFeatureCross kernel's fingerprints) have no TensorFlow 2 counterpart that reproduces them;
`tf.feature_column` does the same job with its own names.
"""
_V1_FC = "tf.compat.v1.feature_column"
FEATURE_COLUMNS = {
    "real_valued_column": "tf.feature_column.numeric_column(key, shape=(dimension,))",
    "sparse_column_with_keys": "tf.feature_column.categorical_column_with_vocabulary_list",
    "sparse_column_with_hash_bucket": "tf.feature_column.categorical_column_with_hash_bucket",
    "sparse_column_with_integerized_feature":
        "tf.feature_column.categorical_column_with_identity",
    "sparse_column_with_vocabulary_file":
        "tf.feature_column.categorical_column_with_vocabulary_file",
    "weighted_sparse_column": "tf.feature_column.weighted_categorical_column",
    "embedding_column": "tf.feature_column.embedding_column",
    "shared_embedding_columns": f"{_V1_FC}.shared_embedding_columns",
    "scattered_embedding_column":
        "tf.feature_column.embedding_column of a categorical_column_with_hash_bucket",
    "one_hot_column": "tf.feature_column.indicator_column",
    "bucketized_column": "tf.feature_column.bucketized_column",
    "crossed_column": "tf.feature_column.crossed_column",
    "input_from_feature_columns": f"{_V1_FC}.input_layer (tf.feature_column columns)",
    "sequence_input_from_feature_columns":
        "tf.feature_column.sequence_* columns with tf.keras's SequenceFeatures",
    "weighted_sum_from_feature_columns": f"{_V1_FC}.linear_model",
    "joint_weighted_sum_from_feature_columns": f"{_V1_FC}.linear_model",
    "transform_features": f"{_V1_FC}.input_layer on tf.feature_column columns",
    "check_feature_columns": f"tf.feature_column columns (checked by {_V1_FC}.input_layer)",
    "create_feature_spec_for_parsing": "tf.feature_column.make_parse_example_spec",
    "parse_feature_columns_from_examples":
        "tf.io.parse_example(serialized, tf.feature_column.make_parse_example_spec(columns))",
    "parse_feature_columns_from_sequence_examples":
        "tf.io.parse_sequence_example with tf.feature_column.make_parse_example_spec",
    "infer_real_valued_columns": "a tf.feature_column.numeric_column per input feature",
    "make_place_holder_tensors_for_base_features":
        "a tf.compat.v1.placeholder per tf.feature_column.make_parse_example_spec entry",
    "multi_class_target": "tf.estimator.MultiClassHead (contrib's target columns are gone)",
    "regression_target": "tf.estimator.RegressionHead (contrib's target columns are gone)",
    "feature_column": "tf.feature_column",
}
SLIM_ONLY = {
    "DataFrameColumn": "tf.feature_column.numeric_column (contrib.learn's DataFrame is gone)",
    "ProblemType": "tf.estimator heads (BinaryClassHead, MultiClassHead, RegressionHead)",
    "binary_svm_target": "tf.estimator.BinaryClassHead with a hinge loss_fn",
    "get_default_binary_metrics_for_eval": "tf.estimator.BinaryClassHead's metrics",
    "target_column": "tf.estimator heads (BinaryClassHead, MultiClassHead, RegressionHead)",
    "fc": "tf.feature_column", "feature_column_ops": "tf.compat.v1.feature_column",
    "gen_sparse_feature_cross_op": "tf.sparse.cross / tf.sparse.cross_hashed",
    "sparse_feature_cross_op": "tf.sparse.cross / tf.sparse.cross_hashed",
    "sparse_feature_cross": "tf.sparse.cross / tf.sparse.cross_hashed",
    "loader": "tf.load_op_library",
    "scattered_embedding_lookup":
        "tf.nn.embedding_lookup on tf.strings.to_hash_bucket_fast ids",
    "scattered_embedding_lookup_sparse":
        "tf.nn.embedding_lookup_sparse on tf.strings.to_hash_bucket_fast ids",
}
FRAMEWORK = {
    "fuse_op": "tf.function (grappler fuses ops; contrib's GraphDef op fusion is gone)",
    "load_linear_multiclass_bias_initializer":
        "tf.compat.v1.train.warm_start with a VocabInfo (tf.estimator.WarmStartSettings)",
    "load_variable_slot_initializer":
        "tf.compat.v1.train.warm_start with a VocabInfo (tf.estimator.WarmStartSettings)",
}


def register(module):
    """Adds `module`'s declined names ("layers", "slim" or "framework") to missing.REPLACEMENTS."""
    from estimator_compat.legacy.contrib import missing
    tables = {"layers": [FEATURE_COLUMNS], "slim": [FEATURE_COLUMNS, SLIM_ONLY],
              "framework": [FRAMEWORK]}[module]
    for table in tables:
        for name, replacement in table.items():
            missing.REPLACEMENTS.setdefault(f"{module}.{name}", replacement)
