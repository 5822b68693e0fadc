"""tf.contrib.factorization's Gaussian mixture cases (Python 3.7 syntax: they also run in TF
1.15's venv): GmmAlgorithm's EM steps from given means (full and diagonal covariances, a
subset of the parameters), gmm()'s tuple, and the GMM estimator (fit, evaluate, score,
predict, its variables), on two fixed 2-D blobs."""
import shutil
import tempfile

import numpy as np

_RNG = np.random.RandomState(0)
POINTS = np.concatenate([_RNG.randn(20, 2) * 0.5, _RNG.randn(20, 2) * 0.7 + 3.0]).astype(
    np.float32)
MEANS = np.array([[0.5, 0.5], [2.0, 2.0]], np.float32)


def _algorithm(tf, steps, **kwargs):
    """Built in a graph of its own: the variables have no static shape, which the harness's
    variable listing cannot hold; they are listed here instead."""
    f = tf.contrib.factorization

    def run(_):
        with tf.Graph().as_default():
            gmm = f.GmmAlgorithm([tf.constant(POINTS)], 2, initial_means=MEANS, **kwargs)
            variables = tf.global_variables()
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                sess.run(gmm.init_ops())
                initial = sess.run({"alphas": gmm.alphas(), "clusters": gmm.clusters(),
                                    "covariances": gmm.covariances()})
                losses = []
                for _ in range(steps):
                    losses.append(sess.run(gmm.log_likelihood_op()))
                    sess.run(gmm.training_ops())
                out = sess.run({"alphas": gmm.alphas(), "clusters": gmm.clusters(),
                                "covariances": gmm.covariances(), "scores": gmm.scores(),
                                "log_likelihood": gmm.log_likelihood_op(),
                                "assignments": gmm.assignments(),
                                "initialized": gmm.is_initialized()})
                out.update(initial=initial, losses=losses,
                           variables=[[v.op.name, str(v.shape)] for v in variables],
                           trainable=[v.op.name for v in tf.trainable_variables()],
                           local=[v.op.name for v in tf.local_variables()])
                return out
    return run


def case_gmm_algorithm_full(tf):
    return _algorithm(tf, 3)


def case_gmm_algorithm_diag(tf):
    return _algorithm(tf, 3, covariance_type="diag")


def case_gmm_algorithm_means_and_covariances_only(tf):
    return _algorithm(tf, 2, params="mc")


def case_gmm_algorithm_weights_only(tf):
    return _algorithm(tf, 2, params="w", covariance_type="diag")


def case_gmm_function(tf):
    f = tf.contrib.factorization

    def run(_):
        with tf.Graph().as_default():
            loss, scores, assignments, train_op, init_op, initialized = f.gmm(
                tf.constant(POINTS), MEANS, 2, 0)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                sess.run(init_op)
                sess.run(train_op)
                sess.run(train_op)
                return {"loss": sess.run(loss), "scores": sess.run(scores),
                        "assignments": sess.run(assignments),
                        "initialized": sess.run(initialized),
                        "nesting": [len(assignments), len(assignments[0])]}
    return run


def case_gmm_estimator(tf):
    f = tf.contrib.factorization
    model_dir = tempfile.mkdtemp()

    def input_fn():
        return tf.constant(POINTS), None

    def run(_):
        try:
            est = f.GMM(2, model_dir=model_dir, initial_clusters=MEANS, random_seed=0)
            est.fit(input_fn=input_fn, steps=5)
            results = est.evaluate(input_fn=input_fn, steps=1)
            return {"clusters": est.clusters(), "covariances": est.covariances(),
                    "weights": est.weights(), "score": est.score(input_fn=input_fn, steps=1),
                    "eval_loss": results["loss"], "eval_scores": results["scores"],
                    "eval_keys": sorted(results),
                    "assignments": np.array(list(est.predict_assignments(input_fn=input_fn))),
                    "predict_keys": sorted(next(est.predict(input_fn=input_fn))),
                    "variables": sorted(est.get_variable_names()),
                    "shapes": [str(list(est.get_variable_value(n).shape))
                               for n in sorted(est.get_variable_names())],
                    "constants": [f.GMM.SCORES, f.GMM.LOG_LIKELIHOOD, f.GMM.ASSIGNMENTS]}
        finally:
            shutil.rmtree(model_dir, ignore_errors=True)
    return run


def case_gmm_estimator_batches_diag(tf):
    """Batches of 20 points in turn: TF 1.15's init hook set the means and covariances from
    a batch of its own, then each step ran EM on the next batch."""
    f = tf.contrib.factorization
    model_dir = tempfile.mkdtemp()
    shuffled = POINTS[np.random.RandomState(1).permutation(len(POINTS))]

    def input_fn():
        data = tf.data.Dataset.from_tensor_slices(shuffled).batch(20).repeat()
        return tf.compat.v1.data.make_one_shot_iterator(data).get_next(), None

    def run(_):
        try:
            est = f.GMM(2, model_dir=model_dir, initial_clusters=MEANS,
                        covariance_type="diag", params="mc")
            est.fit(input_fn=input_fn, steps=3)
            return {"clusters": est.clusters(), "covariances": est.covariances(),
                    "weights": est.weights(),
                    "global_step": est.get_variable_value("global_step")}
        finally:
            shutil.rmtree(model_dir, ignore_errors=True)
    return run
