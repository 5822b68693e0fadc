"""`tf.contrib.layers.bow_encoder` and `embed_sequence`: an `embeddings` model variable
([vocab_size, embed_dim], in MODEL_VARIABLES as TF 1.15 made it) and a lookup into it."""
import tensorflow as tf

from estimator_compat.legacy.contrib.layers.embedding_ops import embedding_lookup_unique

v1 = tf.compat.v1


def _embeddings(vocab_size, embed_dim, initializer, regularizer, trainable):
    from estimator_compat.legacy.contrib.tf_slim_loader import tf_slim
    return tf_slim().model_variable("embeddings", shape=[vocab_size, embed_dim],
                                    initializer=initializer, regularizer=regularizer,
                                    trainable=trainable)


def bow_encoder(ids, vocab_size, embed_dim, sparse_lookup=True, initializer=None,
                regularizer=None, trainable=True, scope=None, reuse=None):
    """Averages the embeddings of each example's ids ([batch, doc_length] -> [batch, embed_dim]).

    With `sparse_lookup` the ids become a SparseTensor without the 0 (padding) ids and an
    example without ids gets embedding 0's row; without it, every id (padding too) is averaged.
    """
    if vocab_size is None or embed_dim is None:
        raise ValueError("bow_encoder needs vocab_size and embed_dim (the embeddings' shape).")
    with v1.variable_scope(scope, "bow_encoder", [ids], reuse=reuse):
        embeddings = _embeddings(vocab_size, embed_dim, initializer, regularizer, trainable)
        if sparse_lookup:
            if isinstance(ids, tf.SparseTensor):
                sparse_ids = ids
            else:
                from estimator_compat.legacy.contrib.tf_slim_loader import tf_slim
                sparse_ids = tf_slim().layers.dense_to_sparse(ids)
            return v1.nn.safe_embedding_lookup_sparse([embeddings], sparse_ids, combiner="mean",
                                                      default_id=0)
        if isinstance(ids, tf.SparseTensor):
            raise TypeError(f"ids are expected to be a dense Tensor with sparse_lookup=False, "
                            f"got: {ids}")
        return tf.reduce_mean(tf.nn.embedding_lookup(embeddings, ids), axis=1)


def embed_sequence(ids, vocab_size=None, embed_dim=None, unique=False, initializer=None,
                   regularizer=None, trainable=True, scope=None, reuse=None):
    """Embeds each id of a [batch, doc_length] sequence: [batch, doc_length, embed_dim]."""
    if not (reuse or (vocab_size and embed_dim)):
        raise ValueError("Must specify vocab size and embedding dimension when not reusing. "
                         f"Got vocab_size={vocab_size} and embed_dim={embed_dim}")
    with v1.variable_scope(scope, "EmbedSequence", [ids], reuse=reuse):
        embeddings = _embeddings(vocab_size, embed_dim, initializer, regularizer, trainable)
        if unique:
            return embedding_lookup_unique(embeddings, ids)
        return tf.nn.embedding_lookup(embeddings, ids)
