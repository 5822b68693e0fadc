"""tf.contrib.metrics against TF 1.15.5's record (tests/tf115_cases/contrib_metrics.py): each
metric's local variable names, its update and value over a two-batch stream."""

from tf115_cases import harness

MODULE = "contrib_metrics"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def test_deep_import_paths_of_the_math_modules():
    """The TF 1.15 module paths programs imported from resolve to the served names."""
    import importlib

    from estimator_compat.legacy import tf1_view
    contrib = tf1_view.build().contrib
    for path, name, served in [
            ("metrics.python.ops.metric_ops", "streaming_pearson_correlation", contrib.metrics),
            ("metrics.python.metrics.classification", "f1_score", contrib.metrics),
            ("opt.python.training.weight_decay_optimizers", "AdamWOptimizer", contrib.opt),
            ("opt.python.training.lazy_adam_optimizer", "LazyAdamOptimizer", contrib.opt),
            ("losses.python.losses.loss_ops", "log_loss", contrib.losses),
            ("losses.python.metric_learning.metric_loss_ops", "triplet_semihard_loss",
             contrib.losses.metric_learning),
            ("image.python.ops.image_ops", "rotate", contrib.image),
            ("image.python.ops.dense_image_warp", "dense_image_warp", contrib.image)]:
        module = importlib.import_module("tensorflow.contrib." + path)
        assert getattr(module, name) is getattr(served, name), path
