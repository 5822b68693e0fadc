"""The labels a contrib.learn model_fn sees in predict(): stand-ins shaped as the labels of
the first fit() / evaluate().

TF 1.15's tf.contrib.learn.Estimator recorded the dtype and shape (batch dimension left
unknown) of the labels it trained or evaluated on, and called the model_fn in INFER mode from
predict() with unfed placeholders of that signature, so model_fns written as
`tf.one_hot(target, n)` and a train_op before looking at the mode ran there (an estimator
that had not trained or evaluated yet passed None, as export did). A TF1 session never ran
that loss or train_op; the engine's traced step does run them (their writes diverted to
scratch variables), so the stand-in is a `placeholder_with_default` of zeros of the features'
batch size, and `check_predictions` refuses predictions that read it, where TF 1.15 failed
with "You must feed a value for placeholder".
"""
import tensorflow as tf


def signature(labels):
    """{name: spec} / spec (tf.TensorSpec or tf.SparseTensorSpec, batch dim None) or None."""
    if labels is None:
        return None
    if isinstance(labels, dict):
        return {key: signature(value) for key, value in labels.items()}
    if isinstance(labels, tf.SparseTensor):
        return tf.SparseTensorSpec(tf.TensorShape(None), labels.dtype)
    labels = tf.convert_to_tensor(labels)
    shape = labels.shape
    if shape.rank:
        shape = tf.TensorShape([None]).concatenate(shape[1:])
    return tf.TensorSpec(shape, labels.dtype)


def placeholders(spec, features):
    """Stand-ins (zeros of the batch size of `features`, or unfed placeholders where that is
    unknown) with the signature `spec`."""
    if spec is None:
        return None
    if isinstance(spec, dict):
        return {key: placeholders(value, features) for key, value in spec.items()}
    batch = _batch_size(features)
    if isinstance(spec, tf.SparseTensorSpec) or batch is None or spec.shape.rank is None \
            or not spec.shape.rank or not spec.shape[1:].is_fully_defined():
        if isinstance(spec, tf.SparseTensorSpec):
            return tf.compat.v1.sparse_placeholder(spec.dtype, name="labels")
        return tf.compat.v1.placeholder(spec.dtype, spec.shape, name="labels")
    rest = tf.constant(spec.shape[1:].as_list(), tf.int32, shape=[spec.shape.rank - 1])
    zeros = tf.zeros(tf.concat([tf.reshape(batch, [1]), rest], 0), spec.dtype)
    return tf.compat.v1.placeholder_with_default(zeros, spec.shape, name="labels")


def _batch_size(features):
    for value in tf.nest.flatten(features, expand_composites=False):
        if isinstance(value, tf.SparseTensor):
            return tf.cast(value.dense_shape[0], tf.int32)
        if isinstance(value, tf.Tensor) and value.shape.rank:
            return tf.shape(value)[0]
    return None


def check_predictions(predictions, labels):
    """Raises where the predictions read the labels stand-ins (TF 1.15: an unfed placeholder)."""
    stand_ins = {t.op for t in tf.nest.flatten(labels, expand_composites=True)
                 if isinstance(t, tf.Tensor)}
    if not stand_ins:
        return
    seen, stack = set(), [t.op for t in tf.nest.flatten(predictions, expand_composites=True)
                          if isinstance(t, tf.Tensor)]
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        if op in stand_ins:
            raise ValueError(
                "The model_fn's predictions read its labels, which predict() does not have: "
                "tf.contrib.learn.Estimator passed it placeholders of the labels' signature "
                "(TF 1.15 failed here with 'You must feed a value for placeholder'). Compute "
                "the predictions from the features alone.")
        seen.add(op)
        stack.extend(t.op for t in op.inputs)
        stack.extend(op.control_inputs)
