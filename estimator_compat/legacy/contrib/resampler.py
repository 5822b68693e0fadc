"""`tf.contrib.resampler`, served whole: bilinear sampling of [batch, height, width, channels]
data at (x, y) warp coordinates, whose kernel TensorFlow 2 dropped, written with TF ops (the
gradients for data and warp come from differentiating them).

As TF 1.15's kernel: a point samples its four neighbours floor(x) / floor(x) + 1 (and y's),
weighted by the distances; a neighbour outside the data counts as 0, and a point with x or y
not in (-1, size) is 0.
"""
import tensorflow as tf

from estimator_compat.legacy.namespaces import namespace

_v1 = tf.compat.v1


def _check(data, warp):
    """TF 1.15's kernel's checks (its errors), made here where the shapes are known."""
    if warp.dtype != data.dtype:
        raise TypeError(f"Input 'warp' of 'Resampler' Op has type {warp.dtype.name} that does "
                        f"not match type {data.dtype.name} of argument 'data'.")
    if data.shape.rank is not None and data.shape.rank != 4:
        raise tf.errors.UnimplementedError(None, None, (
            "Only bilinear interpolation is currently supported. The input data shape must be "
            f"[batch_size, data_height, data_width, data_channels], but is: {data.shape}"))
    if warp.shape.rank is not None and warp.shape[-1] is not None and warp.shape[-1] != 2:
        raise tf.errors.UnimplementedError(None, None, (
            "Only bilinear interpolation is supported, warping coordinates must be 2D; warp "
            f"shape last entry should be 2, but shape vector is: {warp.shape}"))
    batches = (data.shape[0] if data.shape.rank else None,
               warp.shape[0] if warp.shape.rank else None)
    if None not in batches and batches[0] != batches[1]:
        raise tf.errors.InvalidArgumentError(None, None, (
            "Batch size of data and warp tensor must be the same, but input shapes are: "
            f"{data.shape}, {warp.shape}"))


def resampler(data, warp, name="resampler"):
    """data [B, H, W, C] sampled at warp [B, d0, .., dn, 2] (x, y): [B, d0, .., dn, C]."""
    with _v1.name_scope(name, "resampler", [data, warp]):
        data = tf.convert_to_tensor(data, name="data")
        warp = tf.convert_to_tensor(warp, name="warp")
        _check(data, warp)
        batch, height, width = (tf.shape(data)[i] for i in range(3))
        points = tf.reshape(warp, [batch, -1, 2])
        x, y = points[..., 0], points[..., 1]
        h = tf.cast(height, warp.dtype)
        w = tf.cast(width, warp.dtype)
        inside = (x > -1) & (y > -1) & (x < w) & (y < h)
        x0, y0 = tf.floor(x), tf.floor(y)
        batch_index = tf.broadcast_to(tf.range(batch)[:, tf.newaxis], tf.shape(x))
        out = 0
        for xi, wx in ((x0, x0 + 1 - x), (x0 + 1, x - x0)):
            for yi, wy in ((y0, y0 + 1 - y), (y0 + 1, y - y0)):
                valid = inside & (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
                col = tf.clip_by_value(tf.cast(xi, tf.int32), 0, width - 1)
                row = tf.clip_by_value(tf.cast(yi, tf.int32), 0, height - 1)
                values = tf.gather_nd(data, tf.stack([batch_index, row, col], axis=-1))
                weight = tf.cast(tf.where(valid, wx * wy, tf.zeros_like(wx)), data.dtype)
                out += weight[..., tf.newaxis] * values
        shape = tf.concat([tf.shape(warp)[:-1], tf.shape(data)[-1:]], 0)
        out = tf.reshape(out, shape)
        out.set_shape(warp.shape[:-1].concatenate(data.shape[-1:]))
        return out


def build():
    ops = namespace("tensorflow.contrib.resampler.python.ops.resampler_ops",
                    "contrib.resampler's ops", resampler=resampler)
    # registered for deep imports; TF 1.15's package did not keep a `python` attribute
    namespace("tensorflow.contrib.resampler.python", "contrib.resampler",
              ops=namespace("tensorflow.contrib.resampler.python.ops",
                            "contrib.resampler's ops", resampler_ops=ops))
    return namespace("tensorflow.contrib.resampler", "tf.contrib.resampler (bilinear sampling)",
                     __served_whole__=True, resampler=resampler)
