"""`tf.contrib.image`, served whole: `transforms.py` (transform, rotate, translate and the flat
transform helpers, on the ImageProjectiveTransformV2 kernel), `segmentation.py`
(connected_components, bipartite_match) and `warp.py` (dense_image_warp, interpolate_spline,
sparse_image_warp), on TensorFlow ops. `single_image_random_dot_stereograms` (a removed kernel
drawing autostereograms) is declined. Deep paths `tensorflow.contrib.image.python.ops.<module>`
are registered too."""
from estimator_compat.legacy.contrib.image import segmentation, transforms, warp

FUNCTIONS = {**transforms.FUNCTIONS, **segmentation.FUNCTIONS, **warp.FUNCTIONS}
_DEEP = {
    "image_ops": list(transforms.FUNCTIONS) + list(segmentation.FUNCTIONS),
    "dense_image_warp": ["dense_image_warp"],
    "interpolate_spline": ["interpolate_spline"],
    "sparse_image_warp": ["sparse_image_warp"],
}


def build():
    from estimator_compat.legacy.namespaces import namespace
    prefix = "tensorflow.contrib.image.python.ops"
    ops = namespace(prefix, "tf.contrib.image's ops", **{
        module: namespace(f"{prefix}.{module}", f"tf.contrib.image's {module}",
                          **{n: FUNCTIONS[n] for n in names})
        for module, names in _DEEP.items()})
    python = namespace("tensorflow.contrib.image.python", "tf.contrib.image", ops=ops)
    return namespace("tensorflow.contrib.image", "tf.contrib.image", python=python,
                     __served_whole__=True, **FUNCTIONS)
