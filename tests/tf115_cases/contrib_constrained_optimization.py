"""tf.contrib.constrained_optimization cases (TF 1.15 style, Python 3.7): a rate-constrained
linear classifier (hinge-loss objective, a recall constraint with a hinge proxy) trained a few
steps by each optimizer, the multipliers / stochastic-matrix state, the variables and slots it
makes, and the numpy candidate pickers, compared with TF 1.15.5's record."""
import numpy as np
from tf115_cases.recorded_errors import error_type as _error

FEATURES = (np.sin(np.arange(24) * 0.7) * 1.5).reshape(12, 2).astype(np.float32)
LABELS = (np.arange(12) % 3 == 0).astype(np.float32)


def _problem(tf, pre_train=False):
    """The contrib README's example: a linear model whose recall must be at least 0.8 (the
    constraint counts positives; its proxy is a hinge upper bound), plus a second constraint
    on the mean prediction, so there are two multipliers."""
    co = tf.contrib.constrained_optimization

    class RecallProblem(co.ConstrainedMinimizationProblem):
        def __init__(self, predictions, labels, recall_lower_bound):
            self._predictions = predictions
            self._labels = labels
            self._recall_lower_bound = recall_lower_bound
            self._pre_train = None
            if pre_train:
                self.counter = tf.get_variable("pre_train_counter", [], tf.float32,
                                               tf.zeros_initializer(), trainable=False)
                self._pre_train = [tf.assign_add(self.counter, 1.0).op]

        @property
        def objective(self):
            return tf.reduce_mean(tf.nn.relu(1.0 - (2.0 * self._labels - 1.0) *
                                             self._predictions))

        @property
        def constraints(self):
            positives = tf.reduce_sum(self._labels)
            true_positives = tf.reduce_sum(self._labels * tf.cast(self._predictions > 0,
                                                                  tf.float32))
            recall = true_positives / positives
            return tf.stack([self._recall_lower_bound - recall,
                             tf.reduce_mean(self._predictions) - 0.5])

        @property
        def proxy_constraints(self):
            positives = tf.reduce_sum(self._labels)
            hinge_tp = tf.reduce_sum(self._labels * tf.minimum(1.0, self._predictions))
            return tf.stack([self._recall_lower_bound - hinge_tp / positives,
                             tf.reduce_mean(self._predictions) - 0.5])

        @property
        def pre_train_ops(self):
            return self._pre_train

    weights = tf.get_variable("weights", [2], tf.float32,
                              tf.constant_initializer([0.3, -0.2]))
    bias = tf.get_variable("bias", [], tf.float32, tf.constant_initializer(-0.4))
    predictions = tf.tensordot(tf.constant(FEATURES), weights, 1) + bias
    return RecallProblem(predictions, tf.constant(LABELS), 0.8), weights, bias


def _train(sess, train_op, fetches, steps):
    """{fetch name: its values after each of `steps` train steps, stacked}."""
    history = []
    for _ in range(steps):
        sess.run(train_op)
        history.append(sess.run(fetches))
    return {key: np.array([h[key] for h in history]) for key in fetches}


def _fetches(weights, bias, state=None, **more):
    more.update(weights=weights, bias=bias)
    if state is not None:
        more["state"] = state
    return more


def _state(tf, name):
    return [v for v in tf.global_variables() if v.name.split(":")[0].endswith(name)][0]


def case_additive_external_regret(tf):
    co = tf.contrib.constrained_optimization
    problem, weights, bias = _problem(tf)
    global_step = tf.train.get_or_create_global_step()
    optimizer = co.AdditiveExternalRegretOptimizer(
        optimizer=tf.train.GradientDescentOptimizer(0.5))
    train_op = optimizer.minimize(problem, global_step=global_step)
    state = _state(tf, "external_regret_optimizer_state")

    def run(sess):
        history = _train(sess, train_op, _fetches(
            weights, bias, state, objective=problem.objective,
            constraints=problem.constraints), 6)
        return {"history": history, "step": sess.run(global_step),
                "num_constraints": problem.num_constraints,
                "constraint_optimizer": str(optimizer.constraint_optimizer),
                "optimizer": type(optimizer.optimizer).__name__}
    return run


def case_additive_external_regret_radius_and_own_optimizer(tf):
    co = tf.contrib.constrained_optimization
    problem, weights, bias = _problem(tf)
    optimizer = co.AdditiveExternalRegretOptimizer(
        optimizer=tf.train.GradientDescentOptimizer(0.3),
        constraint_optimizer=tf.train.GradientDescentOptimizer(2.0),
        maximum_multiplier_radius=0.5)
    train_op = optimizer.minimize_constrained(problem)
    state = _state(tf, "external_regret_optimizer_state")

    def run(sess):
        return {"history": _train(sess, train_op, _fetches(weights, bias, state), 5),
                "constraint_optimizer": type(optimizer.constraint_optimizer).__name__}
    return run


def case_additive_swap_regret_adagrad(tf):
    """The users' pattern: AdditiveSwapRegretOptimizer over Adagrad, train_op in a session
    loop, the objective / constraints of each iterate fed to the candidate pickers."""
    co = tf.contrib.constrained_optimization
    problem, weights, bias = _problem(tf)
    optimizer = co.AdditiveSwapRegretOptimizer(optimizer=tf.train.AdagradOptimizer(1.0))
    train_op = optimizer.minimize(problem)
    state = _state(tf, "swap_regret_optimizer_state")

    def run(sess):
        history = _train(sess, train_op, _fetches(
            weights, bias, state, objective=problem.objective,
            constraints=problem.constraints), 6)
        objectives, constraints = history["objective"], history["constraints"].T
        return {"history": history,
                "distribution": co.find_best_candidate_distribution(objectives, constraints),
                "best_index": co.find_best_candidate_index(objectives, constraints),
                "best_index_ranked": co.find_best_candidate_index(
                    objectives, constraints, rank_objectives=True)}
    return run
case_additive_swap_regret_adagrad.tolerance = {"rtol": 1e-4, "atol": 1e-5}


def case_multiplicative_swap_regret_unconstrained_steps(tf):
    co = tf.contrib.constrained_optimization
    problem, weights, bias = _problem(tf, pre_train=True)
    global_step = tf.train.get_or_create_global_step()
    optimizer = co.MultiplicativeSwapRegretOptimizer(
        optimizer=tf.train.GradientDescentOptimizer(0.4),
        constraint_optimizer=tf.train.AdagradOptimizer(0.5),
        minimum_multiplier_radius=0.01, initial_multiplier_radius=0.2)
    train_op = optimizer.minimize(problem, unconstrained_steps=2, global_step=global_step)
    state = _state(tf, "swap_regret_optimizer_state")

    def run(sess):
        fetches = _fetches(weights, bias, state, step=global_step)
        return {"history": _train(sess, train_op, fetches, 5),
                "pre_train_counter": sess.run(problem.counter)}
    return run


def _swap_with_unconstrained_steps(tf):
    co = tf.contrib.constrained_optimization
    problem, weights, bias = _problem(tf)
    global_step = tf.train.get_or_create_global_step()
    optimizer = co.AdditiveSwapRegretOptimizer(optimizer=tf.train.AdagradOptimizer(1.0))
    train_op = optimizer.minimize(problem, unconstrained_steps=2, global_step=global_step)
    return train_op, _fetches(weights, bias, _state(tf, "swap_regret_optimizer_state"),
                              step=global_step)


def case_additive_swap_regret_unconstrained_steps(tf):
    """Also built in a function's graph (TensorFlow 2's cond) by the test, as an Estimator's
    model_fn would: the same values."""
    train_op, fetches = _swap_with_unconstrained_steps(tf)
    return lambda sess: {"history": _train(sess, train_op, fetches, 5)}


def case_minimize_unconstrained_momentum(tf):
    co = tf.contrib.constrained_optimization
    problem, weights, bias = _problem(tf)
    optimizer = co.MultiplicativeSwapRegretOptimizer(
        optimizer=tf.train.MomentumOptimizer(0.2, 0.9))
    train_op = optimizer.minimize_unconstrained(problem, name="plain")

    def run(sess):
        return {"history": _train(sess, train_op, _fetches(weights, bias), 3),
                "op": train_op.name}
    return run


def case_misuse_errors(tf):
    co = tf.contrib.constrained_optimization
    problem, _, _ = _problem(tf)
    sgd = tf.train.GradientDescentOptimizer(0.1)

    class Unknown(co.ConstrainedMinimizationProblem):
        objective = tf.constant(0.0)
        constraints = tf.placeholder(tf.float32, [None])

    class Mismatch(co.ConstrainedMinimizationProblem):
        objective = tf.constant(0.0)
        constraints = tf.zeros([2])
        proxy_constraints = tf.zeros([3])

    class Doubles(co.ConstrainedMinimizationProblem):
        objective = tf.constant(0.0, tf.float64)
        constraints = tf.zeros([2])

    return lambda sess: {
        "abstract": _error(co.ConstrainedMinimizationProblem),
        "abstract_optimizer": _error(lambda: co.ConstrainedOptimizer(sgd)),
        "unknown_shape": _error(lambda: Unknown().num_constraints),
        "mismatch": _error(lambda: Mismatch().num_constraints),
        "dtype": _error(lambda: co.AdditiveSwapRegretOptimizer(sgd).minimize(Doubles())),
        "no_global_step": _error(lambda: co.AdditiveSwapRegretOptimizer(sgd).minimize(
            problem, unconstrained_steps=3)),
        "radius": _error(lambda: co.AdditiveExternalRegretOptimizer(
            sgd, maximum_multiplier_radius=-1.0)),
        "minimum_radius": _error(lambda: co.MultiplicativeSwapRegretOptimizer(
            sgd, minimum_multiplier_radius=1.5)),
        "initial_radius": _error(lambda: co.MultiplicativeSwapRegretOptimizer(
            sgd, minimum_multiplier_radius=0.1, initial_multiplier_radius=0.05)),
        "epsilon": _error(lambda: co.find_best_candidate_distribution(
            np.zeros(2), np.zeros((1, 2)), epsilon=-1.0)),
        "shapes": _error(lambda: co.find_best_candidate_index(np.zeros(3), np.zeros((1, 2)))),
        "proxy_default": str(Unknown().proxy_constraints),
        "pre_train_default": str(Unknown().pre_train_ops),
        "num_constraints": problem.num_constraints,
    }


def case_candidate_pickers(tf):
    co = tf.contrib.constrained_optimization
    objectives = np.array([1.0, 0.2, 0.5, 0.9, 0.3])
    feasible = np.array([[-0.1, 0.4, 0.2, -0.3, 0.1], [0.2, -0.2, 0.3, -0.1, 0.5]])
    infeasible = np.array([[0.3, 0.6, 0.2, 0.4, 0.9], [0.5, 0.1, 0.4, 0.7, 0.2]])
    return lambda sess: {
        "feasible": co.find_best_candidate_distribution(objectives, feasible),
        "bisection": co.find_best_candidate_distribution(objectives, infeasible,
                                                         epsilon=1e-3),
        "index": co.find_best_candidate_index(objectives, infeasible),
        "index_ranked": co.find_best_candidate_index(objectives, infeasible,
                                                     rank_objectives=True),
        "index_feasible": co.find_best_candidate_index(objectives, feasible),
    }
case_candidate_pickers.tolerance = {"rtol": 1e-4, "atol": 1e-5}
