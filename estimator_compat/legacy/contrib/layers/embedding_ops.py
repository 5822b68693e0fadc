"""`tf.contrib.layers.embedding_lookup_unique` and `safe_embedding_lookup_sparse` (contrib's
`embedding_ops.py`): the first looks each distinct id up once; the second is TensorFlow's
`tf.compat.v1.nn.safe_embedding_lookup_sparse`, whose combiner contrib defaulted to "mean";
`embedding_lookup_sparse_with_distributed_aggregation` is
`tf.compat.v1.nn.embedding_lookup_sparse`."""
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
