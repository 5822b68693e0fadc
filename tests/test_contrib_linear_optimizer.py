"""tf.contrib.linear_optimizer against TF 1.15.5 (tests/tf115_cases/
contrib_linear_optimizer.py): SdcaModel with each loss (converged weights, losses,
predictions, duality gap), partitioned weights, its checkpointed state tables,
SDCAOptimizer's train step over contrib.layers columns, SparseFeatureColumn, misuse; each
case with TF 1.x reference variables and again with TensorFlow 2's resource variables."""
from tf115_cases import harness

MODULE = "contrib_linear_optimizer"


ours, ours_resource, test_case_matches_tf115 = harness.case_tests_both_variable_kinds(MODULE)


def test_linear_models_program_trains_as_tf115():
    """tests/programs/linear_models through `estimator-compat run`: contrib.learn's
    LinearClassifier and LinearRegressor trained by SDCAOptimizer, and KernelLinearClassifier
    (RandomFourierFeatureMapper, FTRL), against the same program's TF 1.15.5 results
    (tf115_result.json). SDCA visits examples in a random order: the classifier gave the same
    metrics in each TF 1.15 run, the regressor's loss 0.169 to 0.177 at 30 steps (here too);
    FTRL is deterministic. Checkpoint names are TF 1.15's exactly."""
    import json
    import os

    import numpy as np
    from helpers import PROGRAMS, run_program
    here = os.path.join(PROGRAMS, "linear_models")
    out, _ = run_program(os.path.join(here, "linear_models.py"))
    ours = json.loads([x for x in out.splitlines() if x.startswith("RESULT ")][-1][7:])
    with open(os.path.join(here, "tf115_result.json")) as f:
        theirs = json.load(f)
    for model in ("classifier", "regressor", "kernel"):
        assert ours[model]["variables"] == theirs[model]["variables"], model
        assert sorted(ours[model]["results"]) == sorted(theirs[model]["results"]), model
    classifier, tf115 = ours["classifier"]["results"], theirs["classifier"]["results"]
    for key in ("accuracy", "auc", "loss", "labels/prediction_mean"):
        assert abs(classifier[key] - tf115[key]) < 0.01, key
    assert abs(ours["regressor"]["results"]["loss"] - 0.173) < 0.01
    kernel, tf115 = ours["kernel"], theirs["kernel"]
    for key in ("accuracy", "loss"):
        assert abs(kernel["results"][key] - tf115["results"][key]) < 1e-3, key
    assert kernel["classes"] == tf115["classes"]
    np.testing.assert_allclose(kernel["probabilities"], tf115["probabilities"], atol=1e-4)
