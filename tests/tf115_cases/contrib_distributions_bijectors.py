"""tf.contrib.distributions.bijectors cases (TF 1.15 style, Python 3.7): forward, inverse,
both log-det-Jacobians at several event_ndims, event shapes (static and tensor), names,
min event ndims, constant-Jacobian flags, Chain / Invert compositions, the validate_args
errors, and the variables of the MAF / RealNVP templates and BatchNormalization."""
import numpy as np


def _bij(tf):
    return tf.contrib.distributions.bijectors


def _arr(*shape, **kw):
    """Deterministic values in (lo, hi)."""
    lo, hi = kw.get("lo", -1.5), kw.get("hi", 1.5)
    n = int(np.prod(shape))
    u = (np.sin(np.arange(1, n + 1) * 1.7) + 1.) / 2.
    return (lo + (hi - lo) * u).reshape(shape).astype(kw.get("dtype", np.float32))


def _shape(s):
    return [-1 if d is None else int(d) for d in s.as_list()] if s.ndims is not None else "?"


def _probe(tf, out, key, b, x, y, event_ndims=(0,)):
    """Everything one bijector says about numpy points x (forward side) and y (inverse)."""
    x = tf.constant(x)
    y = tf.constant(y)
    out[key + ".forward"] = b.forward(x)
    out[key + ".inverse"] = b.inverse(y)
    for n in event_ndims:  # the same event on the inverse side has this many more dims
        m = n + b.inverse_min_event_ndims - b.forward_min_event_ndims
        out[key + ".fldj%d" % n] = b.forward_log_det_jacobian(x, event_ndims=n)
        out[key + ".ildj%d" % m] = b.inverse_log_det_jacobian(y, event_ndims=m)
    out[key + ".fshape"] = _shape(b.forward_event_shape(x.shape))
    out[key + ".ishape"] = _shape(b.inverse_event_shape(y.shape))
    out[key + ".fshape_t"] = b.forward_event_shape_tensor(tf.shape(x))
    out[key + ".ishape_t"] = b.inverse_event_shape_tensor(tf.shape(y))
    out[key + ".name"] = b.name
    out[key + ".const"] = bool(b.is_constant_jacobian)
    out[key + ".min"] = [b.forward_min_event_ndims, b.inverse_min_event_ndims]
    out[key + ".dtype"] = str(b.dtype)
    out[key + ".scope"] = b.forward(x, name="fwd").name.split("/")[0]


def case_scalar_bijectors(tf):
    B = _bij(tf)
    out = {}
    x, pos, unit = _arr(2, 3), _arr(2, 3, lo=0.2, hi=3.), _arr(2, 3, lo=0.05, hi=0.95)
    _probe(tf, out, "exp", B.Exp(), x, pos, (0, 1, 2))
    _probe(tf, out, "power", B.PowerTransform(power=0.5), pos, pos, (0, 1))
    _probe(tf, out, "sigmoid", B.Sigmoid(), x, unit, (0, 1))
    _probe(tf, out, "softplus", B.Softplus(), x, pos, (0, 2))
    _probe(tf, out, "softplus_hinge", B.Softplus(hinge_softness=0.5, name="sp"), x, pos, (1,))
    _probe(tf, out, "sinh_arcsinh", B.SinhArcsinh(skewness=0.3, tailweight=1.5), x, x, (0, 1))
    _probe(tf, out, "sinh_arcsinh_default", B.SinhArcsinh(), x, x)
    _probe(tf, out, "kumaraswamy", B.Kumaraswamy(concentration1=2., concentration0=3.),
           unit, unit, (0, 1))
    _probe(tf, out, "affine_scalar", B.AffineScalar(shift=[1., 2., 3.], scale=-2.), x, x,
           (0, 1))
    _probe(tf, out, "affine_scalar_none", B.AffineScalar(), x, x, (0, 2))
    _probe(tf, out, "identity", B.Identity(), x, x, (0, 1))
    _probe(tf, out, "gumbel", B.Gumbel(loc=0.5, scale=2.), x, unit, (0, 1))
    _probe(tf, out, "softsign", B.Softsign(), x, _arr(2, 3, lo=-0.9, hi=0.9), (0, 1))
    _probe(tf, out, "square", B.Square(), pos, pos, (0, 1))
    out["exp_is_power"] = isinstance(B.Exp(), B.PowerTransform)
    out["power_value"] = float(B.PowerTransform(power=2.).power)
    return out


def case_affine_bijectors(tf):
    B = _bij(tf)
    out = {}
    x = _arr(4, 3)
    tril = np.tril(_arr(3, 3, lo=0.5, hi=2.)) + np.eye(3, dtype=np.float32)
    _probe(tf, out, "multiplier", B.Affine(shift=[1., 0., -1.], scale_identity_multiplier=2.),
           x, x, (1, 2))
    _probe(tf, out, "default", B.Affine(), x, x, (1,))
    _probe(tf, out, "diag", B.Affine(shift=[0.5, 0., 1.], scale_diag=[1., 2., 3.],
                                     scale_identity_multiplier=0.5), x, x, (1, 2))
    _probe(tf, out, "tril", B.Affine(scale_tril=tril, scale_diag=[0.1, 0.2, 0.3]), x, x, (1,))
    _probe(tf, out, "perturb", B.Affine(
        shift=[1., 1., 1.], scale_diag=[1., 2., 3.], scale_perturb_factor=_arr(3, 2),
        scale_perturb_diag=[0.5, 1.5]), x, x, (1,))
    _probe(tf, out, "perturb_only", B.Affine(shift=[0., 0., 0.],
                                             scale_perturb_factor=_arr(3, 1)), x, x, (1,))
    batch_diag = _arr(4, 3, lo=0.5, hi=2.)
    _probe(tf, out, "batch", B.Affine(scale_diag=batch_diag), _arr(2, 4, 3), _arr(2, 4, 3),
           (1, 2))
    lo = tf.linalg.LinearOperatorLowerTriangular(tril)
    _probe(tf, out, "alo_tril", B.AffineLinearOperator(shift=[1., 2., 3.], scale=lo), x, x,
           (1, 2))
    _probe(tf, out, "alo_diag", B.AffineLinearOperator(
        scale=tf.linalg.LinearOperatorDiag([2., 3., 4.])), x, x, (1,))
    _probe(tf, out, "alo_none", B.AffineLinearOperator(shift=[1., 2., 3.]), x, x, (1,))
    out["scale_is_tensor"] = [isinstance(B.Affine(scale_identity_multiplier=2.).scale,
                                         tf.Tensor),
                              type(B.Affine(scale_diag=[1., 2.]).scale).__name__,
                              type(B.Affine(scale_tril=tril).scale).__name__,
                              type(B.Affine(shift=[1., 2.], scale_identity_multiplier=2.,
                                            scale_perturb_factor=_arr(2, 1)).scale).__name__]
    return out


def case_matrix_and_vector_bijectors(tf):
    B = _bij(tf)
    out = {}
    tril = np.tril(_arr(2, 3, 3, lo=0.5, hi=2.)) + np.eye(3, dtype=np.float32)
    spd = np.matmul(tril, np.transpose(tril, (0, 2, 1)))
    _probe(tf, out, "fill", B.FillTriangular(), _arr(2, 6), tril, (1, 2))
    _probe(tf, out, "fill_upper", B.FillTriangular(upper=True), _arr(6),
           np.triu(_arr(3, 3)), (1,))
    _probe(tf, out, "cholesky", B.CholeskyOuterProduct(), tril, spd, (2, 3))
    _probe(tf, out, "cholesky_single", B.CholeskyOuterProduct(), tril[0], spd[0], (2,))
    _probe(tf, out, "transform_diag", B.TransformDiagonal(diag_bijector=B.Exp()), tril,
           tril, (2, 3))
    _probe(tf, out, "inverse_tril", B.MatrixInverseTriL(), tril, tril, (2, 3))
    _probe(tf, out, "scale_tril", B.ScaleTriL(), _arr(2, 6), tril, (1, 2))
    _probe(tf, out, "scale_tril_exp", B.ScaleTriL(diag_bijector=B.Exp(), diag_shift=None),
           _arr(6), tril[0], (1,))
    simplex = np.array([[0.2, 0.3, 0.5], [0.1, 0.6, 0.3]], np.float32)
    _probe(tf, out, "softmax_centered", B.SoftmaxCentered(), _arr(2, 2), simplex, (1, 2))
    ordered = np.cumsum(_arr(2, 4, lo=0.1, hi=1.), axis=-1)
    _probe(tf, out, "ordered", B.Ordered(), ordered, _arr(2, 4), (1, 2))
    _probe(tf, out, "permute", B.Permute(permutation=[2, 0, 1]), _arr(2, 3), _arr(2, 3),
           (1, 2))
    _probe(tf, out, "reshape", B.Reshape(event_shape_out=[3, 2]), _arr(4, 6), _arr(4, 3, 2),
           (1, 2))
    _probe(tf, out, "reshape_in", B.Reshape(event_shape_out=[-1], event_shape_in=[2, 2]),
           _arr(3, 2, 2), _arr(3, 4), (2,))
    out["scale_tril_parts"] = [b.name for b in B.ScaleTriL().bijectors]
    return out


def case_chain_and_invert(tf):
    B = _bij(tf)
    out = {}
    x = _arr(2, 3)
    chain = B.Chain([B.Exp(), B.Affine(shift=[1., 2., 3.], scale_diag=[0.5, 1., 2.])])
    _probe(tf, out, "exp_affine", chain, x, _arr(2, 3, lo=0.5, hi=4.), (1, 2))
    _probe(tf, out, "empty", B.Chain(), x, x, (0, 1))
    _probe(tf, out, "softmax_chain", B.Chain([B.SoftmaxCentered(), B.Softplus()]), x,
           np.array([[0.2, 0.3, 0.1, 0.4], [0.25, 0.25, 0.25, 0.25]], np.float32), (1, 2))
    _probe(tf, out, "chol_of_fill", B.Chain([B.CholeskyOuterProduct(), B.ScaleTriL()]),
           _arr(2, 6), (np.eye(3)[None] * [[[2.]], [[3.]]]).astype(np.float32), (1,))
    _probe(tf, out, "invert_exp", B.Invert(B.Exp()), _arr(2, 3, lo=0.5, hi=3.), x, (0, 1))
    _probe(tf, out, "invert_softmax", B.Invert(B.SoftmaxCentered()),
           np.array([[0.2, 0.3, 0.5]], np.float32), _arr(1, 2), (1,))
    _probe(tf, out, "invert_fill", B.Invert(B.FillTriangular()), np.tril(_arr(3, 3)),
           _arr(6), (2,))
    out["names"] = [B.Chain([B.Exp(), B.Sigmoid()]).name, B.Invert(B.Exp()).name,
                    B.Chain([B.Exp()], name="mine").name]
    out["min_ndims"] = [
        n for c in [
            B.Chain([B.Exp(), B.SoftmaxCentered()]),
            B.Chain([B.FillTriangular(), B.Exp()]),
            B.Chain([B.CholeskyOuterProduct(), B.FillTriangular()]),
            B.Chain([B.Exp(), B.Invert(B.FillTriangular())]),
        ] for n in (c.forward_min_event_ndims, c.inverse_min_event_ndims)]
    return out


def case_non_injective_and_inline(tf):
    B = _bij(tf)
    out = {}
    x = tf.constant(_arr(2, 3))
    y = tf.constant(_arr(2, 3, lo=0., hi=2.))
    a = B.AbsoluteValue()
    neg, pos = a.inverse(y)
    lneg, lpos = a.inverse_log_det_jacobian(y, event_ndims=1)
    out.update({"abs.forward": a.forward(x), "abs.neg": neg, "abs.pos": pos,
                "abs.ildj": [lneg, lpos], "abs.name": a.name,
                "abs.const": a.is_constant_jacobian})
    inline = B.Inline(forward_fn=tf.exp, inverse_fn=tf.log,
                      inverse_log_det_jacobian_fn=lambda y: -tf.log(y),
                      forward_min_event_ndims=0, name="my_exp")
    out["inline.forward"] = inline.forward(x)
    out["inline.fldj"] = inline.forward_log_det_jacobian(x, event_ndims=1)
    out["inline.ildj"] = inline.inverse_log_det_jacobian(y + 1., event_ndims=1)
    out["inline.name"] = inline.name

    class Scaled(B.ConditionalBijector):
        def __init__(self):
            super(Scaled, self).__init__(forward_min_event_ndims=0, name="scaled")

        def _forward(self, x, scale=1.):
            return x * scale

        def _inverse(self, y, scale=1.):
            return y / scale

        def _inverse_log_det_jacobian(self, y, scale=1.):
            return -tf.log(tf.abs(scale)) * tf.ones_like(y)

    c = Scaled()
    out["cond.forward"] = c.forward(x, scale=3.)
    out["cond.inverse"] = c.inverse(y, scale=2.)
    out["cond.ildj"] = c.inverse_log_det_jacobian(y, event_ndims=0, scale=4.)
    return out


def case_float64(tf):
    B = _bij(tf)
    out = {}
    d = np.float64
    x, pos = _arr(2, 3, dtype=d), _arr(2, 3, lo=0.2, hi=3., dtype=d)
    unit = _arr(2, 3, lo=0.05, hi=0.95, dtype=d)
    tril = np.tril(_arr(3, 3, lo=0.5, hi=2., dtype=d)) + np.eye(3)
    _probe(tf, out, "softplus", B.Softplus(hinge_softness=0.5), x, pos, (1,))
    _probe(tf, out, "sinh_arcsinh", B.SinhArcsinh(skewness=d(0.2), tailweight=d(2.)), x, x)
    _probe(tf, out, "affine", B.Affine(shift=d([1., 2., 3.]), scale_tril=tril), x, x, (1,))
    _probe(tf, out, "affine_multiplier", B.Affine(shift=d([1., 2., 3.])), x, x, (1,))
    _probe(tf, out, "kumaraswamy", B.Kumaraswamy(d(0.5), d(2.)), unit, unit)
    _probe(tf, out, "cholesky", B.CholeskyOuterProduct(), tril, np.dot(tril, tril.T), (2,))
    _probe(tf, out, "softmax", B.SoftmaxCentered(), x[:, :2], unit / unit.sum(-1)[:, None],
           (1,))
    _probe(tf, out, "scale_tril", B.ScaleTriL(diag_shift=None), _arr(2, 6, dtype=d), tril, (1,))
    return out


def case_unknown_shapes(tf):
    """Placeholders of unknown dims / rank: the dynamic paths and the static shapes inferred."""
    B = _bij(tf)
    vec = tf.placeholder(tf.float32, [None, None])
    mat = tf.placeholder(tf.float32, None)
    ops = {}
    chain = B.Chain([B.SoftmaxCentered(), B.Exp()])
    ops["chain.forward"] = chain.forward(vec)
    ops["chain.fldj"] = chain.forward_log_det_jacobian(vec, event_ndims=1)
    ops["chain.fshape_t"] = chain.forward_event_shape_tensor(tf.shape(vec))
    fill = B.FillTriangular(validate_args=True)
    ops["fill.forward"] = fill.forward(vec[:, :3])
    ops["fill.fshape_t"] = fill.forward_event_shape_tensor(tf.shape(vec[:, :3]))
    ops["fill.ishape_t"] = fill.inverse_event_shape_tensor(tf.shape(mat))
    ops["chol.fldj"] = B.CholeskyOuterProduct().forward_log_det_jacobian(mat, event_ndims=2)
    ops["inv_tril.fldj"] = B.MatrixInverseTriL().forward_log_det_jacobian(mat, event_ndims=2)
    ops["reshape.forward"] = B.Reshape(event_shape_out=[-1], event_shape_in=[3, -1],
                                       validate_args=True).forward(mat)
    ops["affine.forward"] = B.Affine(scale_tril=mat, shift=[1., 2., 3.]).forward(vec[:, :3])
    ops["affine.ildj"] = B.Affine(scale_diag=vec[0, :3]).inverse_log_det_jacobian(
        vec[:, :3], event_ndims=2)
    ops["permute.forward"] = B.Permute(
        permutation=tf.placeholder_with_default([2, 1, 0], [None]),
        validate_args=True).forward(vec[:, :3])
    ops["ordered.inverse"] = B.Ordered().inverse(vec)
    static = {k + ".static": _shape(v.shape) for k, v in ops.items()}
    feed = {vec: _arr(2, 3, lo=0.2, hi=1.), mat: np.tril(_arr(3, 3, lo=0.5, hi=2.))}

    def run(sess):
        out = sess.run(ops, feed)
        out.update(static)
        return out
    return run


def _init(tf):
    """A deterministic initializer (sines) both TF versions call the same way."""
    def init(shape, dtype=None, partition_info=None):
        n = int(np.prod(shape))
        return tf.constant((np.sin(np.arange(n) * 0.7) * 0.3).reshape(shape),
                           dtype=dtype or tf.float32)
    return init


def case_masked_autoregressive_flow(tf):
    B = _bij(tf)
    x = tf.constant(_arr(2, 4))
    made = B.masked_autoregressive_default_template(
        hidden_layers=[6, 5], kernel_initializer=_init(tf), bias_initializer=_init(tf))
    maf = B.MaskedAutoregressiveFlow(shift_and_log_scale_fn=made)
    unrolled = B.MaskedAutoregressiveFlow(shift_and_log_scale_fn=made, unroll_loop=True,
                                          name="unrolled")
    shift_only = B.MaskedAutoregressiveFlow(
        shift_and_log_scale_fn=B.masked_autoregressive_default_template(
            hidden_layers=[3], shift_only=True, kernel_initializer=_init(tf), name="shifty"),
        is_constant_jacobian=True)
    y = maf.forward(x)
    with tf.variable_scope("alone"):
        dense = B.masked_dense(x, 8, num_blocks=4, exclusive=True,
                               kernel_initializer=_init(tf))
    return {"forward": y, "unrolled": unrolled.forward(x),
            "inverse": maf.inverse(tf.constant(_arr(2, 4, lo=-1., hi=1.))),
            "round_trip": maf.inverse(tf.identity(y)),
            "fldj": maf.forward_log_det_jacobian(x, event_ndims=1),
            "ildj": maf.inverse_log_det_jacobian(tf.constant(_arr(3, 4)), event_ndims=2),
            "shift_only": shift_only.forward(x),
            "shift_only_ildj": shift_only.inverse_log_det_jacobian(x, event_ndims=1),
            "masked_dense": dense, "name": maf.name}


def case_real_nvp(tf):
    B = _bij(tf)
    x = tf.constant(_arr(3, 5))
    template = B.real_nvp_default_template(hidden_layers=[4], kernel_initializer=_init(tf),
                                           bias_initializer=_init(tf))
    nvp = B.RealNVP(num_masked=2, shift_and_log_scale_fn=template)
    shift_only = B.RealNVP(num_masked=3, shift_and_log_scale_fn=B.real_nvp_default_template(
        hidden_layers=[], shift_only=True, kernel_initializer=_init(tf)))
    return {"forward": nvp.forward(x), "inverse": nvp.inverse(tf.constant(_arr(3, 5, lo=0.))),
            "fldj": nvp.forward_log_det_jacobian(x, event_ndims=1),
            "ildj": nvp.inverse_log_det_jacobian(tf.constant(_arr(3, 5, lo=0.)),
                                                 event_ndims=1),
            "shift_only": shift_only.forward(x),
            "shift_only_fldj": shift_only.forward_log_det_jacobian(x, event_ndims=1),
            "name": nvp.name}


def case_batch_normalization(tf):
    B = _bij(tf)
    y = tf.constant(_arr(6, 3, lo=-2., hi=3.))
    bn = B.BatchNormalization()
    x = bn.inverse(y)
    ildj = bn.inverse_log_det_jacobian(y, event_ndims=1)
    forward = bn.forward(tf.constant(_arr(6, 3)))
    fldj = bn.forward_log_det_jacobian(tf.constant(_arr(6, 3)), event_ndims=1)
    frozen = B.BatchNormalization(batchnorm_layer=tf.layers.BatchNormalization(
        name="frozen_bn"), training=False)
    fetches = {"inverse": x, "ildj": ildj, "forward": forward,
               "frozen_inverse": frozen.inverse(y),
               "frozen_ildj": frozen.inverse_log_det_jacobian(y, event_ndims=1)}

    def run(sess):
        # fldj on its own: TF 1.15's graph optimizer gets its sign wrong when it runs in one
        # step with the training-mode ildj (each alone is right)
        out = sess.run(fetches)
        out.update(fldj=sess.run(fldj), min=bn.forward_min_event_ndims, name=bn.name)
        return out
    return run


def case_validate_args_errors(tf):
    B = _bij(tf)
    C = tf.constant
    V = {"validate_args": True}
    ones = np.ones([2, 3], np.float32)
    singular = tf.linalg.LinearOperatorDiag([1., 2.], is_non_singular=False)

    def attempts():
        yield "affine_scalar_zero", lambda: B.AffineScalar(scale=0., **V).forward(C([1.]))
        yield "softplus_zero_hinge", lambda: B.Softplus(0., **V).forward(C([1.]))
        yield "sinh_arcsinh_tail", lambda: B.SinhArcsinh(tailweight=-1., **V).forward(C([1.]))
        yield "kumaraswamy_conc", lambda: B.Kumaraswamy(-1., 2., **V).forward(C([0.5]))
        yield "kumaraswamy_x", lambda: B.Kumaraswamy(1., 2., **V).forward(C([2.]))
        yield "power_negative", lambda: B.PowerTransform(power=-1.)
        yield "power_y", lambda: B.PowerTransform(0.5, **V).inverse(C([-1.]))
        yield "power_x", lambda: B.PowerTransform(0.5, **V).forward(C([-3.]))
        yield "exp_y", lambda: B.Exp(**V).inverse(C([-1.]))
        yield "affine_perturb_diag", lambda: B.Affine(scale_perturb_diag=[1.])
        yield "affine_multiplier_zero", lambda: B.Affine(
            scale_identity_multiplier=0., **V).forward(C([[1.]]))
        yield "affine_diag_zero", lambda: B.Affine(scale_diag=[1., 0.], **V).forward(
            C([1., 1.]))
        yield "affine_dtype", lambda: B.Affine(shift=np.float64([1., 2.]), scale_diag=[1., 2.])
        yield "affine_rank_low", lambda: B.Affine(scale_diag=ones).forward(C([1., 2., 3.]))
        yield "alo_rank_low", lambda: B.AffineLinearOperator(
            scale=tf.linalg.LinearOperatorDiag(ones)).inverse(C([1., 2., 3.]))
        yield "alo_not_operator", lambda: B.AffineLinearOperator(scale=C([[1.]]))
        yield "alo_singular", lambda: B.AffineLinearOperator(scale=singular, **V)
        yield "event_ndims_low", lambda: B.Affine().forward_log_det_jacobian(C([1.]), 0)
        yield "fill_not_triangular", lambda: B.FillTriangular().forward_event_shape(
            tf.TensorShape([4]))
        yield "fill_not_square", lambda: B.FillTriangular().inverse_event_shape(
            tf.TensorShape([2, 3]))
        yield "softmax_small", lambda: B.SoftmaxCentered().inverse_event_shape(
            tf.TensorShape([1]))
        yield "cholesky_not_square", lambda: B.CholeskyOuterProduct(**V).forward(C(ones))
        yield "cholesky_fldj_not_pd", lambda: B.CholeskyOuterProduct(
            **V).forward_log_det_jacobian(C(-np.eye(2, dtype=np.float32)), event_ndims=2)
        yield "inverse_tril_upper", lambda: B.MatrixInverseTriL(**V).forward(
            C(np.ones([2, 2], np.float32)))
        yield "ordered_not_increasing", lambda: B.Ordered(**V).forward(C([2., 1.]))
        yield "permute_bad", lambda: B.Permute(permutation=[0, 0, 1])
        yield "permute_float", lambda: B.Permute(permutation=C([0., 1.]))
        yield "reshape_two_unknown", lambda: B.Reshape(event_shape_out=[-1, -1])
        yield "reshape_mismatch", lambda: B.Reshape(
            event_shape_out=[3], event_shape_in=[2, 2]).forward(C(ones))
        yield "reshape_float", lambda: B.Reshape(event_shape_out=[2.5])
        yield "gumbel_scale", lambda: B.Gumbel(scale=-1., **V).forward(C([1.]))
        yield "gumbel_y", lambda: B.Gumbel(**V).inverse(C([2.]))
        yield "softsign_y", lambda: B.Softsign(**V).inverse(C([1.5]))
        yield "square_x", lambda: B.Square(**V).forward(C([-1.]))
        yield "abs_y", lambda: B.AbsoluteValue(**V).inverse(C([-1.]))
        yield "invert_abs", lambda: B.Invert(B.AbsoluteValue())
        yield "chain_abs", lambda: B.Chain([B.AbsoluteValue()])
        yield "real_nvp_masked", lambda: B.RealNVP(num_masked=0, shift_and_log_scale_fn=None)
        yield "real_nvp_too_many", lambda: B.RealNVP(
            num_masked=3, shift_and_log_scale_fn=None).forward(C(ones[:1]))
        yield "inline_missing", lambda: B.Inline(forward_min_event_ndims=0).forward(C([1.]))
        yield "no_min_ndims", lambda: B.Inline()
        yield "scale_tril_float64_shift", lambda: B.ScaleTriL().forward(C(np.ones([3])))
        yield "bn_layer", lambda: B.BatchNormalization(batchnorm_layer=object())
        yield "bn_renorm", lambda: B.BatchNormalization(
            batchnorm_layer=tf.layers.BatchNormalization(renorm=True))

    def run(sess):
        out = {}
        for key, attempt in attempts():
            try:
                built = attempt()
                if isinstance(built, tf.Tensor):
                    sess.run(built)
                out[key] = "ok"
            except Exception as error:  # noqa: BLE001 - the error type is what is compared
                out[key] = type(error).__name__
        return out
    return run
