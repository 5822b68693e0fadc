"""`tf.contrib.factorization.WALSModel`: weighted alternating least squares on TensorFlow ops.

TF 1.15 ran each half-sweep through a contrib kernel (`WALSComputePartialLhsAndRhs`) that
TensorFlow 2 does not have. The update is closed-form, so here it is a batched
`tf.linalg.solve`: for each row i of the batch,

    (lambda I + w0 G + sum_{j observed} r_i c_j v_j v_j^T) u_i
        = sum_{j observed} (w0 + r_i c_j) a_ij v_j

with G = V^T V (the gramian variable, formed by the prep op), w0 the unobserved weight and
r, c the row and column weights (no weights: r_i c_j = 0). Rows are sharded contiguously
(the first `rows % shards` shards hold one more). Variables, their names and collections,
and the losses (scaled by n / |batch|) are TF 1.15's.
"""
import numpy as np
import tensorflow as tf

v1 = tf.compat.v1


def _shard_sizes(size, shards):
    return [size // shards + (1 if i < size % shards else 0) for i in range(shards)]


def _weights(weights, sizes, name):
    """Per-shard weight variables (from a list of lists, or one number for every row), or
    None (no weights: w_ij = w0 everywhere)."""
    if weights is None:
        return None
    if np.isscalar(weights):
        weights = [np.full([size], weights, np.float32) for size in sizes]
    weights = list(weights)
    if len(weights) != len(sizes):
        raise ValueError(f"{name}: one list of weights per shard ({len(sizes)} shards) is "
                         f"needed, got {len(weights)} lists.")
    out = []
    for i, (values, size) in enumerate(zip(weights, sizes)):
        values = np.asarray(values, np.float32).reshape([-1])
        if values.shape[0] != size:
            raise ValueError(f"{name}[{i}] has {values.shape[0]} weights; shard {i} holds "
                             f"{size} rows.")
        out.append(v1.Variable(values, name=f"{name}_shard_{i}"))
    return out


class WALSModel:
    """Weighted ALS matrix factorization A ~ U V^T of an [input_rows, input_cols] matrix:
    `update_row_factors` / `update_col_factors` solve one side for a batch of rows/columns
    given the other, after the prep (gramian) and initialize (cache) ops."""

    def __init__(self, input_rows, input_cols, n_components, unobserved_weight=0.1,
                 regularization=None, row_init="random", col_init="random", num_row_shards=1,
                 num_col_shards=1, row_weights=1, col_weights=1,
                 use_factors_weights_cache=True, use_gramian_cache=True,
                 use_scoped_vars=False):
        if (row_weights is None) != (col_weights is None):
            raise ValueError("row_weights and col_weights must both be None (plain ALS) or "
                             "both be given.")
        self._rows, self._cols, self._k = int(input_rows), int(input_cols), int(n_components)
        self._w0 = float(unobserved_weight)
        self._lambda = float(regularization or 0.0)
        self._scoped = use_scoped_vars
        self._row_sizes = _shard_sizes(self._rows, num_row_shards)
        self._col_sizes = _shard_sizes(self._cols, num_col_shards)
        self._row_weights = _weights(row_weights, self._row_sizes, "row_weights")
        self._col_weights = _weights(col_weights, self._col_sizes, "col_weights")
        self._row_factors = self._factors(row_init, self._row_sizes, "row_factors")
        self._col_factors = self._factors(col_init, self._col_sizes, "col_factors")
        self._row_gramian = self._variable(tf.zeros([self._k, self._k]), "row_gramian")
        self._col_gramian = self._variable(tf.zeros([self._k, self._k]), "col_gramian")
        self._caches = {}
        with tf.name_scope("transient_vars"):
            if use_factors_weights_cache:
                for side in ("row", "col"):
                    self._caches[f"{side}_factors"] = self._cache(
                        f"{side}_factors_cache", getattr(self, f"_{side}_factors"))
                for side in ("row", "col"):
                    weights = getattr(self, f"_{side}_weights")
                    if isinstance(weights, list):
                        self._caches[f"{side}_wt"] = self._cache(f"{side}_wt_cache", weights)
            if use_gramian_cache:
                for side in ("row", "col"):
                    self._caches[f"{side}_gramian"] = self._cache(
                        f"{side}_gramian_cache", [getattr(self, f"_{side}_gramian")],
                        sharded=False)
        # (variables made eagerly, as a tf.function step's are, have no initializer op)
        self._initialize_op = tf.group(*[v.initializer for v in self._model_variables()
                                         if v.initializer is not None])
        self._worker_init = tf.group(*[v.initializer for vs in self._caches.values()
                                       for v in vs if v.initializer is not None])
        self._row_prep = self._col_gramian_assign(self._col_factors, self._col_gramian)
        self._col_prep = self._col_gramian_assign(self._row_factors, self._row_gramian)

    # variables
    def _variable(self, initial, name):
        if self._scoped:
            return v1.get_variable(name, initializer=initial)
        return v1.Variable(initial, name=name)

    def _factors(self, init, sizes, name):
        if isinstance(init, str):
            if init != "random":
                raise ValueError(f"{name} init {init!r}: use 'random' or the initial values "
                                 f"(an array, or a list of one array per shard).")
            values = [v1.random_normal([size, self._k]) for size in sizes]
        else:
            values = [init] if len(sizes) == 1 and np.ndim(init) == 2 else list(init)
            if len(values) != len(sizes):
                raise ValueError(f"{name} init: one array per shard ({len(sizes)}) is needed, "
                                 f"got {len(values)}.")
            values = [np.asarray(v, np.float32) for v in values]
            for i, (v, size) in enumerate(zip(values, sizes)):
                if v.shape != (size, self._k):
                    raise ValueError(f"{name} init shard {i} has shape {v.shape}; "
                                     f"{(size, self._k)} is needed.")
        return [self._variable(v, f"{name}_shard_{i}") for i, v in enumerate(values)]

    @staticmethod
    def _cache(name, variables, sharded=True):
        return [v1.Variable(tf.zeros([0]), name=f"{name}_shard_{i}" if sharded else name,
                            collections=[v1.GraphKeys.LOCAL_VARIABLES], trainable=False,
                            validate_shape=False, shape=tf.TensorShape(None))
                for i, _ in enumerate(variables)]

    def _model_variables(self):
        out = []
        for weights in (self._row_weights, self._col_weights):
            out += weights if isinstance(weights, list) else []
        return out + self._row_factors + self._col_factors + [self._row_gramian,
                                                              self._col_gramian]

    @staticmethod
    def _col_gramian_assign(factors, gramian):
        total = tf.add_n([tf.matmul(f, f, transpose_a=True) for f in factors])
        return v1.assign(gramian, total).op

    def _initialize_update(self, side):
        """Copies `side`'s factors, weights and gramian (what the other side's update reads)
        into their caches, and empties the other side's caches."""
        other = "row" if side == "col" else "col"
        ops = [v1.assign(cache, tf.zeros([0]), validate_shape=False).op
               for kind in ("factors", "wt", "gramian")
               for cache in self._caches.get(f"{other}_{kind}", [])]
        pairs = [("factors", getattr(self, f"_{side}_factors")),
                 ("wt", getattr(self, f"_{side}_weights")),
                 ("gramian", [getattr(self, f"_{side}_gramian")])]
        for kind, variables in pairs:
            for cache, var in zip(self._caches.get(f"{side}_{kind}", []), variables or []):
                ops.append(v1.assign(cache, var, validate_shape=False).op)
        return tf.group(*ops)

    # the public view
    row_factors = property(lambda self: self._row_factors)
    col_factors = property(lambda self: self._col_factors)
    row_weights = property(lambda self: self._row_weights)
    col_weights = property(lambda self: self._col_weights)
    initialize_op = property(lambda self: self._initialize_op)
    worker_init = property(lambda self: self._worker_init)
    row_update_prep_gramian_op = property(lambda self: self._row_prep)
    col_update_prep_gramian_op = property(lambda self: self._col_prep)
    initialize_row_update_op = property(lambda self: self._initialize_update("col"))
    initialize_col_update_op = property(lambda self: self._initialize_update("row"))

    # the solve
    def _other(self, other, kind):
        """The other side's factors / weights / gramian: from the caches when kept."""
        cache = self._caches.get(f"{other}_{kind}")
        source = {"factors": getattr(self, f"_{other}_factors"),
                  "wt": getattr(self, f"_{other}_weights"),
                  "gramian": [getattr(self, f"_{other}_gramian")]}[kind]
        if not isinstance(source, list):
            return source
        if cache:
            shapes = [v.shape for v in source]
            source = [tf.reshape(c, s) for c, s in zip(cache, shapes)]
        return tf.concat(source, 0) if kind != "gramian" else source[0]

    def _solve(self, sp_input, transpose_input, side, row_weights):
        """(batch ids, new factors, unregularized loss, regularization, sum of weights)."""
        other = "col" if side == "row" else "row"
        n = self._rows if side == "row" else self._cols
        n_other = self._cols if side == "row" else self._rows
        sp_input = v1.convert_to_tensor_or_sparse_tensor(sp_input)
        indices = sp_input.indices
        if transpose_input:
            indices = tf.reverse(indices, [1])
        ids, position = tf.unique(indices[:, 0])
        other_ids = indices[:, 1]
        values = tf.cast(sp_input.values, tf.float32)
        factors = self._other(other, "factors")
        gramian = self._other(other, "gramian")
        v = tf.gather(factors, other_ids)  # [nnz, k]
        batch = tf.size(ids)
        other_weights = self._other(other, "wt") if row_weights is not None else None
        if row_weights is None:
            extra = tf.zeros_like(values)
        else:
            r = row_weights if not callable(row_weights) else row_weights(ids)
            r = tf.gather(r, position) if r.shape.rank else r
            c = tf.gather(other_weights, other_ids) if isinstance(other_weights, tf.Tensor) \
                else tf.constant(other_weights, tf.float32)
            extra = r * c
        outer = v[:, :, None] * v[:, None, :]
        lhs = tf.math.unsorted_segment_sum(extra[:, None, None] * outer, position, batch)
        lhs += self._lambda * tf.eye(self._k) + self._w0 * gramian
        rhs = tf.math.unsorted_segment_sum(((self._w0 + extra) * values)[:, None] * v,
                                           position, batch)
        new = tf.linalg.solve(lhs, rhs[:, :, None])[:, :, 0]
        # loss: w0 over every entry of the batch rows, plus the observed entries' extra weight
        u = tf.gather(new, position)
        predicted = tf.reduce_sum(u * v, 1)
        dense = tf.reduce_sum(tf.matmul(new, gramian) * new)  # sum over all j of (u.v_j)^2
        observed = tf.reduce_sum(self._w0 * (tf.square(values - predicted)
                                             - tf.square(predicted))
                                 + extra * tf.square(values - predicted))
        scale = tf.cast(n, tf.float32) / tf.cast(batch, tf.float32)
        loss = (self._w0 * dense + observed) * scale
        regularization = self._lambda * (tf.reduce_sum(tf.square(new)) * scale
                                         + tf.reduce_sum(tf.square(factors)))
        sum_weights = (self._w0 * tf.cast(batch * n_other, tf.float32)
                       + tf.reduce_sum(extra)) * scale
        return ids, new, loss, regularization, sum_weights

    def _side_weights(self, side):
        weights = getattr(self, f"_{side}_weights")
        if weights is None:
            return None
        if isinstance(weights, list):  # its own weights: the variables (its caches are empty)
            return lambda ids: tf.gather(tf.concat(weights, 0), ids)
        return tf.constant(weights, tf.float32)

    def _update(self, side, sp_input, transpose_input):
        ids, new, loss, reg, weights = self._solve(sp_input, transpose_input, side,
                                                   self._side_weights(side))
        variables = getattr(self, f"_{side}_factors")
        sizes = getattr(self, f"_{side}_sizes")
        bounds = tf.constant(np.cumsum(sizes)[:-1], ids.dtype)
        shard = tf.cast(tf.searchsorted(bounds, ids, side="right"), tf.int32)
        starts = tf.gather(tf.constant(np.concatenate([[0], np.cumsum(sizes)[:-1]]),
                                       ids.dtype), shard)
        local = tf.dynamic_partition(ids - starts, shard, len(variables))
        parts = tf.dynamic_partition(new, shard, len(variables))
        update = tf.group(*[v1.scatter_update(var, i, p)
                            for var, i, p in zip(variables, local, parts)])
        return new, update, loss, reg, weights

    def update_row_factors(self, sp_input=None, transpose_input=False):
        """(new factors of the batch rows, in order of first appearance, update op,
        unregularized loss, regularization, sum of weights), the last three scaled by
        input_rows / |batch|."""
        return self._update("row", sp_input, transpose_input)

    def update_col_factors(self, sp_input=None, transpose_input=False):
        """As update_row_factors, for columns (`sp_input` given as rows of A^T when
        `transpose_input`)."""
        return self._update("col", sp_input, not transpose_input)

    def _project(self, side, sp_input, transpose_input, projection_weights):
        weights = None
        if self._side_weights(side) is not None:
            weights = tf.constant(1.0) if projection_weights is None else \
                tf.cast(projection_weights, tf.float32)  # an array, list or tensor
        return self._solve(sp_input, transpose_input, side, weights)[1]

    def project_row_factors(self, sp_input=None, transpose_input=False,
                            projection_weights=None):
        """Factors of new rows (not stored) solved against the current column factors."""
        return self._project("row", sp_input, transpose_input, projection_weights)

    def project_col_factors(self, sp_input=None, transpose_input=False,
                            projection_weights=None):
        """Factors of new columns (not stored) solved against the current row factors."""
        return self._project("col", sp_input, not transpose_input, projection_weights)
