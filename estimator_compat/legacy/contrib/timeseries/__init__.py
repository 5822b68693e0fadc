"""`tf.contrib.timeseries` (TF 1.15's `contrib/timeseries/python/timeseries`): the feature
keys, readers, input fns, the autoregressive model, its Estimators and their exports are
served, with the state space models (StructuralEnsembleRegressor) in state_space/.

    TrainEvalFeatures, FilteringResults (+ the other key classes)  feature_keys.py
    NumpyReader, CSVReader (TimeSeriesReader)                      readers.py
    WholeDatasetInputFn, RandomWindowInputFn (TimeSeriesInputFn)   input_fns.py
    predict_continuation_input_fn                                  continuation.py
    numpy series to [batch, length, ...]                           numpy_data.py
    ARModel (FlatPredictionModel)                                  ar_model.py
    TimeSeriesModel, ModelOutputs                                  ts_model.py
    InputStatisticsFromMiniBatch                                   input_statistics.py
    TimeSeriesRegressionHead, OneShotPredictionHead, state managers head.py
    TimeSeriesRegressor, ARRegressor (+ serving receiver fns)      estimators.py
    saved_model_utils                                              saved_model_utils.py
    StructuralEnsembleRegressor, state space models                state_space/

The deep paths `tensorflow.contrib.timeseries.python.timeseries.{feature_keys,
input_pipeline, model_utils, ar_model, estimators, head, model, math_utils,
saved_model_utils, state_management}` import too, with the names served here (model_utils: its
`canonicalize_times_or_steps_from_output`; input_pipeline: no `TFExampleReader`; ar_model:
ARModel, FlatPredictionModel; estimators: TimeSeriesRegressor, ARRegressor; math_utils: the
input statistics, replicate_state, normal_log_prob).
"""
from estimator_compat.legacy.contrib.timeseries import (
    ar_model, continuation, estimators, feature_keys, head, input_fns, input_statistics, readers,
    saved_model_utils, state_space, ts_model)

NAME = "tensorflow.contrib.timeseries"


def build():
    from estimator_compat.legacy.namespaces import namespace
    keys = {name: getattr(feature_keys, name) for name in (
        "State", "Times", "Values", "TrainEvalFeatures", "PredictionFeatures",
        "FilteringFeatures", "PredictionResults", "FilteringResults", "SavedModelLabels")}
    pipeline = dict(
        predict_continuation_input_fn=continuation.predict_continuation_input_fn,
        TimeSeriesReader=readers.TimeSeriesReader, NumpyReader=readers.NumpyReader,
        ReaderBaseTimeSeriesParser=readers.ReaderBaseTimeSeriesParser,
        CSVReader=readers.CSVReader, TimeSeriesInputFn=input_fns.TimeSeriesInputFn,
        WholeDatasetInputFn=input_fns.WholeDatasetInputFn,
        RandomWindowInputFn=input_fns.RandomWindowInputFn)
    utils = dict(predict_continuation=saved_model_utils.predict_continuation,
                 cold_start_filter=saved_model_utils.cold_start_filter,
                 filter_continuation=saved_model_utils.filter_continuation)
    deep = dict(
        feature_keys=namespace(NAME + ".python.timeseries.feature_keys", feature_keys.__doc__,
                               **keys),
        input_pipeline=namespace(NAME + ".python.timeseries.input_pipeline", readers.__doc__,
                                 **pipeline),
        model_utils=namespace(NAME + ".python.timeseries.model_utils", continuation.__doc__,
                              canonicalize_times_or_steps_from_output=(
                                  continuation.canonicalize_times_or_steps_from_output)),
        ar_model=namespace(NAME + ".python.timeseries.ar_model", ar_model.__doc__,
                           ARModel=ar_model.ARModel,
                           AnomalyMixtureARModel=estimators.AnomalyMixtureARModel,
                           FlatPredictionModel=ar_model.FlatPredictionModel),
        estimators=namespace(NAME + ".python.timeseries.estimators", estimators.__doc__,
                             TimeSeriesRegressor=estimators.TimeSeriesRegressor,
                             ARRegressor=estimators.ARRegressor),
        head=namespace(NAME + ".python.timeseries.head", head.__doc__,
                       TimeSeriesRegressionHead=head.TimeSeriesRegressionHead,
                       OneShotPredictionHead=head.OneShotPredictionHead,
                       state_to_dictionary=head.state_to_dictionary),
        model=namespace(NAME + ".python.timeseries.model", ts_model.__doc__,
                        TimeSeriesModel=ts_model.TimeSeriesModel,
                        ModelOutputs=ts_model.ModelOutputs),
        math_utils=namespace(
            NAME + ".python.timeseries.math_utils", input_statistics.__doc__,
            InputStatistics=input_statistics.InputStatistics, Moments=input_statistics.Moments,
            InputStatisticsFromMiniBatch=input_statistics.InputStatisticsFromMiniBatch,
            replicate_state=ts_model.replicate_state, normal_log_prob=ar_model.normal_log_prob),
        saved_model_utils=namespace(NAME + ".python.timeseries.saved_model_utils",
                                    saved_model_utils.__doc__, **utils),
        state_management=namespace(
            NAME + ".python.timeseries.state_management", head.__doc__,
            PassthroughStateManager=head.PassthroughStateManager,
            FilteringOnlyStateManager=head.FilteringOnlyStateManager))
    timeseries = namespace(NAME + ".python.timeseries", "contrib.timeseries' modules", **deep)
    python = namespace(NAME + ".python", "contrib.timeseries.python", timeseries=timeseries)
    return namespace(
        NAME, __doc__, __served_whole__=True, python=python,
        TrainEvalFeatures=feature_keys.TrainEvalFeatures,
        FilteringResults=feature_keys.FilteringResults,
        NumpyReader=readers.NumpyReader, CSVReader=readers.CSVReader,
        WholeDatasetInputFn=input_fns.WholeDatasetInputFn,
        RandomWindowInputFn=input_fns.RandomWindowInputFn,
        predict_continuation_input_fn=continuation.predict_continuation_input_fn,
        ARModel=ar_model.ARModel, ARRegressor=estimators.ARRegressor,
        TimeSeriesRegressor=estimators.TimeSeriesRegressor,
        OneShotPredictionHead=head.OneShotPredictionHead,
        **state_space.served(namespace, NAME),
        saved_model_utils=namespace(NAME + ".saved_model_utils", saved_model_utils.__doc__,
                                    **utils))
