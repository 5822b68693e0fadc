"""tf.contrib.quantize against TF 1.15.5 (tests/tf115_cases/contrib_quantize.py): the training
and eval rewrites of slim conv + batch norm (fused and unfused) + relu / fc graphs and
tf.layers residual blocks (FakeQuant ops, folded layers, min / max variables and their
collections), the experimental options (bits, symmetric, delays, batch-norm freezing, scope),
and training the result; the same rewrites of TensorFlow 2's resource-variable graphs."""
import pytest

from tf115_cases import harness

MODULE = "contrib_quantize"

ours, test_case_matches_tf115 = harness.case_tests(MODULE)


@pytest.mark.parametrize("name", ["training_graph", "unfused_and_fc_batch_norms"])
def test_resource_variable_graphs_rewrite_as_tf115(name):
    """On a plain thread (resource variables: ReadVariableOp weights, no `<var>/read`) the
    rewrite finds the same layers and batch norms: the same ops and variables, the same
    training (the update ops' names are the resource kind's, so collections are not compared)."""
    from estimator_compat.legacy import tf1_view
    record = harness.run_case(tf1_view.build(), harness.cases(MODULE)[name])
    theirs = harness.recorded(MODULE)[name]
    assert "error" not in record, record
    assert record["variables"] == theirs["variables"]
    harness._close(record["values"], theirs["values"], "values", {"rtol": 1e-4, "atol": 1e-5})
