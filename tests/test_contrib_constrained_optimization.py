"""tf.contrib.constrained_optimization against TF 1.15.5
(tests/tf115_cases/contrib_constrained_optimization.py): a rate-constrained linear classifier
trained by each of the three optimizers (multipliers / stochastic matrix, the variables and
slots made, `unconstrained_steps`, `pre_train_ops`, a separate `constraint_optimizer`), the
misuse errors, and the numpy candidate pickers."""
from tf115_cases import harness

MODULE = "contrib_constrained_optimization"


ours, ours_resource, test_case_matches_tf115 = harness.case_tests_both_variable_kinds(MODULE)


def test_unconstrained_steps_in_a_function_graph_as_tf115():
    """minimize(unconstrained_steps=...) built in a function's graph (as an Estimator's
    model_fn is), where the conditional is TensorFlow 2's: the same five steps as TF 1.15's
    session loop, the state under TF 1.15's name."""
    import numpy as np
    import tensorflow as tf2

    from estimator_compat.legacy import tf1_view
    from tf115_cases import contrib_constrained_optimization as cases
    tf = tf1_view.build()
    made = {}

    def build():
        train_op, made["fetches"] = cases._swap_with_unconstrained_steps(tf)
        return train_op
    step = tf2.compat.v1.wrap_function(build, [])
    for _ in range(5):
        step()
    values = {v.name[:-2]: v.numpy() for v in step.variables}
    assert "cond/swap_regret_optimizer_state" in values
    theirs = harness.recorded(MODULE)["additive_swap_regret_unconstrained_steps"]["values"]
    for key, name in (("weights", "weights"), ("bias", "bias"), ("step", "global_step"),
                      ("state", "cond/swap_regret_optimizer_state")):
        np.testing.assert_allclose(values[name], theirs["history"][key][-1], rtol=1e-5,
                                   atol=1e-6)
