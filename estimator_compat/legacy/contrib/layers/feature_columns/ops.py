"""The layers that consume contrib feature columns, with TF 1.15's scopes and variable names:
`input_from_feature_columns` (`<scope>/<col>_embedding/weights`), `weighted_sum_from_feature_
columns` (`<scope>/<col>/weight(s)`, `<scope>/bias_weight`), `transform_features`,
`check_feature_columns`. Columns are visited in the order of their `key`, as TF 1.15 did."""
import tensorflow as tf

v1 = tf.compat.v1


def model_variable(name, shape, initializer, weight_collections, trainable):
    """A variable in GLOBAL_VARIABLES, MODEL_VARIABLES and `weight_collections`."""
    collections = [v1.GraphKeys.GLOBAL_VARIABLES, v1.GraphKeys.MODEL_VARIABLES]
    collections += [c for c in (weight_collections or []) if c not in collections]
    return v1.get_variable(name, shape=shape, dtype=tf.float32, initializer=initializer,
                           trainable=trainable, collections=collections)


def init_from_checkpoint(ckpt, tensor_name, variable):
    if ckpt is not None:
        v1.train.init_from_checkpoint(ckpt, {tensor_name: variable})


def check_feature_columns(feature_columns):
    """Raises ValueError when two columns have the same key (one must be dropped)."""
    seen = set()
    for column in feature_columns:
        if column.key in seen:
            raise ValueError(f"Duplicate feature column key found for column: {column.name}. "
                             "This usually means that the column is almost identical to "
                             "another column, and one must be discarded.")
        seen.add(column.key)


def _columns(feature_columns, what):
    from estimator_compat.legacy.contrib.layers.feature_columns import columns as fc
    if isinstance(feature_columns, dict):
        feature_columns = feature_columns.values()
    feature_columns = list(feature_columns or [])
    if not feature_columns:
        raise ValueError(f"{what}: feature_columns must not be empty")
    for column in feature_columns:
        if not isinstance(column, fc._Column):
            raise TypeError(f"{what}: expected tf.contrib.layers feature columns, got "
                            f"{type(column).__name__} ({column!r}); tf.feature_column columns "
                            "go to tf.compat.v1.feature_column.input_layer / linear_model")
    check_feature_columns(feature_columns)
    return sorted(set(feature_columns), key=lambda c: c.key)


def transform_all(features, feature_columns):
    """`features` plus each column's (and its base columns') transformed tensor."""
    out = dict(features)
    pending = list(feature_columns)
    while pending:
        column = pending.pop(0)
        if column not in out:
            out[column] = column.transform(features)
            pending.extend(c for c in column.base_columns() if c is not column)
    return out


def transform_features(features, feature_columns):
    """{column: its transformed Tensor / SparseTensor} for each of `feature_columns`."""
    columns = _columns(feature_columns, "transform_features")
    with tf.name_scope("transform_features"):
        done = transform_all(features, columns)
    return {column: done[column] for column in columns}


def input_from_feature_columns(columns_to_tensors, feature_columns, weight_collections=None,
                               trainable=True, scope=None, cols_to_outs=None):
    """The [batch, n] DNN input of `feature_columns`: their dense forms concatenated."""
    columns = _columns(feature_columns, "input_from_feature_columns")
    with v1.variable_scope(scope, default_name="input_from_feature_columns",
                           values=list(columns_to_tensors.values())):
        transformed = transform_all(columns_to_tensors, columns)
        outputs = []
        for column in columns:
            with v1.variable_scope(None, default_name=column.name):
                out = column.to_dnn_input(transformed[column], weight_collections, trainable)
            if cols_to_outs is not None:
                cols_to_outs[column] = out
            outputs.append(out)
        return tf.concat(outputs, axis=1)


def weighted_sum_from_feature_columns(columns_to_tensors, feature_columns, num_outputs,
                                      weight_collections=None, trainable=True, scope=None):
    """A linear model: (predictions [batch, num_outputs], {column: [variable]}, bias), all
    weights initialized to zero."""
    from estimator_compat.legacy.contrib.layers.feature_columns import columns as fc
    columns = _columns(feature_columns, "weighted_sum_from_feature_columns")
    for column in columns:
        if isinstance(column, (fc._EmbeddingColumn, fc._OneHotColumn)):
            raise ValueError(f"weighted_sum_from_feature_columns: {column.name!r} is a DNN "
                             "column; give its sparse column instead")
    zeros = v1.zeros_initializer()
    with v1.variable_scope(scope, default_name="weighted_sum_from_feature_columns",
                           values=list(columns_to_tensors.values())):
        transformed = transform_all(columns_to_tensors, columns)
        outputs, column_to_variable = [], {}
        for column in columns:
            value = transformed[column]
            with v1.variable_scope(None, default_name=column.name):
                weights = model_variable(column.linear_weight_name,
                                         column.linear_weights_shape() + [num_outputs],
                                         zeros, weight_collections, trainable)
                init_from_checkpoint(getattr(column, "ckpt_to_load_from", None),
                                     getattr(column, "tensor_name_in_ckpt", None), weights)
                if isinstance(column, fc._RealValuedColumn):
                    out = tf.matmul(column._dense(value), weights)
                else:
                    out = v1.nn.safe_embedding_lookup_sparse(
                        weights, column.id_tensor(value),
                        sparse_weights=column.weight_tensor(value), combiner=column.combiner,
                        name=column.name + "_weights")
            column_to_variable[column] = [weights]
            outputs.append(out)
        bias = model_variable("bias_weight", [num_outputs], zeros, weight_collections,
                              trainable)
        predictions = tf.nn.bias_add(tf.add_n(outputs), bias, name="weighted_sum")
        return predictions, column_to_variable, bias


def joint_weighted_sum_from_feature_columns(columns_to_tensors, feature_columns, num_outputs,
                                            weight_collections=None, trainable=True,
                                            scope=None):
    """A linear model of sparse columns sharing one weight table (`<scope>/linear_weights/
    weights`, ids offset column after column): (predictions, [variable], bias)."""
    from estimator_compat.legacy.contrib.layers.feature_columns import columns as fc
    columns = _columns(feature_columns, "joint_weighted_sum_from_feature_columns")
    for column in columns:
        if isinstance(column, fc._RealValuedColumn):
            raise NotImplementedError(
                "Real-valued columns are not supported. Use weighted_sum_from_feature_columns "
                "instead, or bucketize these columns.")
        if not isinstance(column, (fc._SparseColumn, fc._CrossedColumnBase)):
            raise ValueError(f"joint_weighted_sum_from_feature_columns: {column.name!r} is a "
                             f"{type(column).__name__}; it takes sparse_column_* and "
                             "crossed_column only (use weighted_sum_from_feature_columns)")
    zeros = v1.zeros_initializer()
    with v1.variable_scope(scope, default_name="joint_weighted_sum_from_feature_columns",
                           values=list(columns_to_tensors.values())):
        transformed = transform_all(columns_to_tensors, columns)
        ids, weights, offset = [], [], 0
        for column in columns:
            value = transformed[column]
            id_tensor = column.id_tensor(value)
            ids.append(tf.SparseTensor(id_tensor.indices, id_tensor.values + offset,
                                       id_tensor.dense_shape))
            weight = column.weight_tensor(value)
            weights.append(weight if weight is not None else tf.SparseTensor(
                id_tensor.indices, tf.ones_like(id_tensor.values, tf.float32),
                id_tensor.dense_shape))
            offset += column.linear_weights_shape()[0]
        all_ids = tf.sparse.concat(1, ids, expand_nonconcat_dims=True)
        all_weights = tf.sparse.concat(1, weights, expand_nonconcat_dims=True)
        with v1.variable_scope("linear_weights"):
            variable = model_variable("weights", [offset, num_outputs], zeros,
                                      weight_collections, trainable)
        out = v1.nn.safe_embedding_lookup_sparse(variable, all_ids, all_weights,
                                                 combiner="sum")
        bias = model_variable("bias_weight", [num_outputs], zeros, weight_collections,
                              trainable)
        return tf.nn.bias_add(out, bias), [variable], bias


def infer_real_valued_columns(features):
    """One real_valued_column per feature: a Tensor gives the column "" (dimension: the
    product of its non-batch dimensions), a dict one column per key."""
    from estimator_compat.legacy.contrib.layers.feature_columns import columns as fc
    if not isinstance(features, dict):
        return [_infer("", features, fc)]
    return [_infer(key, value, fc) for key, value in features.items()]


def _infer(name, value, fc):
    value = value if isinstance(value, tf.SparseTensor) else tf.convert_to_tensor(value)
    dtype = value.dtype
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError("Non integer or non floating types are not supported for auto "
                         f"detection. Please define corresponding FeatureColumn for tensor "
                         f"{name} {value}.")
    shape = value.shape.as_list()[1:]
    if any(d is None for d in shape):
        raise ValueError(f"infer_real_valued_columns: feature {name!r} needs a known shape "
                         f"past the batch dimension, got {value.shape}")
    dimension = 1
    for d in shape:
        dimension *= d
    return fc.real_valued_column(name, dimension=dimension, dtype=dtype)
