"""`tf.contrib.estimator`: early stopping, the in-memory evaluator and boosted-trees trainers."""
from estimator_compat.legacy.namespaces import namespace


def build():
    from estimator_compat import experimental
    from estimator_compat.canned import boosted_trees
    return namespace(
        "tensorflow.contrib.estimator", "tf.contrib.estimator (early stopping, in-memory "
        "boosted trees)",
        **{n: getattr(experimental, n) for n in (
            "stop_if_higher_hook", "stop_if_lower_hook", "stop_if_no_increase_hook",
            "stop_if_no_decrease_hook", "make_early_stopping_hook", "InMemoryEvaluatorHook")},
        **{n: getattr(boosted_trees, n) for n in (
            "boosted_trees_classifier_train_in_memory",
            "boosted_trees_regressor_train_in_memory")})
