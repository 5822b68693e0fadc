"""`tf.contrib.layers.embedding_lookup_unique` and `safe_embedding_lookup_sparse` (contrib's
`embedding_ops.py`): the first looks each distinct id up once; the second is TensorFlow's
`tf.compat.v1.nn.safe_embedding_lookup_sparse`, whose combiner contrib defaulted to "mean";
`embedding_lookup_sparse_with_distributed_aggregation` is
`tf.compat.v1.nn.embedding_lookup_sparse`.

`scattered_embedding_lookup` / `scattered_embedding_lookup_sparse` (parameter hashing: the
i-th component of value v's embedding is the weight at index hash(i, v) of a flat parameter
vector) hash the pairs as TF 1.15's SparseFeatureCross did: with a `hash_key`, FingerprintCat64
(`tf.sparse.cross_hashed`); without, the first kernel's hashing (`feature_columns/crossing.py`).
"""
import tensorflow as tf

v1 = tf.compat.v1


def embedding_lookup_unique(params, ids, partition_strategy="mod", name=None):
    """`tf.nn.embedding_lookup` of the unique ids, gathered back to `ids`' shape (ids of any
    rank: the result is ids' shape + the embedding's)."""
    with tf.name_scope(name or "EmbeddingLookupUnique"):
        ids = tf.convert_to_tensor(ids)
        flat = tf.reshape(ids, [-1])
        unique, index = tf.unique(flat)
        embeddings = v1.nn.embedding_lookup(params, unique, partition_strategy=partition_strategy)
        gathered = tf.gather(embeddings, index)
        shape = tf.concat([tf.shape(ids), tf.shape(gathered)[1:]], 0)
        out = tf.reshape(gathered, shape)
        out.set_shape(ids.shape.concatenate(embeddings.shape[1:]))
        return out


def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None,
                                 combiner=None, default_id=None, name=None,
                                 partition_strategy="div", max_norm=None):
    """Embedding lookup of a SparseTensor of ids; empty rows get `default_id`'s row (or 0s)."""
    if combiner is None:
        v1.logging.warn("The default value of combiner will change from \"mean\" "
                        "to \"sqrtn\" after 2016/11/01.")
        combiner = "mean"
    return v1.nn.safe_embedding_lookup_sparse(
        embedding_weights, sparse_ids, sparse_weights=sparse_weights, combiner=combiner,
        default_id=default_id, name=name, partition_strategy=partition_strategy,
        max_norm=max_norm)


def embedding_lookup_sparse_with_distributed_aggregation(params, sp_ids, sp_weights,
                                                         partition_strategy="mod", name=None,
                                                         combiner=None, max_norm=None):
    """`tf.compat.v1.nn.embedding_lookup_sparse` (contrib's variant only aggregated on the
    parameter shards' devices: the values are the same); combiner defaults to "mean"."""
    if combiner is None:
        v1.logging.warn("The default value of combiner will change from \"mean\" "
                        "to \"sqrtn\" after 2016/11/01.")
        combiner = "mean"
    return v1.nn.embedding_lookup_sparse(params, sp_ids, sp_weights,
                                         partition_strategy=partition_strategy, name=name,
                                         combiner=combiner, max_norm=max_norm)


# TF 1.15's fill value for the empty rows of scattered_embedding_lookup_sparse: arbitrary
# values unlikely to collide with real ones
_EMPTY_ROW_STRING = "6ZxWzWOHxZ"
_EMPTY_ROW_INT = 1288896567


def _partitions(params):
    """The rank-1 parameter tensors of `params` (a Tensor, a list of them or a
    PartitionedVariable) and their total size, checked as TF 1.15 did."""
    if hasattr(params, "_get_variable_list"):  # a PartitionedVariable
        params = list(params)
    if not isinstance(params, (list, tuple)):
        params = [params]
    params = [p if isinstance(p, tf.Variable) else tf.convert_to_tensor(p) for p in params]
    sizes = []
    for p in params:
        if p.shape.rank != 1 or not p.shape.is_fully_defined():
            raise ValueError("scattered_embedding_lookup: params must be rank-1 tensors of "
                             f"fully defined shape, got shape {p.shape}")
        sizes.append(int(p.shape[0]))
    total, count = sum(sizes), len(sizes)
    expected = [(total - p - 1) // count + 1 for p in range(count)]  # the "div" split
    if sizes != expected:
        raise ValueError("scattered_embedding_lookup: partitions must have the same length, "
                         f"the first ones one element more where needed: {total} parameters "
                         f"in {count} partitions are {expected}, got {sizes}")
    return params, total


def _hashed_ids(values, dimension, num_params, hash_key):
    """[N, dimension] ids: hash(i, value) mod num_params for each flat value and i < dimension
    (TF 1.15 crossed the candidates i with the values, in that order)."""
    from estimator_compat.legacy.contrib.layers.feature_columns import crossing
    n = tf.size(values, out_type=tf.int64)
    rows = tf.range(n)
    value_sparse = tf.SparseTensor(tf.stack([rows, tf.zeros_like(rows)], 1), values,
                                   tf.stack([n, 1]))
    grid = tf.reshape(tf.stack(tf.meshgrid(rows, tf.range(dimension, dtype=tf.int64),
                                           indexing="ij"), -1), [-1, 2])
    candidates = tf.SparseTensor(grid, grid[:, 1], tf.stack([n, dimension]))
    if hash_key:
        crossed = tf.sparse.cross_hashed([candidates, value_sparse], num_buckets=num_params,
                                         hash_key=hash_key)
    else:
        crossed = crossing._v1_hashed_cross([candidates, value_sparse], num_params)
    return tf.reshape(crossed.values, [-1, dimension])


def scattered_embedding_lookup(params, values, dimension, name=None, hash_key=None):
    """[d0, ..., dn, dimension] embeddings of `values` ([d0, ..., dn], strings or integers):
    component i of value v is `params[hash(i, v) mod size]` (`params` split as "div"
    partitions when a list or PartitionedVariable)."""
    if not isinstance(dimension, int) or dimension <= 0:
        raise ValueError(f"scattered_embedding_lookup: dimension must be a positive int, got "
                         f"{dimension!r}")
    with tf.name_scope(name or "scattered_embedding_lookup"):
        parts, num_params = _partitions(params)
        values = tf.convert_to_tensor(values)
        if not (values.dtype == tf.string or values.dtype.is_integer):
            raise TypeError("scattered_embedding_lookup: values must be strings or integers, "
                            f"got {values.dtype.name}")
        if values.dtype != tf.string:
            values = tf.cast(values, tf.int64)
        ids = _hashed_ids(tf.reshape(values, [-1]), dimension, num_params, hash_key)
        looked_up = v1.nn.embedding_lookup(parts, ids, partition_strategy="div")
        out = tf.reshape(looked_up, tf.concat([tf.shape(values), [dimension]], 0))
        out.set_shape(values.shape.concatenate([dimension]))
        return out


def scattered_embedding_lookup_sparse(params, sparse_values, dimension, combiner=None,
                                      default_value=None, name=None, hash_key=None):
    """[rows, dimension]: the scattered embeddings of each row's values of a 2-D SparseTensor,
    combined ("mean" by default, "sqrtn", "sum"); an empty row is looked up as
    `default_value` (a value of `sparse_values`' type)."""
    if combiner is None:
        v1.logging.warning("The default value of combiner will change from \"mean\" "
                           "to \"sqrtn\" after 2016/11/01.")
        combiner = "mean"
    if combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum', got {combiner!r}")
    if isinstance(sparse_values, v1.SparseTensorValue):
        sparse_values = tf.SparseTensor.from_value(sparse_values)
    if not isinstance(sparse_values, tf.SparseTensor):
        raise TypeError("sparse_values must be SparseTensor: scattered_embedding_lookup_sparse "
                        f"got {type(sparse_values).__name__}; use scattered_embedding_lookup "
                        "for a dense Tensor")
    with tf.name_scope(name or "scattered_embedding_lookup_sparse"):
        if default_value is None:
            default_value = (_EMPTY_ROW_STRING if sparse_values.dtype == tf.string
                             else _EMPTY_ROW_INT)
        filled, _ = tf.sparse.fill_empty_rows(sparse_values,
                                              tf.constant(default_value, sparse_values.dtype))
        segment_ids = tf.cast(filled.indices[:, 0], tf.int32)
        unique, index = tf.unique(filled.values)
        embeddings = scattered_embedding_lookup(params, unique, dimension, hash_key=hash_key)
        combine = {"sum": tf.sparse.segment_sum, "mean": tf.sparse.segment_mean,
                   "sqrtn": tf.sparse.segment_sqrt_n}[combiner]
        return combine(embeddings, index, segment_ids)
