"""The names of tf.contrib.layers / tf.contrib.slim / tf.contrib.framework that estimator_compat
declines, with what replaces them in TensorFlow 2 (registered in `missing.REPLACEMENTS` by the
modules' build(), so their errors say it).

contrib.layers' feature columns and target columns are all served (`layers/feature_columns/`);
slim declines contrib.learn's DataFrameColumn and the removed sparse_feature_cross op module.
"""
_V1_FC = "tf.compat.v1.feature_column"
FEATURE_COLUMNS = {}  # every contrib.layers feature and target column is served
SLIM_ONLY = {
    "DataFrameColumn": "tf.feature_column.numeric_column (contrib.learn's DataFrame is gone)",
    "gen_sparse_feature_cross_op": "tf.sparse.cross / tf.sparse.cross_hashed",
    "sparse_feature_cross_op": "tf.sparse.cross / tf.sparse.cross_hashed",
    "sparse_feature_cross": "tf.sparse.cross / tf.sparse.cross_hashed",
    "loader": "tf.load_op_library",
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
