"""`tf.contrib.constrained_optimization`, served whole: TF 1.15's library for minimizing an
objective subject to (possibly non-differentiable, proxied) constraints as a two-player game,
the predecessor of TensorFlow Constrained Optimization (tfco). Built on TF 2.21's
tf.compat.v1.train optimizers; see constrained_parts/."""
from estimator_compat.legacy.contrib.constrained_parts.candidates import (
    find_best_candidate_distribution, find_best_candidate_index)
from estimator_compat.legacy.contrib.constrained_parts.external_regret import (
    AdditiveExternalRegretOptimizer)
from estimator_compat.legacy.contrib.constrained_parts.optimizer import ConstrainedOptimizer
from estimator_compat.legacy.contrib.constrained_parts.problem import (
    ConstrainedMinimizationProblem)
from estimator_compat.legacy.contrib.constrained_parts.swap_regret import (
    AdditiveSwapRegretOptimizer, MultiplicativeSwapRegretOptimizer)


def build():
    from estimator_compat.legacy.namespaces import namespace
    return namespace(
        "tensorflow.contrib.constrained_optimization", "tf.contrib.constrained_optimization",
        __served_whole__=True,
        AdditiveExternalRegretOptimizer=AdditiveExternalRegretOptimizer,
        AdditiveSwapRegretOptimizer=AdditiveSwapRegretOptimizer,
        ConstrainedMinimizationProblem=ConstrainedMinimizationProblem,
        ConstrainedOptimizer=ConstrainedOptimizer,
        MultiplicativeSwapRegretOptimizer=MultiplicativeSwapRegretOptimizer,
        find_best_candidate_distribution=find_best_candidate_distribution,
        find_best_candidate_index=find_best_candidate_index)
