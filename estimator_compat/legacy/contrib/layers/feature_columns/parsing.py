"""Parsing for contrib feature columns: `create_feature_spec_for_parsing` (the columns'
FixedLenFeature / VarLenFeature specs), `parse_feature_columns_from_examples` (parsed and
transformed, keyed by feature name and by column, as TF 1.15) and
`make_place_holder_tensors_for_base_features`."""
import tensorflow as tf

from estimator_compat.legacy.contrib.layers.feature_columns import ops

v1 = tf.compat.v1


def _as_list(feature_columns):
    if isinstance(feature_columns, dict):
        return list(feature_columns.values())
    return list(feature_columns)


def create_feature_spec_for_parsing(feature_columns):
    """{feature name: FixedLenFeature / VarLenFeature} for tf.parse_example."""
    spec = {}
    for column in _as_list(feature_columns):
        if not hasattr(column, "config"):
            raise TypeError("create_feature_spec_for_parsing: expected tf.contrib.layers "
                            f"feature columns, got {type(column).__name__}")
        spec.update(column.config)
    return spec


def parse_feature_columns_from_examples(serialized, feature_columns, name=None,
                                        example_names=None):
    """Parses tf.Examples for `feature_columns`; the dict holds the parsed features (by name)
    and each column's transformed tensor (by column)."""
    columns = _as_list(feature_columns)
    ops.check_feature_columns(columns)
    features = v1.parse_example(serialized, create_feature_spec_for_parsing(columns),
                                name=name, example_names=example_names)
    return ops.transform_all(features, columns)


def make_place_holder_tensors_for_base_features(feature_columns):
    """{feature name: placeholder (FixedLen) or sparse_placeholder (VarLen)}."""
    holders = {}
    for key, spec in create_feature_spec_for_parsing(feature_columns).items():
        if isinstance(spec, tf.io.VarLenFeature):
            holders[key] = v1.sparse_placeholder(spec.dtype, name=key)
        else:
            holders[key] = v1.placeholder(spec.dtype, [None] + list(spec.shape), name=key)
    return holders
