"""contrib.losses' deprecated loss functions (predictions or logits first), with TF 1.15's
reduction and op names: the weighted sum over the number of elements with a non-zero weight,
`<scope>/value`, added to the LOSSES collection (`hinge_loss` alone returns the unreduced
losses and collects nothing)."""
import tensorflow as tf

_v1 = tf.compat.v1


def _float(t):
    return tf.cast(tf.convert_to_tensor(t), tf.float32)


def _safe_div(numerator, denominator, name="value"):
    """numerator / denominator, 0 where the denominator is not positive."""
    safe = _v1.where(tf.equal(denominator, 0), tf.ones_like(denominator), denominator)
    return _v1.where(tf.greater(denominator, 0), tf.math.divide(numerator, safe),
                     tf.zeros_like(numerator), name=name)


def _scale_losses(losses, weights):
    """sum(losses * weights), the losses first summed over the dims the weights lack."""
    start = max(0, weights.shape.rank)
    axes = list(range(start, losses.shape.rank))
    reduced = tf.reduce_sum(losses, axis=axes) if axes else losses
    return tf.reduce_sum(tf.multiply(reduced, weights))


def _num_present(losses, weights, per_batch=False):
    """The number of loss elements with a non-zero weight (per batch entry with per_batch)."""
    if weights.shape.rank == 0:
        batch_size = tf.reshape(tf.slice(tf.shape(losses), [0], [1]), [])
        per_entry = tf.math.divide(tf.cast(tf.size(losses), tf.float32),
                                   tf.cast(batch_size, tf.float32))
        per_entry = _v1.where(tf.equal(weights, 0), 0.0, per_entry)
        per_entry = tf.multiply(tf.ones(tf.reshape(batch_size, [1])), per_entry)
        return per_entry if per_batch else tf.reduce_sum(per_entry)
    axes = list(range(1, weights.shape.rank))
    nonzero = tf.cast(tf.not_equal(weights, 0), tf.float32)
    nonzero = tf.reduce_sum(nonzero, axis=axes) if axes else nonzero
    broadcast = tf.cast(tf.reduce_prod(tf.slice(tf.shape(losses), [weights.shape.rank], [-1])),
                        tf.float32)
    per_entry = tf.multiply(nonzero, broadcast)
    return per_entry if per_batch else tf.reduce_sum(per_entry)


def _checked_weights(losses, weights):
    weights = _float(weights)
    if losses.shape.rank is None:
        raise ValueError("losses.get_shape().ndims cannot be None")
    if weights.shape.rank is None:
        raise ValueError("weights.get_shape().ndims cannot be None")
    if weights.shape.rank > 1 and weights.shape[-1] in (None, 1):
        weights = tf.squeeze(weights, [-1])
    if weights.shape.rank > losses.shape.rank:
        raise ValueError(f"weights of rank {weights.shape.rank} cannot weigh losses of rank "
                         f"{losses.shape.rank}")
    return weights


def add_loss(loss, loss_collection=_v1.GraphKeys.LOSSES):
    """Add `loss` to `loss_collection` (nothing when executing eagerly)."""
    if loss_collection and not tf.executing_eagerly():
        _v1.add_to_collection(loss_collection, loss)


def compute_weighted_loss(losses, weights=1.0, scope=None):
    """The weighted mean of `losses` over the elements with a non-zero weight (LOSSES)."""
    with tf.name_scope(scope or "weighted_loss"):
        losses = tf.convert_to_tensor(losses)
        input_dtype = losses.dtype
        losses = _float(losses)
        weights = _checked_weights(losses, weights)
        total = _scale_losses(losses, weights)
        mean_loss = _safe_div(total, _num_present(losses, weights))
        mean_loss = tf.cast(mean_loss, input_dtype)
        add_loss(mean_loss)
        return mean_loss


def _pair(predictions, labels):
    if labels is None:
        raise ValueError("labels must not be None")
    predictions, labels = _float(predictions), _float(labels)
    predictions.shape.assert_is_compatible_with(labels.shape)
    return predictions, labels


def _scoped(default):
    """Run the loss body in `scope` (or `default`), its weighted mean there as `value`."""
    def wrap(body):
        def loss(*args, scope=None, **kwargs):
            with tf.name_scope(scope or default) as name:
                losses, weights = body(*args, **kwargs)
                return compute_weighted_loss(losses, weights, scope=name)
        loss.__name__, loss.__doc__ = body.__name__, body.__doc__
        return loss
    return wrap


@_scoped("absolute_difference")
def absolute_difference(predictions, labels=None, weights=1.0):
    """Weighted mean |predictions - labels|."""
    predictions, labels = _pair(predictions, labels)
    return tf.abs(predictions - labels), weights


@_scoped("mean_squared_error")
def mean_squared_error(predictions, labels=None, weights=1.0):
    """Weighted mean (predictions - labels)^2."""
    predictions, labels = _pair(predictions, labels)
    return tf.math.squared_difference(predictions, labels), weights


@_scoped("log_loss")
def log_loss(predictions, labels=None, weights=1.0, epsilon=1e-7):
    """Weighted mean binary cross entropy of probabilities."""
    predictions, labels = _pair(predictions, labels)
    losses = (-tf.multiply(labels, tf.math.log(predictions + epsilon))
              - tf.multiply(1 - labels, tf.math.log(1 - predictions + epsilon)))
    return losses, weights


def cosine_distance(predictions, labels=None, axis=None, weights=1.0, scope=None, dim=None):
    """Weighted mean of 1 - <predictions, labels> along `axis` (unit-normalized inputs)."""
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    if axis is None:
        raise ValueError("You must specify 'axis'.")
    with tf.name_scope(scope or "cosine_distance_loss") as name:
        predictions, labels = _pair(predictions, labels)
        losses = 1 - tf.reduce_sum(tf.multiply(predictions, labels), axis=[axis])
        return compute_weighted_loss(losses, weights, scope=name)


@_scoped("sigmoid_cross_entropy_loss")
def sigmoid_cross_entropy(logits, multi_class_labels, weights=1.0, label_smoothing=0):
    """Weighted mean sigmoid cross entropy, labels smoothed towards 1/2."""
    logits = tf.convert_to_tensor(logits)
    labels = tf.cast(multi_class_labels, logits.dtype)
    logits.shape.assert_is_compatible_with(labels.shape)
    if label_smoothing > 0:
        labels = labels * (1 - label_smoothing) + 0.5 * label_smoothing
    return tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits,
                                                   name="xentropy"), weights


@_scoped("softmax_cross_entropy_loss")
def softmax_cross_entropy(logits, onehot_labels, weights=1.0, label_smoothing=0):
    """Weighted mean softmax cross entropy, one-hot labels smoothed towards uniform."""
    logits = tf.convert_to_tensor(logits)
    labels = tf.cast(onehot_labels, logits.dtype)
    logits.shape.assert_is_compatible_with(labels.shape)
    if label_smoothing > 0:
        num_classes = tf.cast(tf.shape(labels)[1], logits.dtype)
        labels = labels * (1 - label_smoothing) + label_smoothing / num_classes
    losses = _v1.nn.softmax_cross_entropy_with_logits_v2(
        labels=tf.stop_gradient(labels), logits=logits, name="xentropy")
    return losses, weights


@_scoped("sparse_softmax_cross_entropy_loss")
def sparse_softmax_cross_entropy(logits, labels, weights=1.0):
    """Weighted mean softmax cross entropy of class ids ([batch] or [batch, 1])."""
    labels = tf.reshape(tf.convert_to_tensor(labels), [-1])
    weights = tf.squeeze(_float(weights))
    losses = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits,
                                                            name="xentropy")
    return losses, weights


def hinge_loss(logits, labels=None, scope=None):
    """The unreduced hinge losses max(0, 1 - (2 labels - 1) * logits) (not collected)."""
    with tf.name_scope(scope or "hinge_loss"):
        logits = _float(logits)
        if labels is None:
            raise ValueError("labels must not be None")
        labels = _float(labels)
        logits.shape.assert_is_compatible_with(labels.shape)
        signs = tf.subtract(2 * labels, tf.ones_like(labels))
        return tf.nn.relu(tf.subtract(tf.ones_like(labels), tf.multiply(signs, logits)))


def mean_pairwise_squared_error(predictions, labels=None, weights=1.0, scope=None):
    """Weighted mean over the batch of the mean squared difference between every pair of
    elements' errors within each example."""
    with tf.name_scope(scope or "mean_pairwise_squared_error"):
        predictions, labels = _pair(predictions, labels)
        weights = _float(weights)
        if weights.shape.rank is None:
            raise ValueError("weights.get_shape().ndims cannot be None")
        diffs = tf.subtract(predictions, labels)
        axes = list(range(1, diffs.shape.rank))
        sum_squares = tf.reduce_sum(tf.square(diffs), axis=axes)
        num_present = _num_present(diffs, weights, per_batch=True)
        term1 = 2.0 * _safe_div(sum_squares, num_present)
        sum_diff = tf.reduce_sum(diffs, axis=axes)
        term2 = 2.0 * _safe_div(tf.square(sum_diff), tf.square(num_present))
        loss = _scale_losses(term1 - term2, weights)
        mean_loss = _v1.where(tf.reduce_sum(num_present) > 0, loss, tf.zeros_like(loss),
                              name="value")
        add_loss(mean_loss)
        return mean_loss


def get_losses(scope=None, loss_collection=_v1.GraphKeys.LOSSES):
    return _v1.get_collection(loss_collection, scope)


def get_regularization_losses(scope=None):
    return _v1.get_collection(_v1.GraphKeys.REGULARIZATION_LOSSES, scope)


def get_total_loss(add_regularization_losses=True, name="total_loss"):
    """The sum of the LOSSES collection (and the regularization losses)."""
    losses = get_losses()
    if add_regularization_losses:
        losses += get_regularization_losses()
    return tf.math.add_n(losses, name=name)


FUNCTIONS = dict(
    absolute_difference=absolute_difference, add_loss=add_loss,
    compute_weighted_loss=compute_weighted_loss, cosine_distance=cosine_distance,
    get_losses=get_losses, get_regularization_losses=get_regularization_losses,
    get_total_loss=get_total_loss, hinge_loss=hinge_loss, log_loss=log_loss,
    mean_pairwise_squared_error=mean_pairwise_squared_error,
    mean_squared_error=mean_squared_error, sigmoid_cross_entropy=sigmoid_cross_entropy,
    softmax_cross_entropy=softmax_cross_entropy,
    sparse_softmax_cross_entropy=sparse_softmax_cross_entropy)
