"""The names of tf.contrib.layers / tf.contrib.slim / tf.contrib.framework that estimator_compat
declines, with what replaces them in TensorFlow 2 (registered in `missing.REPLACEMENTS` by the
modules' build(), so their errors say it).

contrib.layers' feature columns are served (`layers/feature_columns/`) but for these:
scattered embeddings (the removed scattered-lookup hashing), sequence inputs and
sequence-example parsing, and the target columns (contrib.learn's heads, gone with it);
`tf.feature_column` does their job with its own names.
"""
_V1_FC = "tf.compat.v1.feature_column"
FEATURE_COLUMNS = {
    "scattered_embedding_column":
        "tf.feature_column.embedding_column of a categorical_column_with_hash_bucket",
    "sequence_input_from_feature_columns":
        "tf.feature_column.sequence_* columns with tf.keras's SequenceFeatures",
    "parse_feature_columns_from_sequence_examples":
        "tf.io.parse_sequence_example with tf.feature_column.make_parse_example_spec",
    "multi_class_target": "tf.estimator.MultiClassHead (contrib's target columns are gone)",
    "regression_target": "tf.estimator.RegressionHead (contrib's target columns are gone)",
}
SLIM_ONLY = {
    "DataFrameColumn": "tf.feature_column.numeric_column (contrib.learn's DataFrame is gone)",
    "ProblemType": "tf.estimator heads (BinaryClassHead, MultiClassHead, RegressionHead)",
    "binary_svm_target": "tf.estimator.BinaryClassHead with a hinge loss_fn",
    "get_default_binary_metrics_for_eval": "tf.estimator.BinaryClassHead's metrics",
    "target_column": "tf.estimator heads (BinaryClassHead, MultiClassHead, RegressionHead)",
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
