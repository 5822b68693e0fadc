"""tf.contrib.distributions' scalar, discrete and meta distributions and its functions against
TF 1.15.5 (tests/tf115_cases/contrib_distributions_scalar.py): each statistic on fixed inputs,
shapes, parameter names, KL divergences, validate_args / allow_nan_stats errors, sample shapes
and means, the moving statistics' variables."""
from tf115_cases import harness

MODULE = "contrib_distributions_scalar"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def test_mixture_density_program_fits_as_tf115(tmp_path):
    """tests/programs/distributions (a tf.estimator model_fn: MixtureSameFamily(Categorical,
    Normal) for a bimodal target, Poisson(log_rate) for counts, Adam on their NLL) through
    `estimator-compat run`. TF 1.15.5 on the same program after 200 steps: eval loss 1.428,
    mixture NLL -0.176, Poisson NLL 1.604, log-rate weights [0.953, 0.407] (truth [1, 0.5]),
    and these variables. Initial values differ (op-level seeds), hence the bands."""
    import json
    import os

    from helpers import PROGRAMS, run_program
    out, _ = run_program(os.path.join(PROGRAMS, "distributions", "mixture_density.py"),
                         "--model_dir", tmp_path / "model")
    result = json.loads([x for x in out.splitlines() if x.startswith("RESULT ")][-1][7:])
    assert abs(result["loss"] - 1.428) < 0.1, result
    assert result["mixture_nll"] < 0.1, result  # one Normal would give about 1.6
    assert abs(result["poisson_nll"] - 1.604) < 0.05, result
    assert abs(result["log_rate"][0] - 1.0) < 0.15 and abs(result["log_rate"][1] - 0.5) < 0.15
    layers = ["hidden", "locs", "log_rate", "mixture_logits", "scales"]
    expected = {"beta1_power", "beta2_power", "global_step"} | {
        "%s/%s%s" % (layer, part, slot) for layer in layers for part in ("bias", "kernel")
        for slot in ("", "/Adam", "/Adam_1")}
    assert set(result["variables"]) == expected
