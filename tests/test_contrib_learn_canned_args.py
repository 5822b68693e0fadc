"""tf.contrib.learn's canned estimators' training arguments against TF 1.15.5's record of the
same cases (tests/tf115_cases/contrib_learn_canned_args.py): gradient_clip_norm (the linear
models' weights and loss, each part of wide & deep clipped by its own norm, an int refused by
the DNN's optimize_loss), embedding_lr_multipliers' errors, input_layer_min_slice_size's
unchanged checkpoint."""
from tf115_cases import harness

CASES = "contrib_learn_canned_args"

ours, test_case_matches_tf115 = harness.case_tests(CASES)


def test_clipping_changes_the_trained_weights(ours):
    """The data and clip norms are ones where clipping shows: the same cases without it train
    other weights (in TF 1.15's record and here)."""
    recorded = harness.recorded(CASES)
    for name in ("linear_regressor_gradient_clip_norm", "linear_classifier_gradient_clip_norm",
                 "linear_only_combined_regressor_gradient_clip_norm"):
        assert recorded[name]["values"]["clipping_changed_weights"] is True
        assert ours[name]["values"]["clipping_changed_weights"] is True
    # one gradient descent step of each part: learning rate x clip norm
    steps = ours["combined_classifier_clips_each_part"]["values"]
    assert abs(steps["dnn/"] - 2.0 * 0.01) < 1e-5 and abs(steps["linear/"] - 0.5 * 0.01) < 1e-5


def test_embedding_lr_multipliers_scale_a_contrib_embedding_columns_variables():
    """TF 1.15 mapped a tf.contrib.layers embedding column to the variables under
    `dnn/input_from_feature_columns/<column name>` and multiplied their gradients before
    clipping (optimize_loss's order)."""
    import numpy as np
    import tensorflow as tf

    from estimator_compat.learn.canned_training import TrainOptions
    from estimator_compat.legacy.contrib.layers.feature_columns import columns
    v1 = tf.compat.v1
    column = columns.embedding_column(columns.sparse_column_with_keys("w", ["a", "b"]), 2)
    with tf.Graph().as_default():
        with v1.variable_scope(f"dnn/input_from_feature_columns/{column.name}"):
            embedding = v1.get_variable("weights", initializer=tf.zeros([2, 2]))
        other = v1.get_variable("dnn/hiddenlayer_0/kernel", initializer=tf.zeros([2]))
        loss = tf.reduce_sum(embedding) + tf.reduce_sum(other)
        plain = v1.train.GradientDescentOptimizer(1.0)
        scaled = TrainOptions(plain, embedding_lr_multipliers={column: 3.0})
        both = TrainOptions(plain, clip=1.0, embedding_lr_multipliers={column: 3.0})
        with v1.Session() as sess:
            grads = sess.run([g for g, _ in scaled.compute_gradients(loss)])
            clipped = sess.run([g for g, _ in both.compute_gradients(loss)])
    np.testing.assert_allclose(grads[0], np.full([2, 2], 3.0))
    np.testing.assert_allclose(grads[1], np.ones([2]))
    norm = np.sqrt(4 * 9.0 + 2)
    np.testing.assert_allclose(clipped[0], np.full([2, 2], 3.0 / norm), rtol=1e-6)
    np.testing.assert_allclose(clipped[1], np.ones([2]) / norm, rtol=1e-6)
