"""`tf.contrib.layers.optimize_loss` (and `OPTIMIZER_CLS_NAMES`, `OPTIMIZER_SUMMARIES`,
`adaptive_clipping_fn`): tf_slim's `optimize_loss`, the same function as TF 1.15's contrib.

What it writes, as TF 1.15 did (tests/tf115_cases/contrib_layers.py checks it): a
`learning_rate` variable in the `OptimizeLoss` (or `name`) scope, the optimizer's slots under
it, and, for `summaries=[...]`, the scalars `loss`, `learning_rate` (where given),
`global_norm/gradient_norm` of the gradients *before* clipping, with `clip_gradients` also
`global_norm/clipped_gradient_norm`, and per variable a `gradients/<var>` histogram and a
`gradient_norm/<var>` scalar of the clipped gradient. An unknown optimizer name is a ValueError
listing the names.
"""
from estimator_compat.legacy.contrib.tf_slim_loader import tf_slim

_optimizers = tf_slim().optimizers
optimize_loss = _optimizers.optimize_loss
adaptive_clipping_fn = _optimizers.adaptive_clipping_fn
OPTIMIZER_CLS_NAMES = _optimizers.OPTIMIZER_CLS_NAMES
OPTIMIZER_SUMMARIES = _optimizers.OPTIMIZER_SUMMARIES
