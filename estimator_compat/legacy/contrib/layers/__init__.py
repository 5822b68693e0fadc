"""`tf.contrib.layers` as TF 1.15 had it, with its deep import paths
(`tensorflow.contrib.layers.python.layers.layers`, `...initializers`, `...regularizers`,
`...optimizers`, `...summaries`, `...utils`, `...encoders`, `...embedding_ops`, ...).

Where TF 1.15's names live here:
- the layers (conv2d & co., pools, batch_norm, layer_norm, group_norm, instance_norm,
  fully_connected, dropout, flatten, repeat, stack, ...), initializers, regularizers, summaries
  and rev_block: the `tf_slim` package (TF 1.15's contrib code, kept for TensorFlow 2's graph
  mode), loaded by `tf_slim_loader` (which serves it TF1's BatchNormalization layer,
  `slim_batch_norm`)
- optimize_loss, OPTIMIZER_CLS_NAMES, OPTIMIZER_SUMMARIES: `optimize_loss.py`
- bow_encoder, embed_sequence: `encoders.py`; embedding_lookup_unique,
  safe_embedding_lookup_sparse: `embedding_ops.py`
- the contrib feature columns (real_valued_column, crossed_column, input_from_feature_columns,
  weighted_sum_from_feature_columns, scattered_embedding_column, sequence inputs, parsing):
  `feature_columns/`; the declined target columns name `tf.estimator`'s heads
  (declined.py, missing.REPLACEMENTS)
"""
_PREFIX = "tensorflow.contrib.layers"
# contrib's sparse_feature_cross hash key (a constant of the serialized graphs' attribute)
SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY = 956888297470
_FROM_TF_SLIM = (
    "GDN", "RevBlock", "apply_regularization", "avg_pool2d", "avg_pool3d", "batch_norm",
    "bias_add", "conv1d", "conv2d", "conv2d_in_plane", "conv2d_transpose", "conv3d",
    "conv3d_transpose", "convolution", "convolution1d", "convolution2d",
    "convolution2d_in_plane", "convolution2d_transpose", "convolution3d",
    "convolution3d_transpose", "dense_to_sparse", "dropout", "elu", "flatten",
    "fully_connected", "gdn", "group_norm", "images_to_sequence", "instance_norm",
    "l1_l2_regularizer", "l1_regularizer", "l2_regularizer", "layer_norm",
    "legacy_fully_connected", "legacy_linear", "legacy_relu", "linear", "max_pool2d",
    "max_pool3d", "maxout", "one_hot_encoding", "recompute_grad", "relu", "relu6", "repeat",
    "rev_block", "scale_gradient", "separable_conv2d", "separable_convolution2d",
    "sequence_to_images", "softmax", "spatial_softmax", "stack", "sum_regularizer",
    "summarize_activation", "summarize_activations", "summarize_collection",
    "summarize_tensor", "summarize_tensors", "unit_norm", "variance_scaling_initializer",
    "xavier_initializer", "xavier_initializer_conv2d")
_BUILT = []


def names():
    """{name: value} of tf.contrib.layers."""
    from estimator_compat.legacy.contrib import optimize_loss
    from estimator_compat.legacy.contrib.layers import embedding_ops, encoders, feature_columns
    from estimator_compat.legacy.contrib.tf_slim_loader import tf_slim
    slim = tf_slim()
    served = {n: getattr(slim, n) for n in _FROM_TF_SLIM}
    served.update(
        optimize_loss=optimize_loss.optimize_loss,
        OPTIMIZER_CLS_NAMES=optimize_loss.OPTIMIZER_CLS_NAMES,
        OPTIMIZER_SUMMARIES=optimize_loss.OPTIMIZER_SUMMARIES,
        bow_encoder=encoders.bow_encoder, embed_sequence=encoders.embed_sequence,
        embedding_lookup_unique=embedding_ops.embedding_lookup_unique,
        safe_embedding_lookup_sparse=embedding_ops.safe_embedding_lookup_sparse,
        SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY=SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY)
    served.update(feature_columns.names())
    return served


def _deep_paths(served):
    import importlib

    from estimator_compat.legacy.contrib import optimize_loss
    from estimator_compat.legacy.contrib.layers import embedding_ops, encoders, feature_columns
    from estimator_compat.legacy.contrib.tf_slim_loader import deep_paths, public

    def slim_layers(name):
        return importlib.import_module("tf_slim.layers." + name)
    layers_py = {"python.layers." + m: slim_layers(m) for m in (
        "layers", "initializers", "regularizers", "summaries", "utils", "normalization",
        "rev_block_lib")}
    return deep_paths(_PREFIX, dict(
        layers_py,
        **{"python.layers.optimizers": {n: getattr(optimize_loss, n) for n in (
            "optimize_loss", "adaptive_clipping_fn", "OPTIMIZER_CLS_NAMES",
            "OPTIMIZER_SUMMARIES")},
           "python.layers.encoders": public(encoders),
           "python.layers.embedding_ops": public(embedding_ops),
           "python.layers.feature_column": feature_columns.module_names("columns"),
           "python.layers.feature_column_ops": feature_columns.module_names("ops"),
           "python.layers.target_column": feature_columns.module_names("targets"),
           "python.ops.sparse_ops": slim_layers("sparse_ops"),
           "python.ops.bucketization_op": slim_layers("bucketization_op"),
           "python.layers": served, "python": {}}))


def build():
    """The `tensorflow.contrib.layers` namespace (made once, deep paths registered)."""
    if not _BUILT:
        from estimator_compat.legacy.contrib.layers import declined
        from estimator_compat.legacy.namespaces import namespace
        declined.register("layers")
        served = names()
        paths = _deep_paths(served)
        module = namespace(_PREFIX, "tf.contrib.layers (TF 1.15's names; estimator_compat)",
                           summaries=paths["python.layers.summaries"],
                           feature_column=paths["python.layers.feature_column"], **served)
        module.__served_whole__ = True  # every TF 1.15 name: served, or declined (declined.py)
        _BUILT.append(module)
        from estimator_compat.legacy.contrib import sparse_feature_cross
        sparse_feature_cross.slim_names()  # its op modules' paths under contrib.layers
    return _BUILT[0]


def __getattr__(name):  # `from estimator_compat.legacy.contrib.layers import layer_norm`
    if name not in _FROM_TF_SLIM:  # (submodules and dunders are found the usual way)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(build(), name)
