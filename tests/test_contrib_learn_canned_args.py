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
