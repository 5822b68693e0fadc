"""`canned.*`: the canned estimators (V2 classes as `...V2`, tf.compat.v1.estimator's as the
plain names, as tensorflow_estimator defined them), their logit fn builders, optimizers,
parsing specs, keys, KMeans, RNN, and `canned.head` (the v1 head API, canned/v1_heads.py)."""


def modules():
    from estimator_compat import canned, experimental
    from estimator_compat.canned import (head_helpers, keys, kmeans, linear_sdca, logit_fns,
                                         rnn, v1, v1_head_metrics, v1_heads)
    from estimator_compat.canned import parsing_utils as parsing
    from estimator_compat.legacy.estimator_tree import optimizers
    from estimator_compat.legacy.estimator_tree.reasons import names
    heads_v1 = names(v1_heads, "LossSpec", "_Head", "_summary_key",
                     "_BinaryLogisticHeadWithSigmoidCrossEntropyLoss",
                     "_MultiClassHeadWithSoftmaxCrossEntropyLoss",
                     "_RegressionHeadWithMeanSquaredErrorLoss",
                     "_binary_logistic_head_with_sigmoid_cross_entropy_loss",
                     "_multi_class_head_with_softmax_cross_entropy_loss", "_regression_head",
                     "_binary_logistic_or_multi_class_head")
    heads_v1.update(names(v1_head_metrics, "_accuracy_at_threshold", "_accuracy_baseline",
                          "_append_update_ops", "_assert_range", "_auc",
                          "_indicator_labels_mean", "_precision_at_threshold",
                          "_predictions_mean", "_recall_at_threshold"))
    heads_v1.update({f"_{n}": getattr(head_helpers, n) for n in (  # shared with base_head
        "all_class_ids", "all_classes", "call_loss_fn",
        "check_dense_labels_match_logits_and_reshape", "check_logits_final_dim",
        "classification_output", "create_eval_metrics_tuple",
        "get_weights_and_check_match_logits", "validate_loss_fn_args", "validate_n_classes")})

    def family(base):  # e.g. DNNClassifier (v1), DNNClassifierV2 (tf.estimator's)
        out = {}
        for kind in ("Classifier", "Regressor", "Estimator"):
            out[base + kind] = getattr(v1, base + kind)
            out[base + kind + "V2"] = getattr(canned, base + kind)
        return out

    return {
        "canned": {}, "canned.v1": {},
        "canned.head": heads_v1,
        "canned.baseline": dict(family("Baseline"), **_canned_privates("baseline")),
        "canned.dnn": dict(family("DNN"), dnn_logit_fn_builder=logit_fns.dnn_logit_fn_builder,
                           dnn_logit_fn_builder_v2=logit_fns.dnn_logit_fn_builder_v2,
                           **_imported_privates("dnn"), **_canned_privates("dnn")),
        "canned.linear": dict(family("Linear"), LinearSDCA=linear_sdca.LinearSDCA,
                              linear_logit_fn_builder=logit_fns.linear_logit_fn_builder,
                              linear_logit_fn_builder_v2=logit_fns.linear_logit_fn_builder,
                              **_imported_privates("linear"), **_canned_privates("linear")),
        "canned.dnn_linear_combined": dict(family("DNNLinearCombined"),
                                           **_imported_privates("dnn_linear_combined"),
                                           **_canned_privates("dnn_linear_combined")),
        "canned.metric_keys": dict(MetricKeys=keys.MetricKeys),
        "canned.prediction_keys": dict(PredictionKeys=keys.PredictionKeys),
        "canned.optimizers": dict(
            get_optimizer_instance=optimizers.get_optimizer_instance,
            get_optimizer_instance_v2=optimizers.get_optimizer_instance_v2,
            _optimizer_has_default_learning_rate=optimizers.has_default_learning_rate),
        "canned.parsing_utils": dict(
            classifier_parse_example_spec=parsing.classifier_parse_example_spec,
            regressor_parse_example_spec=parsing.regressor_parse_example_spec,
            classifier_parse_example_spec_v2=parsing.classifier_parse_example_spec,
            regressor_parse_example_spec_v2=parsing.regressor_parse_example_spec,
            _add_label_and_weight_to_parsing_spec=_add_label_and_weight_to_parsing_spec),
        "canned.kmeans": dict(KMeansClustering=experimental.KMeans,
                              _LossRelativeChangeHook=kmeans._LossRelativeChangeHook,
                              _ModelFn=kmeans._ModelFn,
                              **_canned_privates("kmeans")),
        "canned.rnn": dict(RNNClassifier=rnn.RNNClassifier, RNNEstimator=rnn.RNNEstimator,
                           RNNModel=rnn.RNNModel, USE_DEFAULT=rnn.USE_DEFAULT,
                           **_canned_privates("rnn")),
        "canned.saved_model_estimator": _saved_model_estimator(),
        "canned.linear_optimizer": {}, "canned.linear_optimizer.python": {},
        "canned.linear_optimizer.python.utils": {},
        **_sdca_utils(),
        "canned.timeseries": {},
        **{f"canned.timeseries.{m}": {} for m in (
            "ar_model", "estimators", "head", "math_utils", "model", "saved_model_utils",
            "state_management")},
        **_timeseries(),
    }


def _timeseries():
    """canned.timeseries' feature keys, model_utils' time canonicalization, TimeSeriesRegressor
    with its heads, model base, input statistics, state managers and saved_model_utils (those
    of tf.contrib.timeseries, legacy/contrib/timeseries/), with 2.15's privates code imported;
    2.15's LSTM ARModel and LSTMAutoRegressor (timeseries/lstm_prediction.py)."""
    from estimator_compat.legacy.contrib.timeseries import (
        continuation, estimators, feature_keys, fully_connected, head, input_statistics,
        lstm_prediction, numpy_data, saved_model_utils, ts_model)
    return {
        "canned.timeseries.estimators": dict(TimeSeriesRegressor=estimators.TimeSeriesRegressor,
                                             LSTMAutoRegressor=estimators.LSTMAutoRegressor),
        "canned.timeseries.ar_model": dict(ARModel=lstm_prediction.ARModel,
                                           LSTMPredictionModel=(
                                               lstm_prediction.LSTMPredictionModel)),
        "canned.timeseries.head": dict(
            TimeSeriesRegressionHead=head.TimeSeriesRegressionHead,
            OneShotPredictionHead=head.OneShotPredictionHead,
            state_to_dictionary=head.state_to_dictionary,
            _NoStatePredictOutput=head._NoStatePredictOutput,
            _check_feature_shapes_compatible_with=head._check_feature_shapes_compatible_with,
            _check_train_eval_features=head._check_train_eval_features,
            _identity_metric_nested=head._identity_metric_nested,
            _identity_metric_single=head._identity_metric_single),
        "canned.timeseries.saved_model_utils": dict(
            predict_continuation=saved_model_utils.predict_continuation,
            cold_start_filter=saved_model_utils.cold_start_filter,
            filter_continuation=saved_model_utils.filter_continuation,
            _canonicalize_numpy_data=numpy_data.canonicalize,
            _colate_features_to_feeds_and_fetches=saved_model_utils._feeds_and_fetches),
        "canned.timeseries.math_utils": dict(
            InputStatistics=input_statistics.InputStatistics,
            InputStatisticsFromMiniBatch=input_statistics.InputStatisticsFromMiniBatch,
            Moments=input_statistics.Moments, replicate_state=ts_model.replicate_state),
        "canned.timeseries.model": dict(ModelOutputs=ts_model.ModelOutputs,
                                        TimeSeriesModel=ts_model.TimeSeriesModel),
        "canned.timeseries.state_management": dict(
            FilteringOnlyStateManager=head.FilteringOnlyStateManager,
            PassthroughStateManager=head.PassthroughStateManager,
            _OverridableStateManager=head._OverridableStateManager),
        "canned.timeseries.feature_keys": {name: getattr(feature_keys, name) for name in (
            "FilteringFeatures", "FilteringResults", "PredictionFeatures",
            "PredictionResults", "SavedModelLabels", "State", "Times", "TrainEvalFeatures",
            "Values")},
        "canned.timeseries.model_utils": dict(
            canonicalize_times_or_steps_from_output=(
                continuation.canonicalize_times_or_steps_from_output),
            fully_connected=fully_connected.fully_connected),
    }


def _imported_privates(module):
    """The private helpers of canned.<module> that public code imported (found by code
    search; legacy/estimator_tree/imported_privates.py, canned/v1_model_fns.py)."""
    from estimator_compat.canned import v1_model_fns as fns
    from estimator_compat.legacy.estimator_tree import imported_privates as p
    return {
        "dnn": dict(_dnn_model_fn=fns._dnn_model_fn,
                    _add_hidden_layer_summary=p._add_hidden_layer_summary,
                    _name_from_scope_name=p._name_from_scope_name),
        "linear": dict(_linear_model_fn=fns._linear_model_fn,
                       _compute_fraction_of_zero=p._compute_fraction_of_zero,
                       _get_expanded_variable_list=p._get_expanded_variable_list,
                       _get_default_optimizer=p._get_default_optimizer),
        "dnn_linear_combined": dict(
            _dnn_linear_combined_model_fn=fns._dnn_linear_combined_model_fn,
            _add_layer_summary=p._add_hidden_layer_summary,
            _linear_learning_rate=p._linear_learning_rate,
            _check_no_sync_replicas_optimizer=p._check_no_sync_replicas_optimizer),
    }[module]


def _sdca_utils():
    """canned.linear_optimizer.python.utils' hash tables, sparse feature and SDCA solver
    (sdca_tables.py, sdca_model.py)."""
    from estimator_compat.legacy.estimator_tree import sdca_model
    from estimator_compat.legacy.estimator_tree import sdca_tables as t
    from estimator_compat.legacy.estimator_tree.reasons import names
    utils = "canned.linear_optimizer.python.utils."
    return {utils + "sdca_ops": dict(names(t, "_SparseFeatureColumn"),
                                     _SDCAModel=sdca_model._SDCAModel),
            utils + "sharded_mutable_dense_hashtable": names(
                t, "_MutableDenseHashTable", "_ShardedMutableDenseHashTable")}


def _canned_privates(module):
    """canned.<module>'s private model_fns, builders and checks (estimator_tree/
    canned_model_fn_privates.py, canned_checks.py, rnn_privates.py, canned_keras_models.py)."""
    from estimator_compat.legacy.estimator_tree import canned_checks as checks
    from estimator_compat.legacy.estimator_tree import canned_keras_models as keras_models
    from estimator_compat.legacy.estimator_tree import canned_model_fn_privates as fns
    from estimator_compat.legacy.estimator_tree import rnn_privates, sdca_model
    from estimator_compat.legacy.estimator_tree.reasons import names
    return {
        "baseline": dict(
            names(fns, "_baseline_logit_fn_builder", "_baseline_model_fn",
                  "_baseline_model_fn_builder_v2", "_baseline_model_fn_v2"),
            **names(checks, "_get_batch_size_and_size_checks", "_get_weight_column_key",
                    "_get_weight_column_key_v2")),
        "dnn": dict(names(fns, "_dnn_model_fn_builder_v2", "_get_dnn_estimator_spec",
                          "dnn_model_fn_v2"), **names(keras_models, "_DNNModel", "_DNNModelV2"),
                    **names(checks, "_get_previous_name_scope", "_validate_features")),
        "linear": dict(
            names(fns, "_linear_model_fn_builder_v2", "_linear_model_fn_v2", "_sdca_model_fn"),
            _SDCAUpdateWeightsHook=sdca_model._SDCAUpdateWeightsHook,
            **names(keras_models, "LinearModel", "_LinearModelLayer"),
            **names(checks, "_get_default_optimizer_v2",
                    "_validate_linear_sdca_optimizer_for_linear_classifier",
                    "_validate_linear_sdca_optimizer_for_linear_regressor")),
        "dnn_linear_combined": dict(
            names(fns, "_dnn_linear_combined_model_fn_v2",
                  "_init_dnn_linear_combined_estimator"),
            **names(checks, "_validate_feature_columns")),
        "kmeans": names(checks, "_parse_features_if_necessary", "_InitializeClustersHook"),
        "rnn": names(rnn_privates, "_get_rnn_estimator_spec", "_make_rnn_cell_fn",
                     "_make_rnn_layer", "_single_rnn_cell", "_verify_rnn_cell_input"),
    }[module]


def _add_label_and_weight_to_parsing_spec(parsing_spec, label_key, label_spec,
                                          weight_column=None):
    """A copy of `parsing_spec` with the label's spec and the weight column's (a key is a
    float numeric column of one value)."""
    import tensorflow as tf
    spec = dict(parsing_spec)
    if label_key in spec:
        raise ValueError(f"label should not be used as feature: label_key {label_key!r} is "
                         f"in the parsing spec: {sorted(spec)}")
    spec[label_key] = label_spec
    if weight_column is not None:
        if isinstance(weight_column, str):
            weight_column = tf.feature_column.numeric_column(weight_column)
        spec.update(tf.compat.v1.feature_column.make_parse_example_spec([weight_column]))
    return spec


DECLINED = {}


def _saved_model_estimator():
    """SavedModelEstimator and 2.15's private helpers of its module."""
    from estimator_compat.legacy.contrib.estimator import saved_model_estimator as module
    return {n: getattr(module, n) for n in (
        "SavedModelEstimator", "_check_same_dtype_and_shape", "_clear_saved_model_collections",
        "_extract_eval_metrics", "_generate_input_map", "_get_saved_model_ckpt",
        "_validate_and_extract_outputs")}
