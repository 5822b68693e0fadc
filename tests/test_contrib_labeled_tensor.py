"""tf.contrib.labeled_tensor against TF 1.15.5 (tests/tf115_cases/contrib_labeled_tensor.py): the
values and axes (names, sizes, tick labels) of the core, elementwise, shape, selection,
reduction, matmul, functional, nn, parsing and batching ops, and the errors of misuse
(AxisOrderError, the typecheck's TypeError, ValueError, KeyError, NotImplementedError)."""
import numpy as np

from tf115_cases import harness

MODULE = "contrib_labeled_tensor"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def test_ops_run_eagerly():
    """TF 1.15 allowed labeled tensors under eager execution too."""
    import tensorflow as tf

    from estimator_compat.legacy.contrib import labeled_tensor
    lt = labeled_tensor.build()
    x = lt.LabeledTensor(tf.constant([[1.0, 2.0], [3.0, 4.0]]), ["a", ("b", ["p", "q"])])
    y = lt.reduce_sum(x * lt.select(x, {"b": "q"}), "a")
    assert list(y.axes) == ["b"] and y.axes["b"].labels == ("p", "q")
    np.testing.assert_allclose(y.tensor.numpy(), [14.0, 20.0])
    with lt.axis_order_scope(["b", "a"]):
        assert list(lt.impose_axis_order(x).axes) == ["b", "a"]
