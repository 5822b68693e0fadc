"""Image warps: `dense_image_warp` (bilinear sampling at each pixel minus its flow),
`interpolate_spline` (polyharmonic spline interpolation) and `sparse_image_warp` (the dense flow
a spline interpolates from control points' displacements), on TensorFlow ops."""
import numpy as np
import tensorflow as tf

_EPSILON = 1e-10


def _interpolate_bilinear(grid, query_points):
    """Sample [batch, height, width, channels] `grid` at [batch, n, 2] (y, x) `query_points`,
    bilinearly; points outside are clamped to the border cells."""
    shape = tf.shape(grid)
    batch, height, width, channels = shape[0], shape[1], shape[2], shape[3]
    num_queries = tf.shape(query_points)[1]
    dtype = grid.dtype
    alphas, floors = [], []
    for dim, size in ((0, height), (1, width)):
        queries = query_points[:, :, dim]
        max_floor = tf.cast(size - 2, query_points.dtype)
        floor = tf.minimum(tf.maximum(tf.zeros_like(queries), tf.floor(queries)), max_floor)
        int_floor = tf.cast(floor, tf.int32)
        floors.append(int_floor)
        # maximum / minimum with the bound first: at a tie the bound takes the gradient
        alpha = tf.minimum(tf.maximum(tf.constant(0.0, dtype), tf.cast(queries - floor, dtype)),
                           tf.constant(1.0, dtype))
        alphas.append(alpha[:, :, None])
    flat = tf.reshape(grid, [batch * height * width, channels])
    offsets = tf.reshape(tf.range(batch) * height * width, [batch, 1])

    def gather(y, x):
        return tf.reshape(tf.gather(flat, offsets + y * width + x),
                          [batch, num_queries, channels])
    top_left = gather(floors[0], floors[1])
    top_right = gather(floors[0], floors[1] + 1)
    bottom_left = gather(floors[0] + 1, floors[1])
    bottom_right = gather(floors[0] + 1, floors[1] + 1)
    top = alphas[1] * (top_right - top_left) + top_left
    bottom = alphas[1] * (bottom_right - bottom_left) + bottom_left
    return alphas[0] * (bottom - top) + top


def dense_image_warp(image, flow, name="dense_image_warp"):
    """output[b, y, x] = image[b, y - flow[b, y, x, 0], x - flow[b, y, x, 1]] (bilinear)."""
    with tf.name_scope(name):
        image = tf.convert_to_tensor(image, name="image")
        flow = tf.convert_to_tensor(flow, name="flow")
        if image.shape.rank != 4:
            raise ValueError(f"image must be [batch, height, width, channels], got shape "
                             f"{image.shape}")
        shape = tf.shape(image)
        batch, height, width = shape[0], shape[1], shape[2]
        grid_y, grid_x = tf.meshgrid(tf.range(height), tf.range(width), indexing="ij")
        grid = tf.cast(tf.stack([grid_y, grid_x], axis=2), flow.dtype)
        query = tf.reshape(grid[None] - flow, [batch, height * width, 2])
        return tf.reshape(_interpolate_bilinear(image, query), shape)


def _phi(r, order):
    """The polyharmonic kernel of squared distances `r`."""
    r = tf.maximum(r, _EPSILON)
    if order == 1:
        return tf.sqrt(r)
    if order == 2:
        return 0.5 * r * tf.math.log(r)
    if order == 4:
        return 0.5 * tf.square(r) * tf.math.log(r)
    if order % 2 == 0:
        return 0.5 * tf.pow(r, 0.5 * order) * tf.math.log(r)
    return tf.pow(r, 0.5 * order)


def _squared_distances(a, b):
    """[batch, n, m] squared distances between the points of a [b, n, d] and b [b, m, d]."""
    a_norm = tf.reduce_sum(tf.square(a), 2, keepdims=True)
    b_norm = tf.reduce_sum(tf.square(b), 2, keepdims=True)
    return a_norm - 2 * tf.matmul(a, b, transpose_b=True) + tf.transpose(b_norm, [0, 2, 1])


def interpolate_spline(train_points, train_values, query_points, order,
                       regularization_weight=0.0, name="interpolate_spline"):
    """Values at [batch, m, d] `query_points` of the polyharmonic spline of `order` through
    ([batch, n, d] `train_points`, [batch, n, k] `train_values`), smoothed by
    `regularization_weight`."""
    with tf.name_scope(name):
        train_points = tf.convert_to_tensor(train_points, name="train_points")
        train_values = tf.convert_to_tensor(train_values, name="train_values")
        query_points = tf.convert_to_tensor(query_points, name="query_points")
        if not isinstance(order, int) or order < 1:
            raise ValueError(f"order must be a positive int, got {order!r}")
        dtype = train_points.dtype
        batch = tf.shape(train_points)[0]
        n = tf.shape(train_points)[1]
        d = train_points.shape[-1]
        k = train_values.shape[-1]
        if d is None or k is None:
            raise ValueError("interpolate_spline needs the points' and values' last dimensions "
                             "known")
        matrix_a = _phi(_squared_distances(train_points, train_points), order)
        if regularization_weight > 0:
            matrix_a += regularization_weight * tf.eye(n, batch_shape=[batch], dtype=dtype)
        ones = tf.ones([batch, n, 1], dtype)
        matrix_b = tf.concat([train_points, ones], 2)
        left = tf.concat([matrix_a, tf.transpose(matrix_b, [0, 2, 1])], 1)
        right = tf.concat([matrix_b, tf.zeros([batch, d + 1, d + 1], dtype)], 1)
        lhs = tf.concat([left, right], 2)
        rhs = tf.concat([train_values, tf.zeros([batch, d + 1, k], dtype)], 1)
        solution = tf.linalg.solve(lhs, rhs)
        w, v = solution[:, :n], solution[:, n:]
        rbf = tf.matmul(_phi(_squared_distances(query_points, train_points), order), w)
        query_ones = tf.ones_like(query_points[..., :1])
        linear = tf.matmul(tf.concat([query_points, query_ones], 2), v)
        return rbf + linear


def _boundary_locations(height, width, per_edge):
    """(y, x) points on the image border: `per_edge` + 1 evenly spaced along each edge,
    corners included (TF 1.15's count)."""
    ys, xs = np.meshgrid(np.linspace(0, height - 1, per_edge + 1),
                         np.linspace(0, width - 1, per_edge + 1), indexing="ij")
    on_border = (xs == 0) | (xs == width - 1) | (ys == 0) | (ys == height - 1)
    return np.stack([ys[on_border], xs[on_border]], axis=-1)


def sparse_image_warp(image, source_control_point_locations, dest_control_point_locations,
                      interpolation_order=2, regularization_weight=0.0, num_boundary_points=0,
                      name="sparse_image_warp"):
    """Warp `image` so each source control point moves to its destination, the rest following
    a spline of the points' displacements; returns (warped image, dense flow)."""
    with tf.name_scope(name):
        image = tf.convert_to_tensor(image, name="image")
        source = tf.convert_to_tensor(source_control_point_locations, name="source")
        dest = tf.convert_to_tensor(dest_control_point_locations, name="dest")
        flows = dest - source
        batch = tf.shape(image)[0]
        height, width = image.shape[1], image.shape[2]
        if height is None or width is None:
            raise ValueError("sparse_image_warp needs the image's height and width known")
        if num_boundary_points > 0:
            border = tf.constant(_boundary_locations(height, width, num_boundary_points),
                                 dest.dtype)
            border = tf.tile(border[None], [batch, 1, 1])
            dest = tf.concat([dest, border], 1)
            flows = tf.concat([flows, tf.zeros_like(border)], 1)
        grid_y, grid_x = np.meshgrid(np.arange(height), np.arange(width), indexing="ij")
        locations = tf.constant(np.stack([grid_y, grid_x], -1).reshape(1, -1, 2), dest.dtype)
        locations = tf.tile(locations, [batch, 1, 1])
        dense_flows = interpolate_spline(dest, flows, locations, interpolation_order,
                                         regularization_weight)
        dense_flows = tf.reshape(dense_flows, [batch, height, width, 2])
        return dense_image_warp(image, dense_flows), dense_flows


FUNCTIONS = dict(dense_image_warp=dense_image_warp, interpolate_spline=interpolate_spline,
                 sparse_image_warp=sparse_image_warp)
