"""tf.contrib.image cases: projective transforms (rotate, translate, transform, composing
them), connected components, dense and sparse warps, spline interpolation and bipartite
matching on fixed images, as TF 1.15 computed them."""
import numpy as np

IMG = np.arange(48, dtype=np.float32).reshape(1, 6, 8, 1) / 10.0
BLOBS = np.array([[1, 1, 0, 0, 2, 0],
                  [0, 1, 0, 2, 2, 0],
                  [0, 0, 0, 0, 0, 3],
                  [4, 0, 1, 1, 0, 3],
                  [4, 0, 0, 1, 0, 0]], np.int32)


def case_transforms(tf):
    im = tf.contrib.image
    img = tf.constant(IMG)
    rot = im.angles_to_projective_transforms(0.3, 6.0, 8.0)
    trans = im.translations_to_projective_transforms([[1.5, -1.0]])
    composed = im.compose_transforms(rot, trans)
    return {
        "rot_nearest": im.rotate(img, 0.3), "rot_bilinear": im.rotate(img, 0.3, "BILINEAR"),
        "rot_3d": im.rotate(img[0], [0.7]), "rot_2d": im.rotate(img[0, :, :, 0], 1.2),
        "translate": im.translate(img, [2.0, -1.0]),
        "translate_bilinear": im.translate(img, [[0.5, 1.5]], interpolation="BILINEAR"),
        "transform": im.transform(img, [1.0, 0.2, -1.0, 0.1, 0.9, 0.5, 0.01, 0.0]),
        "transform_shape": im.transform(img, [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
                                        output_shape=[4, 5]),
        "rot": rot, "composed": composed,
        "matrices": im.flat_transforms_to_matrices(composed),
        "flat": im.matrices_to_flat_transforms(im.flat_transforms_to_matrices(composed)),
    }


def case_connected_components(tf):
    im = tf.contrib.image
    return {"blobs": im.connected_components(tf.constant(BLOBS)),
            "batch": im.connected_components(tf.constant(np.stack([BLOBS, BLOBS[::-1] > 0]))),
            "bool": im.connected_components(tf.constant(BLOBS > 0))}


def case_dense_image_warp(tf):
    img = tf.constant(np.concatenate([IMG, IMG[:, ::-1]], axis=3))
    flow = tf.constant(np.stack([np.sin(np.arange(48).reshape(6, 8)) * 1.5,
                                 np.cos(np.arange(48).reshape(6, 8)) * 2.0],
                                axis=-1)[None].astype(np.float32))
    warped = tf.contrib.image.dense_image_warp(img, flow)
    return {"warped": warped, "grad": tf.gradients(tf.reduce_sum(warped * warped), flow)[0]}


def case_interpolate_spline(tf):
    train = tf.constant([[[0.0, 0.0], [1.0, 0.5], [0.3, 1.0], [0.8, 0.9], [0.5, 0.2]]])
    values = tf.constant([[[1.0], [0.5], [-0.2], [0.3], [0.9]]])
    query = tf.constant([[[0.1, 0.1], [0.5, 0.5], [0.9, 0.2], [0.4, 0.8]]])
    out = {}
    for order in (1, 2, 3):
        out["order%d" % order] = tf.contrib.image.interpolate_spline(train, values, query, order)
    out["regularized"] = tf.contrib.image.interpolate_spline(train, values, query, 2,
                                                             regularization_weight=0.1)
    return out


case_interpolate_spline.tolerance = {"rtol": 1e-4, "atol": 1e-5}


def case_sparse_image_warp(tf):
    img = tf.constant(IMG)
    src = tf.constant([[[1.0, 1.0], [4.0, 6.0], [2.0, 3.0]]])
    dst = tf.constant([[[1.5, 1.0], [4.0, 5.0], [2.5, 3.5]]])
    warped, flow = tf.contrib.image.sparse_image_warp(img, src, dst)
    warped_b, flow_b = tf.contrib.image.sparse_image_warp(img, src, dst, interpolation_order=1,
                                                          num_boundary_points=1,
                                                          regularization_weight=0.01)
    return {"warped": warped, "flow": flow, "warped_b": warped_b, "flow_b": flow_b}


case_sparse_image_warp.tolerance = {"rtol": 1e-4, "atol": 1e-4}


def case_bipartite_match(tf):
    d = tf.constant([[0.9, 0.3, 0.5, 0.8], [0.2, 0.1, 0.7, 0.6], [0.4, 0.35, 0.05, 0.9]])
    rows, cols = tf.contrib.image.bipartite_match(d, num_valid_rows=-1)
    rows2, cols2 = tf.contrib.image.bipartite_match(d, num_valid_rows=2, top_k=1)
    return {"rows": rows, "cols": cols, "rows2": rows2, "cols2": cols2}
