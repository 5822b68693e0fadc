"""tf.contrib.kernel_methods cases (Python 3.7 syntax: they also run in TF 1.15's venv):
RandomFourierFeatureMapper's mapping (its matrix comes from numpy's seeded generator, so the
values compare exactly), sparse_multiclass_hinge_loss's values, reductions and checks
(KernelLinearClassifier: tests/programs/linear_models)."""
import numpy as np
from tf115_cases.recorded_errors import error_type

X = (np.sin(np.arange(12, dtype=np.float32) * 0.7) * 2.0).reshape(3, 4)
LOGITS = np.array([[1.2, -0.3, 0.5], [0.1, 0.4, 0.2], [-1.0, 2.0, 1.5], [0.3, 0.3, 0.3]],
                  np.float32)


def _error(attempt):
    return error_type(attempt, none=None)


def case_random_fourier_features(tf):
    km = tf.contrib.kernel_methods
    mapper = km.RandomFourierFeatureMapper(input_dim=4, output_dim=6, stddev=2.0, seed=3,
                                           name="rffm")
    default = km.RandomFourierFeatureMapper(4, 5)
    x = tf.constant(X)
    return {"mapped": mapper.map(x), "mapped_again": mapper.map(x),
            "default_seed": default.map(x),
            "properties": [mapper.name, mapper.input_dim, mapper.output_dim,
                           isinstance(default.name, str)],
            "errors": [_error(lambda: mapper.map(tf.constant(X[:, :3]))),
                       _error(lambda: mapper.map(tf.constant(X[0])))]}


def case_sparse_multiclass_hinge_loss(tf):
    km = tf.contrib.kernel_methods
    logits = tf.constant(LOGITS)
    labels = tf.constant([0, 2, 1, 1])
    reductions = tf.losses.Reduction
    return {
        "default": km.sparse_multiclass_hinge_loss(labels, logits),
        "weighted": km.sparse_multiclass_hinge_loss(
            tf.constant([[0], [2], [1], [1]], tf.int64), logits,
            weights=tf.constant([1.0, 0.0, 2.0, 0.5])),
        "none": km.sparse_multiclass_hinge_loss(labels, logits, weights=2.0,
                                                reduction=reductions.NONE),
        "sum": km.sparse_multiclass_hinge_loss(labels, logits, reduction=reductions.SUM,
                                               loss_collection=None, scope="my_hinge"),
        "mean": km.sparse_multiclass_hinge_loss(labels, logits, reduction=reductions.MEAN),
        "float64_logits": km.sparse_multiclass_hinge_loss(
            labels, tf.constant(LOGITS.astype(np.float64))),
        "errors": [
            _error(lambda: km.sparse_multiclass_hinge_loss(tf.constant([0.0, 1.0]),
                                                           logits[:2])),
            _error(lambda: km.sparse_multiclass_hinge_loss(labels, tf.constant(LOGITS[0]))),
            _error(lambda: km.sparse_multiclass_hinge_loss(tf.constant([[[0]]]), logits)),
            _error(lambda: km.sparse_multiclass_hinge_loss(
                labels, logits, weights=tf.ones([4, 1, 1])))],
    }

