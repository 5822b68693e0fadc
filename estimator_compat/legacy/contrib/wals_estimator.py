"""`tf.contrib.factorization.WALSMatrixFactorization`: the contrib.learn estimator sweeping the
row and column factors of a `WALSModel` (wals.py) in turn.

Training, as TF 1.15's: a row sweep updates the row factors from the batches' `INPUT_ROWS`
(the column factors fixed), until every row has been processed; then a column sweep updates
the column factors from `INPUT_COLS` (rows of A^T), and so on. Each step processes one batch
and reports `loss` (the batch's loss + regularization, scaled to the whole matrix). TF 1.15
kept the sweep in a hook; here it lives in the step itself, on TF 1.15's (checkpointed)
variables `is_row_sweep`, `is_sweep_done`, `completed_sweeps`, `processed_rows`,
`processed_cols`, `WALS_loss`, `WALS_RWSE`: a step first starts the next sweep when the last
one is done, then prepares its side (the other side's gramian and caches: TF 1.15 did it once
per sweep, here every step of it, with the same values since the other side is fixed during
a sweep), then solves. `max_sweeps` stops training once that many sweeps are complete.
Summaries `loss`, `root_weighted_squared_error`, `completed_sweeps` (their values before the
step, as TF 1.15 wrote them).

Evaluation and prediction project the given rows (`PROJECT_ROW` True) or columns on the
checkpointed factors and gramians (no caches): `predict` yields `{'projection': factors}`,
`evaluate` the projection's loss + regularization.
"""
import tensorflow as tf

from estimator_compat.hooks import SessionRunArgs, SessionRunHook
from estimator_compat.learn.estimator import Estimator
from estimator_compat.learn.model_fn_ops import ModeKeys, ModelFnOps
from estimator_compat.legacy.contrib.wals import WALSModel

v1 = tf.compat.v1


class _StopAtSweepHook(SessionRunHook):
    """Stops training once `completed_sweeps` (as after each step) reaches `max_sweeps`."""

    def __init__(self, completed_sweeps, max_sweeps):
        self._completed, self._max = completed_sweeps, max_sweeps

    def before_run(self, run_context):
        return SessionRunArgs(self._completed)

    def after_run(self, run_context, run_values):
        if int(run_values.results) >= self._max:
            run_context.request_stop()


def _state(initial, name):
    return v1.Variable(initial, name=name, trainable=False)


def _processed_ids(sp_input):
    return tf.unique(tf.cast(sp_input.indices[:, 0], tf.int64))[0]


class WALSMatrixFactorization(Estimator):
    """Weighted alternating least squares factorization A ~ U V^T, trained in sweeps."""

    INPUT_ROWS = "input_rows"
    INPUT_COLS = "input_cols"
    PROJECT_ROW = "project_row"
    PROJECTION_WEIGHTS = "projection_weights"
    PROJECTION_RESULT = "projection"
    COMPLETED_SWEEPS = "completed_sweeps"
    LOSS = "WALS_loss"
    RWSE = "WALS_RWSE"

    def __init__(self, num_rows, num_cols, embedding_dimension, unobserved_weight=0.1,
                 regularization_coeff=None, row_init="random", col_init="random",
                 num_row_shards=1, num_col_shards=1, row_weights=1, col_weights=1,
                 use_factors_weights_cache_for_training=True,
                 use_gramian_cache_for_training=True, max_sweeps=None, model_dir=None,
                 config=None):
        if max_sweeps is not None and max_sweeps < 1:
            raise ValueError(f"WALSMatrixFactorization: max_sweeps must be >= 1 or None, "
                             f"given {max_sweeps}.")
        self._num_rows, self._num_cols = int(num_rows), int(num_cols)
        self._num_row_shards, self._num_col_shards = num_row_shards, num_col_shards
        self._max_sweeps = max_sweeps
        self._caches = (use_factors_weights_cache_for_training, use_gramian_cache_for_training)
        self._model_args = dict(
            input_rows=num_rows, input_cols=num_cols, n_components=embedding_dimension,
            unobserved_weight=unobserved_weight, regularization=regularization_coeff,
            row_init=row_init, col_init=col_init, num_row_shards=num_row_shards,
            num_col_shards=num_col_shards, row_weights=row_weights, col_weights=col_weights)
        super().__init__(model_fn=self._wals_model_fn, model_dir=model_dir, config=config)

    # the model
    def _wals_model_fn(self, features, labels, mode):
        if not isinstance(features, dict) or self.INPUT_ROWS not in features \
                or self.INPUT_COLS not in features:
            raise ValueError("WALSMatrixFactorization's input_fn returns ({'input_rows': "
                             "SparseTensor, 'input_cols': SparseTensor (rows of A^T), ...}, "
                             f"None); given features {features!r}.")
        training = mode == ModeKeys.TRAIN
        model = WALSModel(**self._model_args,
                          use_factors_weights_cache=self._caches[0] and training,
                          use_gramian_cache=self._caches[1] and training)
        rows = v1.convert_to_tensor_or_sparse_tensor(features[self.INPUT_ROWS])
        cols = v1.convert_to_tensor_or_sparse_tensor(features[self.INPUT_COLS])
        if training:
            return self._train(model, rows, cols)
        if self.PROJECT_ROW not in features:
            raise ValueError("WALSMatrixFactorization: evaluate / predict need the feature "
                             "'project_row' (a bool: project the rows or the columns).")
        project_row = tf.reshape(tf.cast(features[self.PROJECT_ROW], tf.bool), [])
        if mode == ModeKeys.EVAL:
            def loss_of(side, sp_input, transpose):
                solved = model._solve(sp_input, transpose, side, model._side_weights(side))
                return solved[2] + solved[3]
            loss = tf.cond(project_row, lambda: loss_of("row", rows, False),
                           lambda: loss_of("col", cols, False))  # (A^T rows as they are)
            return ModelFnOps(mode, loss=loss)
        weights = features.get(self.PROJECTION_WEIGHTS)
        projection = tf.cond(
            project_row,
            lambda: model.project_row_factors(rows, projection_weights=weights),
            lambda: model.project_col_factors(cols, transpose_input=True,
                                              projection_weights=weights))
        return ModelFnOps(mode, predictions={self.PROJECTION_RESULT: projection})

    def _train(self, model, rows, cols):
        is_row_sweep = _state(True, "is_row_sweep")
        is_sweep_done = _state(False, "is_sweep_done")
        completed = _state(tf.constant(0, tf.int32), self.COMPLETED_SWEEPS)
        processed = {"row": _state(tf.zeros([self._num_rows], tf.bool), "processed_rows"),
                     "col": _state(tf.zeros([self._num_cols], tf.bool), "processed_cols")}
        loss_var = _state(0.0, self.LOSS)
        rwse_var = _state(0.0, self.RWSE)
        # the values before this step, as TF 1.15's summaries read them
        v1.summary.scalar("loss", loss_var.read_value())
        v1.summary.scalar("root_weighted_squared_error", rwse_var.read_value())
        v1.summary.scalar("completed_sweeps", completed.read_value())

        def next_sweep():
            return tf.group(is_row_sweep.assign(tf.logical_not(is_row_sweep)),
                            is_sweep_done.assign(False),
                            *[p.assign(tf.zeros_like(p)) for p in processed.values()])
        started = tf.cond(is_sweep_done.read_value(), next_sweep, tf.no_op)

        def sweep(side, sp_input):
            """Prepares `side`'s sweep (the other side's gramian and caches), solves the
            batch, marks its rows processed: (loss + regularization, RWSE, sweep done)."""
            def run():
                other = "col" if side == "row" else "row"
                prep = model._col_gramian_assign(getattr(model, f"_{other}_factors"),
                                                 getattr(model, f"_{other}_gramian"))
                with tf.control_dependencies([prep]):
                    init = getattr(model, f"initialize_{side}_update_op")
                with tf.control_dependencies([init]):
                    update = getattr(model, f"update_{side}_factors")(
                        sp_input, transpose_input=side == "col")
                _, update_op, loss, regularization, sum_weights = update
                with tf.control_dependencies([update_op]):
                    marked = v1.scatter_update(processed[side], _processed_ids(sp_input),
                                               tf.ones_like(_processed_ids(sp_input), tf.bool))
                    done = tf.reduce_all(marked)
                return loss + regularization, tf.sqrt(loss / sum_weights), done
            return run
        with tf.control_dependencies([started]):
            loss, rwse, done = tf.cond(is_row_sweep.read_value(), sweep("row", rows),
                                       sweep("col", cols))
        after = completed.assign_add(tf.cast(done, tf.int32))
        updates = [is_sweep_done.assign(done), after, loss_var.assign(loss),
                   rwse_var.assign(rwse)]
        with tf.control_dependencies(updates):
            train_op = v1.assign_add(v1.train.get_global_step(), 1).op
        hooks = [] if self._max_sweeps is None else [
            _StopAtSweepHook(tf.identity(after), self._max_sweeps)]
        return ModelFnOps(ModeKeys.TRAIN, loss=tf.identity(loss), train_op=train_op,
                          training_hooks=hooks)

    # the public view
    def get_row_factors(self):
        """The row factors, one array per shard, from the latest checkpoint."""
        return [self.get_variable_value(f"row_factors_shard_{i}")
                for i in range(self._num_row_shards)]

    def get_col_factors(self):
        """The column factors, one array per shard, from the latest checkpoint."""
        return [self.get_variable_value(f"col_factors_shard_{i}")
                for i in range(self._num_col_shards)]

    def get_projections(self, input_fn):
        """The projected factors of the rows (or columns) input_fn gives, one per row."""
        return (result[self.PROJECTION_RESULT] for result in self.predict(input_fn=input_fn))
