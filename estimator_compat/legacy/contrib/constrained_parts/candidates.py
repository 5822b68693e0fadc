"""Picking among the iterates of a constrained training run (numpy): each candidate w_j has an
objective f(w_j) and constraint values g_i(w_j); `objective_vector` is (n,), `constraints_matrix`
(m, n). The optimizers' guarantees hold for a *distribution* over iterates, found by a linear
program (scipy.optimize.linprog, imported only when called); `find_best_candidate_index` is the
single-model heuristic of the paper's hyperparameter search (arXiv:1804.06500, section 5.2)."""
import numpy as np


def _check_shapes(objective_vector, constraints_matrix):
    _, count = np.shape(constraints_matrix)
    if np.shape(objective_vector) != (count,):
        raise ValueError(
            "objective_vector must have shape (n,), and constraints_matrix (m, n), where n is "
            "the number of candidates, and m is the number of constraints")
    return count


def _best_distribution_within(objective_vector, constraints_matrix, maximum_violation=0.0):
    """The distribution p over candidates minimizing E_p[f] with every E_p[g_i] at most
    `maximum_violation`, or None where there is none."""
    if maximum_violation < 0.0:
        raise ValueError("maximum_violation must be nonnegative")
    constraint_count = np.shape(constraints_matrix)[0]
    count = _check_shapes(objective_vector, constraints_matrix)
    try:
        import scipy.optimize
    except ImportError as error:
        raise ImportError("tf.contrib.constrained_optimization's candidate search needs "
                          "scipy: pip install scipy") from error
    result = scipy.optimize.linprog(
        objective_vector, A_ub=constraints_matrix,
        b_ub=np.full((constraint_count,), maximum_violation),
        A_eq=np.ones((1, count)), b_eq=np.ones((1,)), bounds=(0, None))
    return result.x if result.success else None


def find_best_candidate_distribution(objective_vector, constraints_matrix, epsilon=0.0):
    """The distribution over candidates (a numpy (n,) array, at most m+1 of it nonzero) that
    minimizes the expected objective with the expected constraints satisfied; where no
    distribution satisfies them, with them violated by the least amount, found by bisection
    to within `epsilon` (arXiv:1804.06500, Lemma 3)."""
    if epsilon < 0.0:
        raise ValueError("epsilon must be nonnegative")
    best = _best_distribution_within(objective_vector, constraints_matrix)
    if best is not None:
        return best
    # the candidate with the smallest worst violation bounds the achievable violation
    lower, upper = 0.0, np.min(np.amax(constraints_matrix, axis=0))
    best = _best_distribution_within(objective_vector, constraints_matrix, upper)
    assert best is not None
    while True:
        middle = 0.5 * (lower + upper)
        if middle - lower <= epsilon or upper - middle <= epsilon:
            return best
        found = _best_distribution_within(objective_vector, constraints_matrix, middle)
        if found is None:
            lower = middle
        else:
            best, upper = found, middle


def _min_ranks(values):
    """1-based ranks, ties sharing the lowest rank (scipy.stats.rankdata's method="min")."""
    values = np.asarray(values)
    return np.searchsorted(np.sort(values), values, side="left") + 1


def find_best_candidate_index(objective_vector, constraints_matrix, rank_objectives=False):
    """The index of the candidate whose worst rank (over the constraint violations
    max(0, g_i), and the objective too with `rank_objectives`) is least; ties go to the lower
    objective, and among equal objectives to the later candidate."""
    count = _check_shapes(objective_vector, constraints_matrix)
    constraints_matrix = np.asarray(constraints_matrix)
    worst = _min_ranks(objective_vector) if rank_objectives else np.zeros(count, np.int64)
    for row in constraints_matrix:
        worst = np.maximum(worst, _min_ranks(np.maximum(0.0, row)))
    best_index, best_rank, best_objective = None, float("inf"), float("inf")
    for index in range(count):
        if worst[index] < best_rank:
            best_index, best_rank, best_objective = index, worst[index], objective_vector[index]
        elif worst[index] == best_rank and objective_vector[index] <= best_objective:
            best_index, best_objective = index, objective_vector[index]
    return best_index
