"""contrib.layers / slim scattered embeddings (lookups and scattered_embedding_column), sequence
inputs from feature columns, SequenceExample parsing and the target columns against TF 1.15.5's
record (tests/tf115_cases/contrib_layers_fc_seq.py): hashed ids' values, variable names, shapes,
collections (metric variables included), losses, eval metrics and the errors of misuse."""
import importlib

from tf115_cases import harness

MODULE = "contrib_layers_fc_seq"

ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def test_names_are_served_at_tf115s_paths():
    from estimator_compat.legacy import tf1_view
    contrib = tf1_view.build().contrib
    ops = importlib.import_module("tensorflow.contrib.layers.python.layers.embedding_ops")
    assert contrib.slim.scattered_embedding_lookup is ops.scattered_embedding_lookup
    assert (contrib.slim.scattered_embedding_lookup_sparse
            is ops.scattered_embedding_lookup_sparse)
    columns = importlib.import_module("tensorflow.contrib.layers.python.layers.feature_column")
    assert columns.scattered_embedding_column is contrib.layers.scattered_embedding_column
    column_ops = importlib.import_module(
        "tensorflow.contrib.layers.python.layers.feature_column_ops")
    for name in ("sequence_input_from_feature_columns",
                 "parse_feature_columns_from_sequence_examples"):
        assert getattr(column_ops, name) is getattr(contrib.layers, name)
        assert getattr(contrib.slim, name) is getattr(contrib.layers, name)
    targets = importlib.import_module("tensorflow.contrib.layers.python.layers.target_column")
    assert contrib.slim.target_column is targets
    for name in ("multi_class_target", "regression_target"):
        assert getattr(targets, name) is getattr(contrib.layers, name)
    for name in ("binary_svm_target", "ProblemType", "get_default_binary_metrics_for_eval"):
        assert getattr(targets, name) is getattr(contrib.slim, name)
