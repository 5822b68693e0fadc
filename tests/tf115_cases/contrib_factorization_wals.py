"""tf.contrib.factorization.WALSMatrixFactorization cases (Python 3.7 syntax: they also run in
TF 1.15's venv): sweeps over a small sparse matrix from given factors (whole-matrix batches,
and two-row batches on sharded, weighted factors with max_sweeps), the checkpointed sweep
state, evaluation losses and row / column projections."""
import shutil
import tempfile

import numpy as np

MATRIX = np.array([[1.0, 0, 2, 0, 3], [0, 3, 0, 1, 0], [4, 0, 0, 5, 0], [0, 2, 1, 0, 0]],
                  np.float32)
ROWS0 = np.array([[0.1, 0.2], [0.3, -0.1], [0.2, 0.4], [0.5, 0.1]], np.float32)
COLS0 = np.array([[0.5, 0.1], [-0.2, 0.3], [0.1, 0.1], [0.4, -0.3], [0.2, 0.2]], np.float32)
STATE = ["WALS_RWSE", "WALS_loss", "completed_sweeps", "is_row_sweep", "is_sweep_done",
         "processed_cols", "processed_rows", "global_step", "col_gramian", "row_gramian"]


def _sparse(tf, matrix, rows=None):
    """The SparseTensor of `matrix` (its rows `rows` only, at their own indices)."""
    kept = np.zeros_like(matrix)
    rows = range(matrix.shape[0]) if rows is None else rows
    kept[list(rows)] = matrix[list(rows)]
    indices = np.argwhere(kept != 0).astype(np.int64)
    return tf.SparseTensor(indices, kept[kept != 0], matrix.shape)


def _projection_input(tf, w, project_row):
    def input_fn():
        return {w.INPUT_ROWS: _sparse(tf, MATRIX[:2]), w.INPUT_COLS: _sparse(tf, MATRIX.T[:3]),
                w.PROJECT_ROW: tf.constant(project_row)}, None
    return input_fn


def _shards(values):
    return {"shard_%d" % i: v for i, v in enumerate(values)}


def _results(tf, est, w, projections=True):
    out = {"rows": _shards(est.get_row_factors()), "cols": _shards(est.get_col_factors()),
           "variables": sorted(est.get_variable_names()),
           "state": {n: est.get_variable_value(n) for n in STATE}}
    if not projections:
        return out
    out["eval_rows"] = est.evaluate(input_fn=_projection_input(tf, w, True), steps=1)
    out["eval_cols"] = est.evaluate(input_fn=_projection_input(tf, w, False), steps=1)
    out["project_rows"] = list(est.get_projections(_projection_input(tf, w, True)))
    out["project_cols"] = list(est.get_projections(_projection_input(tf, w, False)))
    out["predict_keys"] = sorted(next(est.predict(input_fn=_projection_input(tf, w, True))))
    return out


def case_wals_estimator_whole_matrix(tf):
    w = tf.contrib.factorization.WALSMatrixFactorization
    model_dir = tempfile.mkdtemp()

    def input_fn():
        return {w.INPUT_ROWS: _sparse(tf, MATRIX), w.INPUT_COLS: _sparse(tf, MATRIX.T)}, None

    def run(_):
        try:
            est = w(4, 5, 2, unobserved_weight=0.1, regularization_coeff=0.01,
                    row_init=ROWS0, col_init=COLS0, model_dir=model_dir)
            est.fit(input_fn=input_fn, steps=4)
            out = _results(tf, est, w)
            out["constants"] = [w.INPUT_ROWS, w.INPUT_COLS, w.PROJECT_ROW,
                                w.PROJECTION_WEIGHTS, w.PROJECTION_RESULT, w.COMPLETED_SWEEPS,
                                w.LOSS, w.RWSE]
            return out
        finally:
            shutil.rmtree(model_dir, ignore_errors=True)
    return run


case_wals_estimator_whole_matrix.tolerance = {"rtol": 2e-4, "atol": 1e-5}


def case_wals_estimator_batches_shards_max_sweeps(tf):
    w = tf.contrib.factorization.WALSMatrixFactorization
    model_dir = tempfile.mkdtemp()

    def input_fn():  # rows 0-1 then 2-3 (columns 0-2 then 3-4), over and over
        batches = [{w.INPUT_ROWS: _sparse(tf, MATRIX, rows),
                    w.INPUT_COLS: _sparse(tf, MATRIX.T, cols)}
                   for rows, cols in (([0, 1], [0, 1, 2]), ([2, 3], [3, 4]))]
        data = tf.data.Dataset.from_tensors(batches[0]).concatenate(
            tf.data.Dataset.from_tensors(batches[1])).repeat()
        return tf.compat.v1.data.make_one_shot_iterator(data).get_next(), None

    def run(_):
        try:
            est = w(4, 5, 2, unobserved_weight=0.2, regularization_coeff=0.05,
                    row_init=[ROWS0[:2], ROWS0[2:]], col_init=[COLS0[:3], COLS0[3:]],
                    num_row_shards=2, num_col_shards=2, row_weights=2.0, col_weights=0.5,
                    max_sweeps=3, model_dir=model_dir)
            est.fit(input_fn=input_fn, steps=20)
            steps = est.get_variable_value("global_step")
            est.fit(input_fn=input_fn, steps=3)
            out = _results(tf, est, w, projections=False)
            out["steps_first_fit"] = steps
            return out
        finally:
            shutil.rmtree(model_dir, ignore_errors=True)
    return run


case_wals_estimator_batches_shards_max_sweeps.tolerance = {"rtol": 2e-4, "atol": 1e-5}
