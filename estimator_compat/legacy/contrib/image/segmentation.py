"""`connected_components` (4-connected runs of equal non-zero values, labelled 1, 2, ... in
raster order across the batch, as TF 1.15's kernel numbered them) and `bipartite_match` (greedy
matching by smallest distance first), on TensorFlow ops."""
import tensorflow as tf


def connected_components(images):
    """int64 component ids of [height, width] or [batch, height, width] `images` (0 where the
    pixel is 0/False)."""
    with tf.name_scope("connected_components"):
        images = tf.convert_to_tensor(images, name="images")
        rank = images.shape.rank
        if rank not in (2, 3):
            raise TypeError(f"images must have rank 2 or 3, got shape {images.shape}")
        batch = images[None] if rank == 2 else images
        foreground = tf.not_equal(batch, tf.zeros_like(batch))
        size = tf.size(batch, out_type=tf.int64)
        shape = tf.shape(batch, out_type=tf.int64)
        # each foreground pixel starts as its own raster index + 1; a component settles on its
        # smallest, its first pixel in raster order
        start = tf.where(foreground, tf.reshape(tf.range(1, size + 1), shape),
                         tf.zeros(shape, tf.int64))
        big = size + 1

        def neighbours_min(labels):
            masked = tf.where(foreground, labels, big * tf.ones_like(labels))
            best = masked
            for axis in (1, 2):
                for shift in (1, -1):
                    moved = tf.roll(masked, shift, axis)
                    same = tf.roll(batch, shift, axis)
                    edge = tf.range(tf.shape(batch, out_type=tf.int64)[axis])
                    valid = edge >= 1 if shift == 1 else edge < shape[axis] - 1
                    valid = tf.reshape(valid, [-1, 1] if axis == 1 else [1, -1])
                    ok = tf.logical_and(valid[None], tf.equal(same, batch))
                    best = tf.minimum(best, tf.where(ok, moved, big * tf.ones_like(moved)))
            best = tf.where(foreground, best, tf.zeros_like(best))
            # jump along the pointers: a pixel's label is another pixel's raster index + 1
            flat = tf.reshape(best, [-1])
            jumped = tf.gather(flat, tf.maximum(flat - 1, 0))
            return tf.reshape(tf.where(flat > 0, tf.minimum(flat, jumped), flat), shape)

        def changed(labels, previous):
            return tf.reduce_any(tf.not_equal(labels, previous))

        def step(labels, previous):
            return neighbours_min(labels), labels
        first = neighbours_min(start)
        labels, _ = tf.while_loop(changed, step, (first, start))
        flat = tf.reshape(labels, [-1])
        roots, _ = tf.unique(tf.sort(tf.boolean_mask(flat, flat > 0)))
        ids = tf.where(flat > 0, tf.searchsorted(roots, flat, out_type=tf.int64) + 1,
                       tf.zeros_like(flat))
        out = tf.reshape(ids, shape)
        return out[0] if rank == 2 else out


def bipartite_match(distance_mat, num_valid_rows, top_k=-1, name="bipartite_match"):
    """Greedy matching of rows to columns, smallest distance first, over the first
    `num_valid_rows` rows (all when negative), `top_k` matches at most (all when negative).
    Returns (row_to_col_match_indices [rows], col_to_row_match_indices [cols]), int32, -1
    for unmatched."""
    with tf.name_scope(name):
        d = tf.convert_to_tensor(distance_mat, tf.float32, name="distance_mat")
        if d.shape.rank != 2:
            raise ValueError(f"distance_mat must be 2-D, got shape {d.shape}")
        rows, cols = tf.shape(d)[0], tf.shape(d)[1]
        valid_rows = tf.cast(num_valid_rows, tf.int32)
        valid_rows = tf.where(valid_rows < 0, rows, tf.minimum(valid_rows, rows))
        matches = tf.minimum(valid_rows, cols)
        if top_k >= 0:
            matches = tf.minimum(matches, top_k)
        inf = tf.constant(float("inf"))
        usable = tf.range(rows)[:, None] < valid_rows
        start = tf.where(tf.broadcast_to(usable, tf.shape(d)), d, inf)

        def step(i, masked, row_match, col_match):
            best = tf.argmin(tf.reshape(masked, [-1]), output_type=tf.int32)
            r, c = best // cols, best % cols
            row_match = tf.tensor_scatter_nd_update(row_match, [[r]], [c])
            col_match = tf.tensor_scatter_nd_update(col_match, [[c]], [r])
            masked = tf.where(tf.logical_or(tf.equal(tf.range(rows), r)[:, None],
                                            tf.equal(tf.range(cols), c)[None, :]), inf, masked)
            return i + 1, masked, row_match, col_match
        _, _, row_match, col_match = tf.while_loop(
            lambda i, *_: i < matches, step,
            (tf.constant(0), start, -tf.ones([rows], tf.int32), -tf.ones([cols], tf.int32)))
        return row_match, col_match


FUNCTIONS = dict(connected_components=connected_components, bipartite_match=bipartite_match)
