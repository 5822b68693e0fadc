"""The names of tf.contrib.layers / tf.contrib.slim / tf.contrib.framework that estimator_compat
declines, with what replaces them in TensorFlow 2 (registered in `missing.REPLACEMENTS` by the
modules' build(), so their errors say it).

contrib.layers' feature columns and target columns are all served (`layers/feature_columns/`);
slim's DataFrameColumn is `contrib/dataframe_column.py`, its sparse_feature_cross and the op
modules `contrib/sparse_feature_cross.py`: slim declines nothing now.
"""
_V1_FC = "tf.compat.v1.feature_column"
FEATURE_COLUMNS = {}  # every contrib.layers feature and target column is served
SLIM_ONLY = {}  # every slim name is served
FRAMEWORK = {}  # every framework name is served


def register(module):
    """Adds `module`'s declined names ("layers", "slim" or "framework") to missing.REPLACEMENTS."""
    from estimator_compat.legacy.contrib import missing
    tables = {"layers": [FEATURE_COLUMNS], "slim": [FEATURE_COLUMNS, SLIM_ONLY],
              "framework": [FRAMEWORK]}[module]
    for table in tables:
        for name, replacement in table.items():
            missing.REPLACEMENTS.setdefault(f"{module}.{name}", replacement)
