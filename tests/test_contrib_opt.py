"""tf.contrib.opt against TF 1.15.5's record (tests/tf115_cases/contrib_opt.py): slot and
accumulator names (checkpoint keys), collections and three steps' values of every variable, with
TF1 reference variables (a session program) and with resource variables (an Estimator's
model_fn); ScipyOptimizerInterface against numpy's least squares (TF 1.15's side venv has no
scipy). The parameter-server averaging optimizers: tests/test_contrib_opt_ps.py."""
import threading

import numpy as np
import pytest

from tf115_cases import harness

MODULE = "contrib_opt"


ours, ours_resource, test_case_matches_tf115 = harness.case_tests_both_variable_kinds(MODULE)


def _in_tf1_thread(work):
    from estimator_compat.legacy import graph_mode, tf1_view
    tf = tf1_view.build()
    out, failure = [], []

    def run():
        graph_mode.tf1_thread()
        try:
            with tf.Graph().as_default():
                out.append(work(tf))
        except BaseException as error:  # noqa: BLE001 - re-raised on the test's thread
            failure.append(error)
    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return out[0]


def test_scipy_optimizer_interface_reaches_least_squares_and_bounds():
    from tf115_cases.contrib_opt import W0, X, Y

    def work(tf):
        w = tf.get_variable("w", initializer=tf.constant(W0))
        b = tf.get_variable("b", initializer=tf.constant([0.1, -0.1]))
        loss = tf.reduce_mean(tf.square(tf.matmul(tf.constant(X), w) + b - tf.constant(Y)))
        free = tf.contrib.opt.ScipyOptimizerInterface(loss, options={"maxiter": 200})
        bounded = tf.contrib.opt.ScipyOptimizerInterface(loss, var_to_bounds={w: (-0.1, 0.1)})
        equal = tf.contrib.opt.ScipyOptimizerInterface(
            loss, var_list=[b], equalities=[b[0] - b[1]], method="SLSQP")
        seen = []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            free.minimize(sess, fetches=[loss], loss_callback=seen.append)
            solved = sess.run([w, b, loss])
            bounded.minimize(sess)
            clipped = sess.run(w)
            equal.minimize(sess)
            tied = sess.run(b)
        return solved, clipped, tied, seen
    (w, b, loss), clipped, tied, seen = _in_tf1_thread(work)
    design = np.hstack([X, np.ones((4, 1), np.float32)])
    expected = np.linalg.lstsq(design, Y, rcond=None)[0]
    np.testing.assert_allclose(np.vstack([w, b]), expected, atol=1e-4)
    assert len(seen) > 1 and seen[-1] == pytest.approx(loss, abs=1e-6)
    assert np.all(np.abs(clipped) <= 0.1 + 1e-7) and np.isclose(np.abs(clipped).max(), 0.1)
    assert tied[0] == pytest.approx(tied[1], abs=1e-5)
