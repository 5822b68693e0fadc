"""tf.contrib.losses against TF 1.15.5's record (tests/tf115_cases/contrib_losses.py): values,
op names (`<scope>/value`), the LOSSES / REGULARIZATION_LOSSES collections and
metric_learning's losses; npairs_loss_multilabel (NaN in TF 1.15.5 for every input we tried)
against npairs_loss and a hand-computed multi-label case."""
import numpy as np

from tf115_cases import harness

MODULE = "contrib_losses"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def test_npairs_loss_multilabel():
    import tensorflow as tf

    from estimator_compat.legacy.contrib.losses import metric_learning as ml
    anchors = np.array([[0.1, 0.9], [0.8, 0.1], [0.4, 0.4]], np.float32)
    positives = np.array([[0.2, 0.8], [0.9, 0.2], [0.3, 0.7]], np.float32)

    def sparse(ids):
        return tf.SparseTensor([[i] for i in range(len(ids))], tf.constant(ids, tf.int64),
                               [len(ids)])
    single = ml.npairs_loss_multilabel([sparse([0]), sparse([1]), sparse([0])], anchors,
                                       positives)
    reference = ml.npairs_loss(tf.constant([0, 1, 0]), anchors, positives)
    np.testing.assert_allclose(single.numpy(), reference.numpy(), rtol=1e-6)

    multi = ml.npairs_loss_multilabel([sparse([0, 3]), sparse([1]), sparse([2, 1])], anchors,
                                      positives, reg_lambda=0.0)
    targets = np.array([[1, 0, 0], [0, .5, .5], [0, .5, .5]])
    logits = anchors @ positives.T
    log_softmax = logits - np.log(np.exp(logits).sum(1, keepdims=True))
    np.testing.assert_allclose(multi.numpy(), -(targets * log_softmax).sum(1).mean(), rtol=1e-5)
