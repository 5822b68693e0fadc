"""tf.contrib.training's stochastic resampling of a batch (`...contrib.training.python.training.
resample`): `resample_at_rate` repeats each row a Poisson(rate) number of times;
`weighted_resample` uses rates proportional to the weights, scaled so the average weight (a
zero-debiased moving average, the local variable `estimate_mean/estimated_mean`, kept across
runs as TF 1.15 kept it) gets `overall_rate`. The outputs have an unknown first dimension."""
import tensorflow as tf

v1 = tf.compat.v1


def _resample(inputs, rates, seed, back_prop):
    rates = tf.convert_to_tensor(rates, name="rates")
    rates.shape.with_rank(1)
    counts = tf.cast(v1.random_poisson(rates, [], rates.dtype, seed=seed), tf.int32)
    indices = tf.repeat(tf.range(tf.shape(counts)[0]), counts, name="repeat_range")
    if not back_prop:
        indices = tf.stop_gradient(indices)
    return [tf.gather(x, indices) for x in inputs]


def _input_list(inputs, who):
    if not isinstance(inputs, (list, tuple)):
        raise TypeError(f"{who} takes `inputs` as a list of tensors (rows resampled together); "
                        f"given {type(inputs).__name__}. Wrap a single tensor in [ ].")
    return list(inputs)


def resample_at_rate(inputs, rates, scope=None, seed=None, back_prop=False):
    """The rows of each tensor in `inputs` (all of the same first dimension), row i repeated
    Poisson(`rates[i]`) times: on average `rate` copies of each row per run."""
    inputs = _input_list(inputs, "resample_at_rate")
    with tf.name_scope(scope or "resample_at_rate"):
        return _resample(inputs, rates, seed, back_prop)


def weighted_resample(inputs, weights, overall_rate, scope=None, mean_decay=0.999, seed=None):
    """(resampled `inputs`, the rate each output row was drawn at): row i repeated at the rate
    `weights[i] * overall_rate / mean weight`, the mean a moving average (decay `mean_decay`)
    of each run's mean weight."""
    inputs = _input_list(inputs, "weighted_resample")
    weights = tf.convert_to_tensor(weights)
    if not weights.dtype.is_floating:
        raise TypeError(f"weighted_resample's weights must be floating point; given "
                        f"{weights.dtype.name}. Cast them with tf.cast(weights, tf.float32).")
    with tf.name_scope(scope or "weighted_resample"):
        with v1.variable_scope(scope, "estimate_mean", inputs):
            mean = _debiased_moving_average(weights, mean_decay)
        rates = weights * overall_rate / mean
        results = _resample([rates] + inputs, rates, seed, back_prop=False)
        return results[1:], results[0]


def _debiased_moving_average(weights, decay):
    """The local variable `estimated_mean` set to the moving average of the runs' mean weight,
    divided by 1 - decay ** runs (the `biased` and `local_step` variables beside it, global as
    in TF 1.15), so that the first runs are not pulled toward its initial 0."""
    dtype = weights.dtype.base_dtype
    estimated = v1.get_local_variable("estimated_mean", initializer=tf.constant(0.0, dtype))
    batch_mean = tf.reduce_mean(weights)
    with v1.variable_scope(estimated.op.name):
        biased = v1.get_variable("biased", initializer=tf.zeros([], dtype), trainable=False)
        step = v1.get_variable("local_step", initializer=tf.zeros([], dtype), trainable=False)
    with tf.name_scope("AssignMovingAvg"):
        decay = tf.constant(decay, dtype, name="decay")
        new_biased = biased.assign_sub((biased - batch_mean) * (1 - decay))
        new_step = step.assign_add(tf.constant(1.0, dtype))
        with tf.control_dependencies([new_biased, new_step]):
            return estimated.assign(new_biased / (1 - tf.pow(decay, new_step)))
