"""`tf.estimator.experimental`: early stopping and in-training evaluation hooks."""
from estimator_compat.hooks.early_stopping import (  # noqa: F401
    make_early_stopping_hook, read_eval_metrics, stop_if_higher_hook, stop_if_lower_hook,
    stop_if_no_decrease_hook, stop_if_no_increase_hook)
from estimator_compat.hooks.evaluation import (  # noqa: F401
    InMemoryEvaluatorHook, make_stop_at_checkpoint_step_hook)
