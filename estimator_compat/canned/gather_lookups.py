"""One value per row: a canned model's categorical lookups as a gather, not a sparse lookup.

TensorFlow's feature columns make every categorical input a SparseTensor and look it up with
`safe_embedding_lookup_sparse` (about 30 graph nodes: fill empty rows, prune invalid ids,
unique, gather, segment combine, mask), in each DNN embedding and in each weighted sum of the
linear part: on the wide & deep benchmark most of the step's graph. When the input is a dense
`[batch]` or `[batch, 1]` tensor (the usual tabular feature) every row holds at most one id,
and the same result is a gather of each row's id, zeroed where the row has none (about 8
nodes):
- the ids come from the column's own transform (its vocabulary table, hash, identity default,
  or the hashed cross of its keys), so they are the ids TensorFlow's path computes;
- a missing value ('' or -1, which TensorFlow drops) or an id < 0 gives a zero row, as there;
  with one id per row every combiner ('mean', 'sqrtn', 'sum') returns that id's row;
- the variables have the same names, shapes, initializers and collections;
- gradients reach the rows TensorFlow's path reaches (including id 0, with a zero value, for
  a row without a valid id), so an optimizer with per-row state (Ftrl, momentum) updates the
  rows it did there.
Active only while a canned model_fn builds its logits (`gather_lookups()`); elsewhere, and for
sparse or multi-valued inputs, weighted or shared columns and embeddings with a checkpoint to
load or `use_safe_embedding_lookup=False`, TensorFlow's own path runs (its two functions are
swapped once, and delegate to the originals outside such a block).
"""
import contextlib
import threading

import tensorflow as tf

try:  # private: without them every lookup takes TensorFlow's sparse path, as before
    from tensorflow.python.feature_column import feature_column as _fc_v1
    from tensorflow.python.feature_column import feature_column_v2 as _fc_v2
    from tensorflow.python.ops.variables import PartitionedVariable as _Partitioned
    _SIMPLE = (_fc_v2.VocabularyListCategoricalColumn, _fc_v2.VocabularyFileCategoricalColumn,
               _fc_v2.IdentityCategoricalColumn, _fc_v2.HashedCategoricalColumn)
    _CROSSED = _fc_v2.CrossedColumn
    _BUCKETIZED = _fc_v2.BucketizedColumn
    _LEAVES = _SIMPLE + (_BUCKETIZED,)
    _ORIGINAL_SUM = _fc_v1._create_categorical_column_weighted_sum
    _ORIGINAL_EMBEDDING = _fc_v2.EmbeddingColumn._get_dense_tensor
    _leaf_keys = _fc_v2._collect_leaf_level_keys
except (ImportError, AttributeError):  # pragma: no cover
    _fc_v1 = None

v1 = tf.compat.v1
ENABLED = True  # False: TensorFlow's sparse path everywhere (tests compare the two)
_local = threading.local()  # per thread: MirroredStrategy traces each replica in its own
_install_lock = threading.Lock()


@contextlib.contextmanager
def gather_lookups():
    """Within: lookups of one-value-per-row columns are gathers; ids shared by every part."""
    if _fc_v1 is None or not ENABLED or getattr(_local, "ids", None) is not None:
        yield  # unavailable, or an enclosing block (wide & deep's two parts) already shares
        return
    _install()
    _local.ids = {}
    try:
        yield
    finally:
        _local.ids = None


def takes(features, column):
    """Whether the gather path will look `column` up from `features` (a dict of raw inputs)."""
    if _fc_v1 is None or not isinstance(features, dict):
        return False
    if isinstance(column, _CROSSED):
        return all(takes(features, key) for key in _leaf_keys(column))
    if isinstance(column, str):  # a cross's raw key
        return _dense_key(features, column)
    if isinstance(column, _BUCKETIZED):
        return (tuple(column.source_column.shape) == (1,)
                and _dense_key(features, column.source_column.key))
    return isinstance(column, _SIMPLE) and _dense_key(features, column.key)


def _dense_key(features, key):
    value = features.get(key)
    return (isinstance(value, tf.Tensor) and value.shape.rank in (1, 2)
            and (value.shape.rank == 1 or value.shape[1] == 1))


def _install():
    with _install_lock:
        if _fc_v1._create_categorical_column_weighted_sum is not _weighted_sum:
            _fc_v1._create_categorical_column_weighted_sum = _weighted_sum
            _fc_v2.EmbeddingColumn._get_dense_tensor = _embedding_dense_tensor


def _weighted_sum(column, builder, units, sparse_combiner, weight_collections, trainable,
                  weight_var=None):
    """linear_model's weighted sum of a categorical column (its weights: `<column>/weights`)."""
    found = _ids(column, builder)
    if found is None:
        return _ORIGINAL_SUM(column, builder, units, sparse_combiner, weight_collections,
                             trainable, weight_var)
    weights = weight_var if weight_var is not None else v1.get_variable(
        name="weights", shape=(column._num_buckets, units),
        initializer=v1.zeros_initializer(), trainable=trainable,
        collections=weight_collections)
    with tf.name_scope("weighted_sum"):
        return _lookup(weights, *found)


def _embedding_dense_tensor(self, inputs, weight_collections=None, trainable=None):
    """input_layer's embedding of a column (its variable: `<column>/embedding_weights`)."""
    found = None
    if self.ckpt_to_load_from is None and self.use_safe_embedding_lookup:
        found = _ids(self.categorical_column, inputs)
    if found is None:
        return _ORIGINAL_EMBEDDING(self, inputs, weight_collections, trainable)
    if weight_collections and v1.GraphKeys.GLOBAL_VARIABLES not in weight_collections:
        weight_collections.append(v1.GraphKeys.GLOBAL_VARIABLES)
    weights = v1.get_variable(
        name="embedding_weights",
        shape=(self.categorical_column._num_buckets, self.dimension), dtype=tf.float32,
        initializer=self.initializer, trainable=self.trainable and trainable,
        collections=weight_collections)
    with tf.name_scope(f"{self.name}_weights"):
        return _lookup(weights, *found, max_norm=self.max_norm)


def _ids(column, builder):
    """(ids, present, may_be_negative) of a column with one value per row, or None."""
    cache = getattr(_local, "ids", None)
    if cache is None:
        return None
    if column not in cache:
        cache[column] = _transform(column, builder)
    return cache[column]


def _transform(column, builder):
    if isinstance(column, _CROSSED):
        return _crossed(column, builder)
    if isinstance(column, _BUCKETIZED):  # a bucket per row, never missing
        if tuple(column.source_column.shape) != (1,):
            return None
        buckets = builder.get(column)  # [batch, 1], TensorFlow's own bucketize
        return tf.reshape(tf.cast(buckets, tf.int64), [-1]), None, False
    if not isinstance(column, _SIMPLE):
        return None
    raw = _one_per_row(builder, column.key)
    if raw is None:
        return None
    rows = tf.shape(raw, out_type=tf.int64)[0]
    index = tf.range(rows)
    view = tf.SparseTensor(tf.stack([index, tf.zeros_like(index)], 1), raw,
                           tf.stack([rows, tf.constant(1, tf.int64)]))
    ids = column._transform_input_tensor(view).values  # the column's own ids, row by row
    never_negative = (isinstance(column, _fc_v2.HashedCategoricalColumn)
                      or getattr(column, "num_oov_buckets", 0) > 0)
    return ids, tf.not_equal(raw, _missing(raw.dtype)), not never_negative


def _crossed(column, builder):
    """The hashed cross of the keys' values (categorical keys' ids, -1 included, as there);
    a row is missing where any categorical key's value is. The cross op hashes its sparse
    inputs before its dense ones, and TensorFlow's path gives it the categorical keys' ids
    as sparse and the raw features named by string keys as dense: that order is kept."""
    ids, raws, present = [], [], []
    for key in _leaf_keys(column):
        if isinstance(key, str):
            raw = _one_per_row(builder, key)
            if raw is None:
                return None
            raws.append(raw)
        else:
            found = _ids(key, builder) if isinstance(key, _LEAVES) else None
            if found is None:
                return None
            ids.append(found[0])
            if found[1] is not None:
                present.append(found[1])
    crossed = tf.sparse.cross_hashed([tf.expand_dims(value, 1) for value in ids + raws],
                                     num_buckets=column.hash_bucket_size,
                                     hash_key=column.hash_key)
    present = tf.reduce_all(tf.stack(present), 0) if present else None
    return crossed.values, present, False


def _one_per_row(builder, key):
    """The raw feature as a `[batch]` tensor when it is a dense one value per row."""
    try:
        raw = builder.get(key)  # rank 1 expanded to [batch, 1], as TensorFlow's path sees it
    except (ValueError, TypeError, KeyError):
        return None  # TensorFlow's path raises its own error for it
    if not isinstance(raw, tf.Tensor) or raw.shape.rank != 2 or raw.shape[1] != 1:
        return None
    return tf.reshape(raw, [-1])


def _missing(dtype):
    """The value TensorFlow's columns drop as missing: '' for strings, -1 for integers."""
    return tf.constant("" if dtype == tf.string else -1, dtype)


def _lookup(weights, ids, present, may_be_negative, max_norm=None):
    """Rows of `weights` for the valid ids, zero rows elsewhere. A row without a valid id
    looks up id 0 and is zeroed, as `safe_embedding_lookup_sparse` fills an empty row: its
    gradient reaches the same rows (id 0 with a zero value for such a row) as there."""
    valid = present
    if may_be_negative:
        valid = tf.logical_and(present, ids >= 0) if present is not None else ids >= 0
    if isinstance(weights, _Partitioned):
        weights = list(weights)
    if valid is not None:
        ids = tf.where(valid, ids, tf.zeros_like(ids))
    rows = v1.nn.embedding_lookup(weights, ids, partition_strategy="div", max_norm=max_norm)
    if valid is None:  # a cross of raw string keys only: every row holds an id
        return rows
    return tf.where(tf.expand_dims(valid, 1), rows, tf.zeros_like(rows))
