"""tf.contrib.quantization against TF 1.15.5 (tests/tf115_cases/contrib_quantization.py): the
generated op wrappers TF 1.15 re-exported there, called positionally as TF 1.15 programs did
(quantize / dequantize in each mode, quantized matmul / conv / pooling / activations with
requantization, plain math and nn ops, CompareAndBitpack written with TF ops), the raw-op
forms, and every wrapper's parameter list and defaults."""
import numpy as np

from tf115_cases import harness

MODULE = "contrib_quantization"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def test_eager_fallbacks_run_the_op_eagerly():
    """TF 1.15's `<op>_eager_fallback(..., name=None, ctx=None)` slow paths, in eager code:
    TF 1.15's defaults (a newer attr such as MatMul's grad_a kept at its default)."""
    from estimator_compat.legacy import tf1_view
    from tf115_cases.contrib_quantization import W, X
    q = tf1_view.build().contrib.quantization
    np.testing.assert_allclose(q.mat_mul_eager_fallback(X, W).numpy(), X @ W, rtol=1e-6)
    np.testing.assert_allclose(q.mat_mul_eager_fallback(W, X, True, True).numpy(),
                               W.T @ X.T, rtol=1e-6)
    values, indices = q.top_kv2_eager_fallback(X, 2)
    np.testing.assert_array_equal(indices.numpy(), np.argsort(-X, axis=1)[:, :2])
    codes = q.compare_and_bitpack_eager_fallback(np.tile(X, 2), 0.5)
    np.testing.assert_array_equal(codes.numpy(), np.packbits(np.tile(X, 2) > 0.5, axis=-1))
