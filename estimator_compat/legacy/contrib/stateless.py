"""`tf.contrib.stateless`, served whole: the stateless random ops TF 1.15 ran (the `Stateless*`
kernels of TensorFlow's first version, which `tf.random.stateless_*` replaced with algorithm-
selecting ones), so a seed gives the numbers it gave in TF 1.15."""
import tensorflow as tf


def _seed(seed):
    seed = tf.convert_to_tensor(seed)
    if seed.shape.rank is not None and seed.shape.as_list() != [2]:
        raise ValueError(f"seed must be a shape [2] integer tensor, got shape {seed.shape}")
    if not seed.dtype.is_integer:
        raise ValueError(f"seed must be an integer tensor, got {seed.dtype.name}")
    return seed


def stateless_random_uniform(shape, seed, minval=0, maxval=None, dtype=tf.float32, name=None):
    """Uniform values in [minval, maxval) (maxval is required for integer dtypes)."""
    dtype = tf.as_dtype(dtype)
    with tf.name_scope(name or "stateless_random_uniform"):
        shape = tf.convert_to_tensor(shape, tf.int32)
        seed = _seed(seed)
        if dtype.is_integer:
            if maxval is None:
                raise ValueError("stateless_random_uniform needs maxval for integer dtype "
                                 f"{dtype.name}")
            return tf.raw_ops.StatelessRandomUniformInt(
                shape=shape, seed=seed, minval=tf.convert_to_tensor(minval, dtype),
                maxval=tf.convert_to_tensor(maxval, dtype))
        maxval = 1 if maxval is None else maxval
        minval = tf.convert_to_tensor(minval, dtype)
        maxval = tf.convert_to_tensor(maxval, dtype)
        rnd = tf.raw_ops.StatelessRandomUniform(shape=shape, seed=seed, dtype=dtype)
        return rnd * (maxval - minval) + minval


def stateless_random_normal(shape, seed, mean=0.0, stddev=1.0, dtype=tf.float32, name=None):
    """Normal values (mean, stddev) from the seed."""
    dtype = tf.as_dtype(dtype)
    with tf.name_scope(name or "stateless_random_normal"):
        shape = tf.convert_to_tensor(shape, tf.int32)
        rnd = tf.raw_ops.StatelessRandomNormal(shape=shape, seed=_seed(seed), dtype=dtype)
        return rnd * tf.convert_to_tensor(stddev, dtype) + tf.convert_to_tensor(mean, dtype)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=tf.float32, name=None):
    """Normal values within two standard deviations of the mean, from the seed."""
    dtype = tf.as_dtype(dtype)
    with tf.name_scope(name or "stateless_truncated_normal"):
        shape = tf.convert_to_tensor(shape, tf.int32)
        rnd = tf.raw_ops.StatelessTruncatedNormal(shape=shape, seed=_seed(seed), dtype=dtype)
        return rnd * tf.convert_to_tensor(stddev, dtype) + tf.convert_to_tensor(mean, dtype)


def stateless_multinomial(logits, num_samples, seed, output_dtype=tf.int64, name=None):
    """`num_samples` class ids per row of `logits`, from the seed."""
    with tf.name_scope(name or "stateless_multinomial"):
        logits = tf.convert_to_tensor(logits, name="logits")
        return tf.raw_ops.StatelessMultinomial(
            logits=logits, num_samples=tf.convert_to_tensor(num_samples, tf.int32),
            seed=_seed(seed), output_dtype=output_dtype)


FUNCTIONS = dict(stateless_random_uniform=stateless_random_uniform,
                 stateless_random_normal=stateless_random_normal,
                 stateless_truncated_normal=stateless_truncated_normal,
                 stateless_multinomial=stateless_multinomial)


def build():
    from estimator_compat.legacy.namespaces import namespace
    return namespace("tensorflow.contrib.stateless", "tf.contrib.stateless",
                     __served_whole__=True, **FUNCTIONS)
