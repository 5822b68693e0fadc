"""Cases for the numeric / utility tf.contrib modules: integrate (odeint with its info dict,
odeint_fixed), solvers (CG, CGLS, Lanczos, operators and norms), bayesflow.monte_carlo,
reduce_slice_ops, resampler (values and gradients), periodic_resample, proto, receptive_field,
tensorboard's projector, and the public names TF 1.15 had in each served submodule."""
import numpy as np

# submodules whose names are compared (TF 1.15's needed importing the deep path first)
SUBMODULES = [
    "solvers", "solvers.lanczos", "solvers.least_squares", "solvers.linear_equations",
    "solvers.util", "solvers.python.ops.lanczos", "solvers.python.ops.util",
    "bayesflow", "bayesflow.monte_carlo", "reduce_slice_ops",
    "reduce_slice_ops.python.ops.reduce_slice_ops", "integrate", "resampler",
    "periodic_resample", "proto", "receptive_field", "tensorboard", "tensorboard.plugins",
    "tensorboard.plugins.projector", "tensorboard.plugins.projector.projector_config_pb2"]
# what TF 1.15's modules imported for their own use (not API)
_IMPLEMENTATION = ("gen_", "loader", "resource_loader")


def case_submodule_names(tf):
    import importlib
    import types
    out = {}
    for path in SUBMODULES:
        if path.startswith("reduce_slice_ops.python"):  # not an attribute until imported
            module = importlib.import_module("tensorflow.contrib." + path)
        else:
            module = tf.contrib
            for part in path.split("."):
                module = getattr(module, part)
        names = []
        for name in dir(module):
            value = getattr(module, name)
            if name.startswith("_") or name.startswith(_IMPLEMENTATION):
                continue
            if isinstance(value, types.ModuleType) and not value.__name__.startswith(
                    "tensorflow.contrib"):
                continue
            names.append(name)
        out[path] = sorted(names)
    return out


def case_odeint(tf):
    odeint = tf.contrib.integrate.odeint
    decay, info = odeint(lambda y, _: -y, tf.constant([1.0, 2.0], tf.float64),
                         [0.0, 0.5, 1.0, 2.0], full_output=True)
    # a harmonic oscillator with a time-dependent forcing, dopri5's options
    osc, info_osc = odeint(_oscillator(tf, tf.float64), tf.constant([1.0, 0.0], tf.float64),
                           tf.constant(np.linspace(0, 3, 4), tf.float64), rtol=1e-4,
                           atol=1e-6, method="dopri5", options=dict(
                               first_step=0.1, safety=0.8, ifactor=5.0, dfactor=0.3),
                           full_output=True)
    return {"decay": decay, "info": info, "osc": osc, "info_osc": info_osc,
            "shape": osc.shape.as_list()}


def _oscillator(tf, dtype):
    def f(y, t):
        return tf.stack([y[1], -y[0] + tf.cast(tf.sin(t), dtype)])
    return f


def case_odeint_float32(tf):
    """float32 states: the error estimates are float32 rounding-level differences (a few % of
    a ratio far below 1 between TF builds); the steps taken and the solution agree."""
    y, info = tf.contrib.integrate.odeint(
        _oscillator(tf, tf.float32), tf.constant([1.0, 0.0]), [0.0, 1.0, 3.0], rtol=1e-4,
        atol=1e-6, full_output=True)
    return {"y": y, "points": info["integrate_points"], "evals": info["num_func_evals"],
            "ratio": info["error_ratio"]}


case_odeint_float32.tolerance = {"rtol": 5e-2, "atol": 1e-5}


def case_odeint_bad_method(tf):
    tf.contrib.integrate.odeint(lambda y, _: -y, 1.0, [0.0, 1.0], method="rk45")


def case_odeint_options_without_method(tf):
    tf.contrib.integrate.odeint(lambda y, _: -y, 1.0, [0.0, 1.0], options={"safety": 0.5})


def case_odeint_fixed(tf):
    fixed = tf.contrib.integrate.odeint_fixed
    y0 = tf.constant([1.0, 0.5], tf.float64)
    t = tf.constant([0.0, 0.5, 1.5, 2.0], tf.float64)
    rk4 = fixed(lambda y, t: -y * tf.cos(t), y0, t)
    mid = fixed(lambda y, t: -y * tf.cos(t), y0, t, dt=0.3, method="midpoint")
    per = fixed(lambda y, t: -y, y0, t, dt=tf.constant([0.25, 0.4, 0.1], tf.float64))
    y032 = tf.constant(2.0)
    small = fixed(lambda y, t: -2.0 * y, y032, [0.0, 1.0], dt=0.1)
    grad = tf.gradients(tf.reduce_sum(small), y032)[0]
    return {"rk4": rk4, "mid": mid, "per": per, "small": small, "grad": grad}


def case_odeint_fixed_unknown_method(tf):
    tf.contrib.integrate.odeint_fixed(lambda y, _: -y, 1.0, [0.0, 1.0], method="euler")


def case_odeint_fixed_integer_t(tf):
    tf.contrib.integrate.odeint_fixed(lambda y, _: -y, 1.0, tf.constant([0, 1]))


_A = np.array([[4.0, 1.0, 0.5, 0.0], [1.0, 3.0, 0.2, 0.1], [0.5, 0.2, 2.0, 0.3],
               [0.0, 0.1, 0.3, 1.5]])
_B = np.array([[1.0, 2.0, 0.0], [0.5, -1.0, 1.0], [2.0, 0.0, 1.0], [0.0, 1.0, 3.0],
               [1.0, 1.0, 1.0]])


def case_solvers(tf):
    s = tf.contrib.solvers
    a = tf.constant(_A)
    op = s.util.create_operator(a)
    rhs = tf.constant([1.0, 2.0, 3.0, 4.0], tf.float64)
    cg = s.linear_equations.conjugate_gradient(op, rhs, tol=1e-8)
    diag = s.util.create_operator(tf.constant(np.diag(1 / np.diag(_A))))
    pcg = s.linear_equations.conjugate_gradient(op, rhs, preconditioner=diag,
                                                x=tf.ones([4], tf.float64), max_iter=2)
    ident = s.util.identity_operator(a)
    icg = s.python.ops.linear_equations.conjugate_gradient(op, rhs, preconditioner=ident)
    b = tf.constant(_B, tf.float32)
    ls = s.least_squares.cgls(s.util.create_operator(b), tf.constant([1.0, 0.0, 2.0, 1.0, 3.0]),
                              tol=1e-7, max_iter=10)
    v = tf.constant([3.0, -4.0, 12.0])
    unit, norm = s.util.l2normalize(v)
    return {"cg": cg._asdict(), "pcg": pcg._asdict(), "icg": icg._asdict(),
            "cgls": ls._asdict(), "op_shape": op.shape, "op_type": type(op).__name__,
            "state_types": [type(cg).__name__, type(ls).__name__],
            "ident": ident.apply(tf.constant([[1.0], [2.0]])),
            "dot": s.util.dot(v, v), "l2norm": s.util.l2norm(v),
            "l2norm_squared": s.util.l2norm_squared(v), "unit": unit, "norm": norm}


def case_lanczos(tf):
    s = tf.contrib.solvers
    op = s.util.create_operator(tf.constant(_B))
    start = tf.constant([1.0, 0.0, 1.0, -1.0, 0.5], tf.float64)
    full = s.lanczos.lanczos_bidiag(op, 3, starting_vector=start)
    plain = s.lanczos.lanczos_bidiag(op, 2, orthogonalize=False, starting_vector=start)
    b = s.lanczos.bidiag_matmul(full.u, full.alpha, full.beta)
    bt = s.lanczos.bidiag_matmul(full.v, full.alpha, full.beta, adjoint_b=True)
    return {"full": full._asdict(), "plain": plain._asdict(), "type": type(full).__name__,
            "ub": b, "av": tf.matmul(tf.constant(_B), full.v), "vbt": bt}


case_lanczos.tolerance = {"rtol": 1e-5, "atol": 1e-9}


class _Uniform(object):
    """A sampling distribution (sample / log_prob) with deterministic samples."""

    def __init__(self, tf):
        self.tf = tf

    def sample(self, n, seed=None):
        return self.tf.linspace(-1.5, 1.5, n)

    def log_prob(self, z):
        return self.tf.fill(self.tf.shape(z), float(np.log(1 / 3.0)))


def case_monte_carlo(tf):
    mc = tf.contrib.bayesflow.monte_carlo
    z = tf.constant(np.linspace(-2.0, 2.0, 9), tf.float32)
    scale = tf.Variable(1.5, name="scale")
    samples = scale * z
    reparam = mc.expectation(lambda x: x ** 2, samples)
    score = mc.expectation(lambda x: x ** 2, samples, log_prob=lambda x: -0.5 * (x / scale) ** 2,
                           use_reparametrization=False)
    q = _Uniform(tf)
    log_p = lambda x: -0.5 * x ** 2 - 0.5 * np.log(2 * np.pi)  # noqa: E731
    ims = mc.expectation_importance_sampler(lambda x: x ** 3 - x, log_p, q, n=7)
    ims_z = mc.expectation_importance_sampler(lambda x: x - 0.2, log_p, q, z=z)
    logspace = mc.expectation_importance_sampler_logspace(lambda x: 0.3 * x, log_p, q, z=z)
    keep = mc.expectation(lambda x: x, tf.reshape(samples, [3, 3]), axis=1, keep_dims=True)
    return {"reparam": reparam, "score": score, "ims": ims, "ims_z": ims_z,
            "logspace": logspace, "keep": keep,
            "grads": tf.gradients([reparam, score], scale),
            "grad_score": tf.gradients(score, scale)}


def case_monte_carlo_needs_n_or_z(tf):
    tf.contrib.bayesflow.monte_carlo.expectation_importance_sampler_logspace(
        lambda x: x, lambda x: x, _Uniform(tf))


def case_monte_carlo_f_not_callable(tf):
    tf.contrib.bayesflow.monte_carlo.expectation(1.0, tf.constant([1.0]))


_DATA = np.arange(24, dtype=np.float32).reshape(4, 3, 2) - 5


def case_reduce_slice(tf):
    import importlib
    r = importlib.import_module("tensorflow.contrib.reduce_slice_ops.python.ops.reduce_slice_ops")
    # end past the data: clipped; end <= start: empty (negative starts read out of bounds in
    # TF 1.15's kernel, so none here)
    pairs = np.array([[0, 1], [1, 1], [0, 2], [2, 10], [3, 1], [4, 4]])
    out = {}
    for op in ("sum", "prod", "max", "min"):
        f = getattr(r, "reduce_slice_" + op)
        out[op] = f(_DATA, pairs, 0)
        out[op + "_axis1"] = f(_DATA, pairs[:4], 1)
    out["sum_bounds"] = r.reduce_slice_sum(_DATA, np.array([0, 2, 3, 4], np.int64), 0)
    for op in ("max", "min"):  # the int32 identities, kept exactly
        ints = getattr(r, "reduce_slice_" + op)(np.array([[1, 5], [7, 2], [3, 3]], np.int32),
                                                np.array([[0, 3], [1, 1]]), 0)
        out[op + "_int"] = tf.cast(ints, tf.float64)
    # (TF 1.15's static shape here was [6, 2], its shape function's slip; the values are 3-D)
    return out


def _warp():
    rng = np.random.RandomState(3)
    warp = rng.uniform(-1.5, 4.5, size=(2, 5, 3, 2)).astype(np.float32)
    warp[0, 0, 0] = [-1.0, 0.5]  # on the edge of the sampled region
    warp[0, 0, 1] = [1.0, 2.0]  # on grid points
    warp[1, 4, 2] = [3.0, 1.5]  # the last column
    return warp


def case_resampler(tf):
    data = tf.constant(np.random.RandomState(0).randn(2, 3, 4, 2).astype(np.float32))
    warp = tf.constant(_warp())
    out = tf.contrib.resampler.resampler(data, warp)
    weights = tf.constant(np.random.RandomState(1).randn(2, 5, 3, 2).astype(np.float32))
    grad_data, grad_warp = tf.gradients(tf.reduce_sum(out * weights), [data, warp])
    flat = tf.contrib.resampler.resampler(data, tf.constant(_warp()[:, 0]))
    points = tf.contrib.resampler.resampler(data, tf.constant(_warp()[:, 0, 0]))
    return {"out": out, "grad_data": grad_data, "grad_warp": grad_warp, "flat": flat,
            "points": points,
            "shape": out.shape.as_list()}


def case_resampler_warp_not_2d(tf):
    return {"out": tf.contrib.resampler.resampler(np.zeros((2, 3, 4, 1), np.float32),
                                                  np.zeros((2, 5, 3), np.float32))}


def case_resampler_data_not_4d(tf):
    return {"out": tf.contrib.resampler.resampler(np.zeros((3, 4, 1), np.float32),
                                                  np.zeros((2, 5, 2), np.float32))}


def case_resampler_batch_mismatch(tf):
    return {"out": tf.contrib.resampler.resampler(np.zeros((2, 3, 4, 1), np.float32),
                                                  np.zeros((3, 5, 2), np.float32))}


def case_resampler_dtype_mismatch(tf):
    tf.contrib.resampler.resampler(np.zeros((2, 3, 4, 1), np.float32),
                                   np.zeros((2, 5, 2), np.float64))


def case_periodic_resample(tf):
    pr = tf.contrib.periodic_resample.periodic_resample
    out = {}
    for i, (shape, desired) in enumerate([((3, 4), [6, None]), ((2, 3, 8), [4, 6, None]),
                                          ((4, 6, 2), [None, 12, 4]), ((3, 4), [4, None]),
                                          ((2, 4, 6, 2), [4, None, 6, 2])]):
        values = tf.constant(np.arange(np.prod(shape), dtype=np.float32).reshape(shape))
        resampled = pr(values, desired)
        out["values%d" % i] = resampled
        out["shape%d" % i] = resampled.shape.as_list()
        if desired != [4, None]:  # TF 1.15's gradient op mishandled a repeated element
            weights = tf.constant(np.arange(np.prod(resampled.shape.as_list()),
                                            dtype=np.float32).reshape(resampled.shape))
            out["grad%d" % i] = tf.gradients(tf.reduce_sum(resampled * weights), values)[0]
    partial = pr(tf.placeholder(tf.float32, [None, 4]), [6, None])
    out["partial_shape"] = [-1 if d is None else d for d in partial.shape.as_list()]
    return out


def case_periodic_resample_rounds_to_zero(tf):
    values = tf.constant(np.zeros((2, 4, 6, 2), np.float32))
    return {"out": tf.contrib.periodic_resample.periodic_resample(values, [4, None, 12, 4])}


def case_periodic_resample_too_small(tf):
    values = tf.constant(np.zeros((2, 3, 8), np.float32))
    return {"out": tf.contrib.periodic_resample.periodic_resample(values, [4, None, 4])}


def case_proto(tf):
    from tensorflow.core.framework import tensor_shape_pb2
    dims = [tensor_shape_pb2.TensorShapeProto.Dim(size=s, name=n).SerializeToString()
            for s, n in ((5, "x"), (-1, ""), (7, "batch"))]
    sizes, values = tf.contrib.proto.decode_proto(
        tf.constant(dims), "tensorflow.TensorShapeProto.Dim", ["size", "name"],
        [tf.int64, tf.string])
    encoded = tf.contrib.proto.encode_proto(sizes, values, ["size", "name"],
                                            "tensorflow.TensorShapeProto.Dim")
    return {"sizes": sizes, "values": values, "same": tf.equal(encoded, tf.constant(dims))}


def _cnn(tf, image):
    """conv 3x3 / stride 2 SAME, relu, pad, max-pool 3x3 / 2 VALID, a 1x1 and a 3x3 SAME
    branch added, avg-pool 2x2 / 2 SAME."""
    def conv(x, name, k, stride, padding):
        w = tf.get_variable(name, [k, k, x.shape[-1], 2], initializer=tf.ones_initializer())
        return tf.nn.conv2d(x, w, [1, stride, stride, 1], padding)
    net = tf.nn.relu(conv(image, "w1", 3, 2, "SAME"), name="relu1")
    net = tf.pad(net, [[0, 0], [1, 1], [1, 1], [0, 0]])
    net = tf.nn.max_pool(net, [1, 3, 3, 1], [1, 2, 2, 1], "VALID")
    net = tf.add(conv(net, "w2", 1, 1, "SAME"), conv(net, "w3", 3, 1, "SAME"), name="merge")
    return tf.nn.avg_pool(net, [1, 2, 2, 1], [1, 2, 2, 1], "SAME", name="output")


def case_receptive_field(tf):
    rf = tf.contrib.receptive_field
    image = tf.placeholder(tf.float32, [None, None, None, 3], name="image")
    output = _cnn(tf, image)
    graph = tf.get_default_graph()
    unknown = rf.compute_receptive_field_from_graph_def(graph, image, output)
    known = rf.compute_receptive_field_from_graph_def(graph.as_graph_def(), "image", "output",
                                                      input_resolution=[33, 34])
    branch = rf.compute_receptive_field_from_graph_def(graph, "image", "output",
                                                       stop_propagation=["Conv2D_2"])
    info, name_to_node = rf.get_compute_order(graph.as_graph_def(), "image", [33, 34])
    path = ["image", "Conv2D", "relu1", "Pad", "MaxPool", "Conv2D_1", "Conv2D_2", "merge",
            "output"]
    centers = known.compute_input_center_coordinates([[0, 0], [2, 1]])
    features = known.compute_feature_coordinates([[10.5, 12.5]])
    x_only = known.compute_input_center_coordinates([[3]], axis=[0])
    # (TensorFlow 2 writes tf.add as AddV2, TF 1.15 as Add: the op types are not compared)
    order = [[info[n].order, str(info[n].input_size), str(info[n].output_size)] for n in path]
    # numpy and nested values: returned by a run function (fetched as they are)
    return lambda sess: {"unknown": list(unknown), "known": list(known), "branch": list(branch),
                         "centers": centers, "features": features, "x_only": x_only,
                         "order": order, "nodes": sorted(n for n in path if n in name_to_node)}


def case_receptive_field_not_aligned(tf):
    image = tf.placeholder(tf.float32, [None, 16, 16, 1], name="image")
    w3 = tf.get_variable("w3", [3, 3, 1, 1], initializer=tf.ones_initializer())
    w2 = tf.get_variable("w2", [2, 2, 1, 1], initializer=tf.ones_initializer())
    out = tf.add(tf.nn.conv2d(image, w3, [1, 1, 1, 1], "SAME"),
                 tf.nn.conv2d(image, w2, [1, 1, 1, 1], "SAME"), name="out")
    tf.contrib.receptive_field.compute_receptive_field_from_graph_def(
        tf.get_default_graph(), "image", out)


def case_receptive_field_unknown_op(tf):
    image = tf.placeholder(tf.float32, [None, 16, 16, 1], name="image")
    out = tf.nn.sigmoid(image, name="out")
    tf.contrib.receptive_field.compute_receptive_field_from_graph_def(
        tf.get_default_graph(), "image", out)


def case_projector(tf):
    import os
    import tempfile
    projector = tf.contrib.tensorboard.plugins.projector
    config = projector.ProjectorConfig()
    embedding = config.embeddings.add()
    embedding.tensor_name = "embedding/words"
    embedding.metadata_path = "metadata.tsv"
    embedding.sprite.image_path = "sprite.png"
    embedding.sprite.single_image_dim.extend([28, 28])
    config.model_checkpoint_path = "model.ckpt"
    logdir = tempfile.mkdtemp()
    writer = tf.summary.FileWriter(logdir)
    projector.visualize_embeddings(writer, config)
    writer.close()
    with open(os.path.join(logdir, "projector_config.pbtxt")) as f:
        text = f.read()
    sprite = projector.projector_config_pb2.SpriteMetadata(image_path="s.png")
    return {"text": text, "sprite": sprite.SerializeToString(),
            "info_type": type(projector.EmbeddingInfo()).__name__,
            "has_descriptor": projector.DESCRIPTOR is not None,
            "fields": sorted(projector.ProjectorConfig.DESCRIPTOR.fields_by_name)}
