"""tf.contrib.factorization cases (Python 3.7 syntax: they also run in TF 1.15's venv):
graph-level KMeans from given centers (full-batch and mini-batch, both metrics) and the
KMeansClustering estimator trained from given centers."""
import shutil
import tempfile

import numpy as np

POINTS = np.array([[0.0, 0.1], [0.2, 0.0], [0.1, 0.3], [5.0, 5.2], [5.3, 4.9],
                   [4.8, 5.1], [0.3, 0.2], [5.1, 5.0], [-1.0, 2.0], [2.0, -1.0]], np.float32)
CENTERS = np.array([[1.0, 1.0], [4.0, 4.0]], np.float32)


def _kmeans(tf, metric, mini_batch, steps, centers, values=True):
    """Built in a graph of its own: `clusters` has no static shape, which the harness's
    variable listing cannot hold; the variables are listed here instead. Mini-batch values
    are not compared (`values=False`): TF 1.15's mini-batch updates race on its reference
    variables, so its own runs differ from one another."""
    f = tf.contrib.factorization

    def run(_):
        with tf.Graph().as_default():
            kmeans = f.KMeans(tf.constant(POINTS), 2, initial_clusters=centers,
                              distance_metric=metric, use_mini_batch=mini_batch,
                              mini_batch_steps_per_iteration=2)
            all_scores, idx, scores, initialized, init_op, train_op = kmeans.training_graph()
            variables = tf.global_variables()
            clusters = next(v for v in variables if v.op.name == "clusters")
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                sess.run(init_op)
                for _ in range(steps):
                    sess.run(train_op)
                names = {"initialized": sess.run(initialized),
                         "variables": [[v.op.name, str(v.shape)] for v in variables],
                         "local": [v.op.name for v in tf.local_variables()]}
                if not values:
                    return names
                names.update(clusters=sess.run(clusters), all_scores=sess.run(all_scores[0]),
                             cluster_idx=sess.run(idx[0]), scores=sess.run(scores[0]))
                return names
    return run


def case_kmeans_full_batch_euclidean(tf):
    return _kmeans(tf, tf.contrib.factorization.SQUARED_EUCLIDEAN_DISTANCE, False, 3, CENTERS)


def case_kmeans_full_batch_cosine(tf):
    return _kmeans(tf, tf.contrib.factorization.COSINE_DISTANCE, False, 3,
                   np.array([[1.0, 0.2], [0.1, 1.0]], np.float32))


def case_kmeans_mini_batch_variables(tf):
    return _kmeans(tf, tf.contrib.factorization.SQUARED_EUCLIDEAN_DISTANCE, True, 4, CENTERS,
                   values=False)


def case_kmeans_clustering_estimator(tf):
    f = tf.contrib.factorization
    model_dir = tempfile.mkdtemp()

    def input_fn():  # one batch: predict ends after it
        return tf.data.Dataset.from_tensors(POINTS)

    def run(sess):
        try:
            est = f.KMeansClustering(2, model_dir=model_dir, initial_clusters=CENTERS,
                                     use_mini_batch=False, random_seed=3)
            est.train(input_fn, steps=2)
            return {"centers": est.cluster_centers(),
                    "index": np.array(list(est.predict_cluster_index(input_fn))),
                    "score": est.score(input_fn),
                    "variables": sorted(est.get_variable_names()),
                    "constants": [f.COSINE_DISTANCE, f.SQUARED_EUCLIDEAN_DISTANCE,
                                  f.RANDOM_INIT, f.KMEANS_PLUS_PLUS_INIT]}
        finally:
            shutil.rmtree(model_dir, ignore_errors=True)
    return run


RATINGS = np.array([[1.0, 0, 2, 0], [0, 3, 0, 1], [4, 0, 0, 5]], np.float32)
ROWS0 = np.array([[0.1, 0.2], [0.3, -0.1], [0.2, 0.4]], np.float32)
COLS0 = np.array([[0.5, 0.1], [-0.2, 0.3], [0.1, 0.1], [0.4, -0.3]], np.float32)


def _named(update):
    """An update's fetches by name (its update op left out)."""
    return {"factors": update[0], "loss": update[2], "regularization": update[3],
            "sum_weights": update[4]}


def _shards(values):
    return {f"shard_{i}": v for i, v in enumerate(values)}


def _sweep(tf, model, rows_input, cols_input, cols_transposed, after_rows=None):
    """One WALS sweep (rows, then columns), as its prep / initialize / update ops run;
    `after_rows` is fetched after the row update (the column update's initialization empties
    the column caches the row-side ops read)."""
    row = model.update_row_factors(sp_input=rows_input)
    col = model.update_col_factors(sp_input=cols_input, transpose_input=cols_transposed)

    def run(sess):
        sess.run([model.initialize_op, model.worker_init])
        sess.run(model.row_update_prep_gramian_op)
        sess.run(model.initialize_row_update_op)
        row_values = sess.run(_named(row))
        sess.run(row[1])
        after = sess.run(after_rows) if after_rows is not None else None
        sess.run(model.col_update_prep_gramian_op)
        sess.run(model.initialize_col_update_op)
        col_values = sess.run(_named(col))
        sess.run(col[1])
        return {"row_update": row_values, "col_update": col_values,
                "row_factors": _shards(sess.run(model.row_factors)),
                "col_factors": _shards(sess.run(model.col_factors)), "after_rows": after}
    return run


def case_wals_plain_als_sweep(tf):
    indices = np.argwhere(RATINGS != 0).astype(np.int64)
    ratings = tf.SparseTensor(indices, RATINGS[RATINGS != 0], [3, 4])
    model = tf.contrib.factorization.WALSModel(
        3, 4, 2, unobserved_weight=0.1, regularization=0.05, row_init=ROWS0, col_init=COLS0,
        row_weights=None, col_weights=None)
    transposed = tf.sparse.reorder(tf.sparse.transpose(ratings))
    return _sweep(tf, model, ratings, transposed, True)


def case_wals_weighted_sharded_batch(tf):
    """Rows 2 and 0 only, two shards a side (contiguous), per-shard weights."""
    indices = np.array([[2, 0], [2, 3], [0, 0], [0, 2]], np.int64)
    batch = tf.SparseTensor(indices, RATINGS[indices[:, 0], indices[:, 1]], [3, 4])
    model = tf.contrib.factorization.WALSModel(
        3, 4, 2, unobserved_weight=0.1, regularization=0.05,
        row_init=[ROWS0[:2], ROWS0[2:]], col_init=[COLS0[:2], COLS0[2:]],
        num_row_shards=2, num_col_shards=2, row_weights=[[1.0, 2.0], [3.0]],
        col_weights=[[1.0, 0.5], [2.0, 1.0]])
    projected = model.project_row_factors(sp_input=batch, projection_weights=[1.0, 1.0])
    return _sweep(tf, model, batch, batch, False, after_rows=projected)


def case_wals_default_weights_no_caches(tf):
    indices = np.argwhere(RATINGS != 0).astype(np.int64)
    ratings = tf.SparseTensor(indices, RATINGS[RATINGS != 0], [3, 4])
    model = tf.contrib.factorization.WALSModel(
        3, 4, 2, unobserved_weight=0.2, regularization=0.1, row_init=ROWS0, col_init=COLS0,
        row_weights=2.0, col_weights=[[1.0, 2.0, 0.5, 1.0]],
        use_factors_weights_cache=False, use_gramian_cache=False)
    return _sweep(tf, model, ratings, ratings, False)
