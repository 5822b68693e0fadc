"""`tf.estimator.experimental`: early stopping and in-training evaluation hooks, logit fns of
the canned models, the supervised receiver, the RNN estimators, KMeans (tf.compat.v1's)."""
from estimator_compat.canned.kmeans import KMeansClustering as KMeans  # noqa: F401
from estimator_compat.canned.linear_sdca import LinearSDCA  # noqa: F401
from estimator_compat.canned.rnn import RNNClassifier, RNNEstimator  # noqa: F401
from estimator_compat.canned.logit_fns import (  # noqa: F401
    call_logit_fn, dnn_logit_fn_builder, linear_logit_fn_builder)
from estimator_compat.export.receivers import build_raw_supervised_input_receiver_fn  # noqa
from estimator_compat.hooks.early_stopping import (  # noqa: F401
    make_early_stopping_hook, read_eval_metrics, stop_if_higher_hook, stop_if_lower_hook,
    stop_if_no_decrease_hook, stop_if_no_increase_hook)
from estimator_compat.hooks.evaluation import (  # noqa: F401
    InMemoryEvaluatorHook, make_stop_at_checkpoint_step_hook)
