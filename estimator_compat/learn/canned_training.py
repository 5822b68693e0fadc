"""contrib.learn's canned estimators' training options over tf.estimator's canned models:
`gradient_clip_norm` and `embedding_lr_multipliers`.

TF 1.15 applied them in the canned model's train op, and added no variable or summary for
them:
- the DNN and each part of wide & deep trained through `optimize_loss(gradient_multipliers=,
  clip_gradients=gradient_clip_norm, summaries=[])`: each embedding column's gradients times
  its multiplier, then the part's gradients (every trainable variable for the DNN, each part's
  own for wide & deep, so the two parts are clipped apart) clipped by their global norm. A
  `clip_gradients` that is neither a float nor a callable (an int, say) was its ValueError
  "Unknown type <class 'int'> for clip_gradients" when fit built the train op; a callable got
  and returned the (gradient, variable) pairs;
- the linear model clipped its gradients by their global norm for any true value, and its
  SDCA training took no clipping.
Here the model's optimizer is wrapped (`TrainOptions`), so the update rule, learning rate and
slots stay the canned model's.
"""
import tensorflow as tf

from estimator_compat.canned.keras_optimizers import ClippedOptimizer
from estimator_compat.canned.optimizers import check_name, get_optimizer

v1 = tf.compat.v1
INPUT_SCOPE = "dnn/input_from_feature_columns"


def _contrib_embedding_column():
    from estimator_compat.legacy.contrib.layers.feature_columns import columns
    return columns._EmbeddingColumn


def gradient_multipliers(embedding_lr_multipliers, variables, input_scope=INPUT_SCOPE):
    """{variable: multiplier} of `{embedding column: multiplier}`, as TF 1.15 mapped them: only
    tf.contrib.layers embedding columns, each to the variables under
    `<input layer scope>/<column name>`; None when empty."""
    if not embedding_lr_multipliers:
        return None
    embedding_column = _contrib_embedding_column()
    out = {}
    for column, multiplier in embedding_lr_multipliers.items():
        if not isinstance(column, embedding_column):
            raise ValueError("learning rate multipler can only be defined for embedding "
                             f"columns. It is defined for {column}")
        prefix = f"{input_scope}/{column.name}"
        found = [v for v in variables if v.op.name.startswith(prefix)]
        if not found:
            raise ValueError(f"Couldn't find a variable for column {column}")
        out.update({v: multiplier for v in found})
    return out


def _multiplied(pairs, multipliers):
    out = []
    for grad, var in pairs:
        multiplier = multipliers.get(var, multipliers.get(var.name))
        if grad is not None and multiplier is not None:
            if isinstance(grad, tf.IndexedSlices):
                grad = tf.IndexedSlices(grad.values * multiplier, grad.indices,
                                        grad.dense_shape)
            else:
                grad = grad * tf.cast(multiplier, grad.dtype)
        out.append((grad, var))
    return out


def _clipped_by_global_norm(pairs, clip_norm):
    present = [(g, v) for g, v in pairs if g is not None]
    if not present:
        return pairs
    clipped, _ = tf.clip_by_global_norm([g for g, _ in present], clip_norm)
    by_var = {id(v): g for (_, v), g in zip(present, clipped)}
    return [(by_var.get(id(v)), v) for _, v in pairs]


class TrainOptions(ClippedOptimizer):
    """The canned model's optimizer with contrib.learn's gradient options: multipliers first,
    then clipping (`optimize_loss`'s order). `style` "optimize_loss" (DNN, wide & deep) or
    "linear" (the linear model's own clipping)."""

    def __init__(self, optimizer, clip=None, style="optimize_loss",
                 embedding_lr_multipliers=None):
        super().__init__(optimizer)
        self._clip, self._style = clip, style
        self._embedding_lr_multipliers = embedding_lr_multipliers

    def compute_gradients(self, loss, var_list=None, *args, **kwargs):
        variables = var_list if var_list is not None else (
            v1.trainable_variables() + v1.get_collection(v1.GraphKeys.TRAINABLE_RESOURCE_VARIABLES))
        multipliers = gradient_multipliers(self._embedding_lr_multipliers, variables)
        pairs = list(self._inner.compute_gradients(loss, var_list, *args, **kwargs))
        if multipliers:
            pairs = _multiplied(pairs, multipliers)
        clip = self._clip
        if self._style == "linear":
            return _clipped_by_global_norm(pairs, clip) if clip else pairs
        if clip is None:
            return pairs
        if isinstance(clip, float):
            return _clipped_by_global_norm(pairs, clip)
        if callable(clip):
            return list(clip(pairs))
        raise ValueError(f"Unknown type {type(clip)} for clip_gradients")


def with_options(optimizer, learning_rate, clip=None, style="optimize_loss",
                 embedding_lr_multipliers=None):
    """The canned estimator's `optimizer` argument: as given when no option is set, else a
    callable (called in model_fn, as the canned models call one) making the optimizer
    `optimizer` stands for (a name at `learning_rate`, the canned model's rate for it) and
    wrapping it in TrainOptions. SDCA takes no options (TF 1.15's SDCA ignored them)."""
    check_name(optimizer)  # an unknown name fails in the constructor, as without options
    sdca = type(optimizer).__name__ in ("SDCAOptimizer", "LinearSDCA")
    if sdca or (clip is None and not embedding_lr_multipliers) or (
            style == "linear" and not clip):
        return optimizer

    def make():
        return TrainOptions(get_optimizer(optimizer, learning_rate), clip, style,
                            embedding_lr_multipliers)
    return make
