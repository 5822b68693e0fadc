"""tf.contrib.distributions cases (TF 1.15 style, Python 3.7): TransformedDistribution (shape
overrides included), the distributions built on bijectors and linear operators, their KL
divergences, the quadrature schemes, the distribution regression head and the errors for
invalid arguments, compared with TF 1.15.5's record. Samples are compared by shape and a
sample-mean band (`in_band`), not by value."""
import numpy as np

N_DRAWS = 4000


def _ds(tf):
    return tf.contrib.distributions


def _in_band(tf, samples, expected, width):
    """Whether the sample mean (over axis 0) is within `width` of `expected`, everywhere."""
    mean = tf.reduce_mean(samples, axis=0)
    return tf.reduce_all(tf.abs(mean - tf.cast(expected, mean.dtype)) < width)


def _dims(shape):
    return [-1 if x is None else x for x in shape.as_list()]


def _shapes(d):
    return {"batch_shape": _dims(d.batch_shape), "event_shape": _dims(d.event_shape),
            "batch_shape_tensor": d.batch_shape_tensor(),
            "event_shape_tensor": d.event_shape_tensor()}


def _stats(d, *names):
    return {n: getattr(d, n)() for n in names}


X3 = np.array([[0.3, -1.2, 2.0], [1.5, 0.1, -0.4]], np.float32)


def case_transformed_lognormal(tf):
    ds = _ds(tf)
    d = ds.TransformedDistribution(
        distribution=tf.distributions.Normal(loc=[0., 1.], scale=[1., 2.]),
        bijector=ds.bijectors.Exp())
    y = tf.constant([[0.5, 2.0], [1.5, 3.0]])
    samples = d.sample(N_DRAWS, seed=1)
    out = {"log_prob": d.log_prob(y), "prob": d.prob(y), "cdf": d.cdf(y),
           "log_cdf": d.log_cdf(y), "survival": d.survival_function(y),
           "log_survival": d.log_survival_function(y),
           "quantile": d.quantile([0.25, 0.75]),
           "sample_shape": tf.shape(samples), "sample_static": samples.shape.as_list(),
           "median_band": _in_band(tf, tf.cast(samples < tf.exp([0., 1.]), tf.float32),
                                   [0.5, 0.5], 0.05),
           "name": d.name, "dtype": d.dtype.name,
           "reparam": d.reparameterization_type == tf.distributions.FULLY_REPARAMETERIZED}
    out.update(_shapes(d))
    return out


def case_transformed_event_and_batch_override(tf):
    ds = _ds(tf)
    base = tf.distributions.Normal(loc=0.5, scale=2.0)
    affine = ds.bijectors.Affine(shift=[1., -1., 0.], scale_diag=[2., 1., 0.5])
    d = ds.TransformedDistribution(distribution=base, bijector=affine, batch_shape=[2],
                                   event_shape=[3], name="MyMVN")
    samples = d.sample([5, 7], seed=2)
    out = {"log_prob": d.log_prob(X3), "prob": d.prob(X3), "entropy": d.entropy(),
           "sample_shape": tf.shape(samples), "sample_static": samples.shape.as_list(),
           "name": d.name, "params": sorted(d.parameters)}
    out.update(_shapes(d))
    return out


def case_transformed_event_override_rotates_base_batch(tf):
    ds = _ds(tf)
    base = tf.distributions.Normal(loc=[0., 1.], scale=[1., 3.])
    d = ds.TransformedDistribution(distribution=base, bijector=ds.bijectors.Identity(),
                                   event_shape=[3])
    samples = d.sample(N_DRAWS, seed=3)
    out = {"log_prob": d.log_prob(X3), "entropy": d.entropy(),
           "sample_shape": tf.shape(samples),
           "mean_band": _in_band(tf, samples, [[0.] * 3, [1.] * 3], 0.2)}
    out.update(_shapes(d))
    return out


def case_transformed_cdf_with_event_override_raises(tf):
    ds = _ds(tf)
    d = ds.TransformedDistribution(distribution=tf.distributions.Normal(0., 1.),
                                   bijector=ds.bijectors.Identity(), event_shape=[2])
    return {"cdf": d.cdf([0., 1.])}


def case_transformed_override_of_nonscalar_base_raises(tf):
    ds = _ds(tf)
    ds.TransformedDistribution(distribution=tf.distributions.Normal([0., 1.], 1.),
                               bijector=ds.bijectors.Identity(), batch_shape=[2])
    return {}


def case_transformed_negative_override_raises(tf):
    ds = _ds(tf)
    ds.TransformedDistribution(distribution=tf.distributions.Normal(0., 1.),
                               bijector=ds.bijectors.Identity(), event_shape=[-2])
    return {}


def case_transformed_non_injective(tf):
    ds = _ds(tf)
    d = ds.TransformedDistribution(distribution=tf.distributions.Normal(loc=[0.5, -1.],
                                                                        scale=[1., 2.]),
                                   bijector=ds.bijectors.AbsoluteValue())
    y = tf.constant([[0.3, 1.2], [2.0, 0.1]])
    samples = d.sample(N_DRAWS, seed=20)
    return {"log_prob": d.log_prob(y), "prob": d.prob(y), "sample_shape": tf.shape(samples),
            "nonnegative": tf.reduce_all(samples >= 0.)}


def case_transformed_dynamic_event_override(tf):
    ds = _ds(tf)
    event = tf.placeholder(tf.int32, [None])
    d = ds.TransformedDistribution(distribution=tf.distributions.Normal(0.5, 2.),
                                   bijector=ds.bijectors.Exp(), event_shape=event,
                                   validate_args=True)
    y = tf.constant([[0.5, 1.5, 3.0], [1.0, 2.0, 0.2]])
    samples = d.sample(5, seed=21)
    out = {"log_prob": d.log_prob(y), "prob": d.prob(y), "sample_shape": tf.shape(samples),
           "event_shape_tensor": d.event_shape_tensor(),
           "batch_shape_tensor": d.batch_shape_tensor()}

    def run(sess):
        values = sess.run(out, {event: [3]})
        values["static_event_rank"] = d.event_shape.ndims
        values["static_sample"] = samples.shape.ndims
        return values
    return run


def case_transformed_dynamic_negative_override_raises(tf):
    ds = _ds(tf)
    event = tf.placeholder(tf.int32, [None])
    d = ds.TransformedDistribution(distribution=tf.distributions.Normal(0., 1.),
                                   bijector=ds.bijectors.Exp(), event_shape=event,
                                   validate_args=True)
    log_prob = d.log_prob([1., 2.])
    return lambda sess: {"log_prob": sess.run(log_prob, {event: [-2]})}


def case_conditional_distribution_subclass(tf):
    ds = _ds(tf)

    class Scaled(ds.ConditionalDistribution):
        def __init__(self):
            super(Scaled, self).__init__(
                dtype=tf.float32, reparameterization_type=tf.distributions.FULLY_REPARAMETERIZED,
                validate_args=False, allow_nan_stats=True, name="Scaled")

        def _batch_shape(self):
            return tf.TensorShape([])

        def _event_shape(self):
            return tf.TensorShape([])

        def _log_prob(self, x, scale=1.):
            return -tf.square(x / scale)

        def _cdf(self, x, shift=0.):
            return tf.sigmoid(x - shift)

        def _sample_n(self, n, seed=None, value=0.):
            return tf.fill([n], value)

    d = Scaled()
    x = tf.constant([0.5, 2.0])
    return {"log_prob": d.log_prob(x), "log_prob_scaled": d.log_prob(x, scale=2.),
            "prob": d.prob(x), "cdf": d.cdf(x, shift=1.),
            "log_cdf": d.log_cdf(x), "survival": d.survival_function(x),
            "sample": d.sample(3, value=7.)}


def case_conditional_transformed(tf):
    ds = _ds(tf)
    d = ds.ConditionalTransformedDistribution(
        distribution=tf.distributions.Normal(loc=[0., 1.], scale=1.),
        bijector=ds.bijectors.Exp())
    y = tf.constant([0.5, 2.0])
    samples = d.sample(3, seed=4, bijector_kwargs={}, distribution_kwargs={})
    return {"log_prob": d.log_prob(y, bijector_kwargs={}, distribution_kwargs={}),
            "prob": d.prob(y), "cdf": d.cdf(y, distribution_kwargs={}),
            "survival": d.survival_function(y), "sample_shape": tf.shape(samples),
            "is_conditional": isinstance(d, ds.ConditionalDistribution),
            "name": d.name}


def case_conditional_transformed_with_conditional_bijector(tf):
    ds = _ds(tf)

    class Shift(ds.bijectors.ConditionalBijector):
        """y = x + shift, the shift given as a condition."""

        def __init__(self):
            super(Shift, self).__init__(forward_min_event_ndims=0, is_constant_jacobian=True,
                                        name="shift")

        def _forward(self, x, shift=0.):
            return x + shift

        def _inverse(self, y, shift=0.):
            return y - shift

        def _inverse_log_det_jacobian(self, y, shift=0.):
            return tf.constant(0., y.dtype)

    d = ds.ConditionalTransformedDistribution(
        distribution=tf.distributions.Normal(loc=0., scale=[1., 2.]), bijector=Shift())
    y = tf.constant([0.5, 3.0])
    samples = d.sample(N_DRAWS, seed=23, bijector_kwargs={"shift": 5.})
    return {"log_prob": d.log_prob(y, bijector_kwargs={"shift": 1.}),
            "prob": d.prob(y, bijector_kwargs={"shift": -1.}),
            "cdf": d.cdf(y, bijector_kwargs={"shift": 2.}),
            "log_survival": d.log_survival_function(y, bijector_kwargs={"shift": 2.}),
            "sample_shape": tf.shape(samples),
            "mean_band": _in_band(tf, samples, [5., 5.], 0.15),
            "name": d.name}


def case_autoregressive(tf):
    ds = _ds(tf)
    mask = np.tril(np.ones([3, 3], np.float32), -1)

    def normal_fn(samples):
        # entry i's mean depends on the entries before it
        loc = tf.matmul(samples, mask, transpose_b=True) * 0.5 + 1.0
        return ds.MultivariateNormalDiag(loc=loc, scale_diag=[1., 1., 1.])

    d = ds.Autoregressive(normal_fn, sample0=tf.zeros([2, 3]))
    x = tf.constant(X3)
    samples = d.sample(seed=5)
    out = {"log_prob": d.log_prob(x), "prob": d.prob(x), "num_steps": d.num_steps,
           "sample_shape": tf.shape(samples), "name": d.name}
    out.update(_shapes(d))
    return out


def case_mvn_diag(tf):
    ds = _ds(tf)
    d = ds.MultivariateNormalDiag(loc=[[1., -1., 0.], [0., 2., 1.]],
                                  scale_diag=[[1., 2., 0.5], [3., 1., 1.]])
    samples = d.sample(N_DRAWS, seed=6)
    out = _stats(d, "mean", "mode", "stddev", "variance", "covariance", "entropy")
    out.update({"log_prob": d.log_prob(X3), "prob": d.prob(X3),
                "sample_shape": tf.shape(samples),
                "mean_band": _in_band(tf, samples, [[1., -1., 0.], [0., 2., 1.]], 0.25),
                "name": d.name, "params": sorted(d.parameters),
                "scale": type(d.scale).__name__, "loc": d.loc})
    out.update(_shapes(d))
    return out


def case_mvn_diag_dynamic_shapes(tf):
    ds = _ds(tf)
    loc = tf.placeholder(tf.float32, [None, None])
    scale_diag = tf.placeholder(tf.float32, [None, None])
    d = ds.MultivariateNormalDiag(loc=loc, scale_diag=scale_diag)
    samples = d.sample(4, seed=22)
    out = _stats(d, "mean", "stddev", "covariance", "entropy")
    out.update({"log_prob": d.log_prob(X3), "sample_shape": tf.shape(samples),
                "batch_shape_tensor": d.batch_shape_tensor(),
                "event_shape_tensor": d.event_shape_tensor()})

    def run(sess):
        values = sess.run(out, {loc: [[1., -1., 0.], [0., 2., 1.]],
                                scale_diag: [[1., 2., 0.5], [3., 1., 1.]]})
        values.update(static_batch=_dims(d.batch_shape), static_event=_dims(d.event_shape),
                      static_sample=_dims(samples.shape))
        return values
    return run


def case_mvn_diag_multiplier_and_softplus(tf):
    ds = _ds(tf)
    ident = ds.MultivariateNormalDiag(loc=[1., 2.])
    scaled = ds.MultivariateNormalDiag(loc=[1., 2.], scale_identity_multiplier=3.)
    both = ds.MultivariateNormalDiag(scale_diag=[1., 2.], scale_identity_multiplier=0.5)
    soft = ds.MultivariateNormalDiagWithSoftplusScale(loc=[0., 1.], scale_diag=[-1., 2.])
    x = tf.constant([[0.5, 1.5], [2., -1.]])
    out = {"scales": [type(d.scale).__name__ for d in (ident, scaled, both, soft)],
           "names": [d.name for d in (ident, scaled, both, soft)]}
    for key, d in (("ident", ident), ("scaled", scaled), ("both", both), ("soft", soft)):
        out[key] = {"log_prob": d.log_prob(x), "stddev": d.stddev(),
                    "covariance": d.covariance(), "entropy": d.entropy(), "mean": d.mean()}
    out["soft_params"] = sorted(soft.parameters)
    return out


COV = np.array([[[2., 0.5, 0.1], [0.5, 1., 0.3], [0.1, 0.3, 1.5]],
                [[1., -0.2, 0.], [-0.2, 0.5, 0.1], [0., 0.1, 3.]]], np.float32)


def case_mvn_tril_full_and_kl(tf):
    ds = _ds(tf)
    tril = np.linalg.cholesky(COV).astype(np.float32)
    tril_upper_junk = tril + np.triu(np.ones([3, 3], np.float32), 1)  # ignored
    a = ds.MultivariateNormalTriL(loc=[0.5, 0., -1.], scale_tril=tril_upper_junk)
    b = ds.MultivariateNormalFullCovariance(loc=[[1., 1., 0.], [0., 0., 0.]],
                                            covariance_matrix=COV[::-1].copy())
    c = ds.MultivariateNormalDiag(loc=[0., 1., 0.], scale_diag=[1., 2., 3.])
    e = ds.MultivariateNormalDiag(loc=[1., 0., 0.], scale_identity_multiplier=2.)
    only_loc = ds.MultivariateNormalTriL(loc=[1., 2., 3.])
    samples = b.sample(N_DRAWS, seed=7)
    out = {"a": _stats(a, "mean", "covariance", "variance", "stddev", "entropy"),
           "b": _stats(b, "mean", "covariance", "variance", "stddev", "entropy"),
           "a_log_prob": a.log_prob(X3), "b_log_prob": b.log_prob(X3),
           "only_loc_log_prob": only_loc.log_prob(X3),
           "only_loc_scale": type(only_loc.scale).__name__,
           "kl_ab": tf.distributions.kl_divergence(a, b),
           "kl_ca": tf.distributions.kl_divergence(c, a),
           "kl_ce": tf.distributions.kl_divergence(c, e),
           "kl_method": c.kl_divergence(e),
           "b_sample_shape": tf.shape(samples),
           "b_mean_band": _in_band(tf, samples, [[1., 1., 0.], [0., 0., 0.]], 0.2),
           "names": [a.name, b.name], "b_params": sorted(b.parameters)}
    out.update(_shapes(b))
    return out


def case_mvn_full_covariance_not_symmetric_raises(tf):
    ds = _ds(tf)
    d = ds.MultivariateNormalFullCovariance(
        loc=[0., 0.], covariance_matrix=[[1., 0.5], [0.2, 1.]], validate_args=True)
    return {"log_prob": d.log_prob([0., 0.])}


def case_mvn_tril_needs_loc_or_scale(tf):
    _ds(tf).MultivariateNormalTriL()
    return {}


def case_mvn_diag_plus_low_rank(tf):
    ds = _ds(tf)
    d = ds.MultivariateNormalDiagPlusLowRank(
        loc=[1., 0., -1.], scale_diag=[1., 2., 1.5],
        scale_perturb_factor=[[0.5, 0.1], [0.2, -0.3], [0.1, 0.4]],
        scale_perturb_diag=[0.8, 1.2])
    no_diag = ds.MultivariateNormalDiagPlusLowRank(
        loc=[0., 0., 0.], scale_identity_multiplier=2.,
        scale_perturb_factor=[[0.5], [0.2], [0.1]])
    samples = d.sample(N_DRAWS, seed=8)
    out = _stats(d, "mean", "covariance", "variance", "stddev", "entropy")
    out.update({"log_prob": d.log_prob(X3), "prob": d.prob(X3),
                "no_diag_log_prob": no_diag.log_prob(X3),
                "no_diag_cov": no_diag.covariance(),
                "sample_shape": tf.shape(samples),
                "mean_band": _in_band(tf, samples, [1., 0., -1.], 0.2),
                "scale": type(d.scale).__name__, "name": d.name,
                "kl": tf.distributions.kl_divergence(d, no_diag)})
    out.update(_shapes(d))
    return out


def case_vector_exponential_and_laplace(tf):
    ds = _ds(tf)
    exp = ds.VectorExponentialDiag(loc=[[0., -1., 1.], [1., 0., 0.]],
                                   scale_diag=[1., 2., 0.5])
    lap = ds.VectorLaplaceDiag(loc=[0., 1., 0.], scale_diag=[[1., 2., 0.5], [1., 1., 1.]])
    lap_mult = ds.VectorLaplaceDiag(loc=[0., 1., 0.], scale_identity_multiplier=2.)
    x = tf.constant([[0.5, 1.0, 1.2], [2.0, 0.5, 0.1]])
    exp_samples = exp.sample(N_DRAWS, seed=9)
    lap_samples = lap.sample(N_DRAWS, seed=10)
    out = {"exp": _stats(exp, "mean", "mode", "covariance", "variance", "stddev", "entropy"),
           "lap": _stats(lap, "mean", "mode", "covariance", "variance", "stddev", "entropy"),
           "lap_mult": _stats(lap_mult, "covariance", "stddev"),
           "exp_log_prob": exp.log_prob(x), "lap_log_prob": lap.log_prob(x),
           "exp_sample_shape": tf.shape(exp_samples),
           "exp_mean_band": _in_band(tf, exp_samples, [[1., 1., 1.5], [2., 2., 0.5]], 0.2),
           "lap_sample_shape": tf.shape(lap_samples),
           "lap_mean_band": _in_band(tf, lap_samples, [[0., 1., 0.], [0., 1., 0.]], 0.2),
           "names": [exp.name, lap.name, lap_mult.name],
           "params": sorted(lap.parameters)}
    out.update(_shapes(lap))
    return out


def case_sinh_arcsinh(tf):
    ds = _ds(tf)
    d = ds.SinhArcsinh(loc=[0., 1.], scale=[1., 2.], skewness=[0.5, -0.2],
                       tailweight=[1.5, 0.8])
    plain = ds.SinhArcsinh(loc=1., scale=2.)
    laplace_base = ds.SinhArcsinh(loc=0., scale=1., skewness=0.3,
                                  distribution=tf.distributions.Laplace(0., 1.))
    y = tf.constant([[0.3, 2.0], [-1.0, 0.5]])
    samples = plain.sample(N_DRAWS, seed=11)
    out = {"log_prob": d.log_prob(y), "prob": d.prob(y), "cdf": d.cdf(y),
           "log_cdf": d.log_cdf(y), "survival": d.survival_function(y),
           "quantile": d.quantile(0.3),
           "plain_log_prob": plain.log_prob(y), "plain_cdf": plain.cdf(y),
           "laplace_log_prob": laplace_base.log_prob(y),
           "sample_shape": tf.shape(samples),
           "mean_band": _in_band(tf, samples, 1., 0.1),
           "attrs": [d.loc, d.scale, d.skewness, d.tailweight],
           "name": d.name, "params": sorted(d.parameters)}
    out.update(_shapes(d))
    return out


def case_vector_sinh_arcsinh_diag(tf):
    ds = _ds(tf)
    d = ds.VectorSinhArcsinhDiag(loc=[[0., 1., -1.], [1., 1., 1.]], scale_diag=[1., 2., 0.5],
                                 skewness=0.4, tailweight=1.3)
    plain = ds.VectorSinhArcsinhDiag(loc=[0., 1., -1.], scale_identity_multiplier=2.)
    samples = plain.sample(N_DRAWS, seed=12)
    out = {"log_prob": d.log_prob(X3), "prob": d.prob(X3),
           "plain_log_prob": plain.log_prob(X3),
           "sample_shape": tf.shape(samples),
           "mean_band": _in_band(tf, samples, [0., 1., -1.], 0.2),
           "loc": d.loc, "skewness": d.skewness, "tailweight": d.tailweight,
           "scale": type(d.scale).__name__,
           "names": [d.name, plain.name]}
    out.update(_shapes(d))
    return out


def case_sinh_arcsinh_needs_scalar_base(tf):
    _ds(tf).SinhArcsinh(loc=0., scale=1., distribution=tf.distributions.Normal([0., 1.], 1.))
    return {}


def case_kumaraswamy(tf):
    ds = _ds(tf)
    d = ds.Kumaraswamy(concentration1=[2., 0.5, 3.], concentration0=[3., 2., 1.5])
    x = tf.constant([0.2, 0.5, 0.9])
    samples = d.sample(N_DRAWS, seed=13)
    out = _stats(d, "mean", "variance", "stddev", "entropy", "mode")
    out.update({"log_prob": d.log_prob(x), "prob": d.prob(x), "cdf": d.cdf(x),
                "log_cdf": d.log_cdf(x), "survival": d.survival_function(x),
                "sample_shape": tf.shape(samples),
                "mean_band": _in_band(tf, samples, d.mean(), 0.03),
                "attrs": [d.concentration1, d.concentration0], "name": d.name,
                "reparam": d.reparameterization_type == tf.distributions.FULLY_REPARAMETERIZED})
    out.update(_shapes(d))
    return out


def case_kumaraswamy_mode_undefined_raises(tf):
    d = _ds(tf).Kumaraswamy(concentration1=0.5, concentration0=2., allow_nan_stats=False)
    return {"mode": d.mode()}


def case_relaxed(tf):
    ds = _ds(tf)
    rb = ds.RelaxedBernoulli(temperature=0.5, logits=[-1., 0.5, 2.])
    rb_probs = ds.RelaxedBernoulli(temperature=[1., 2.], probs=0.3)
    roc = ds.RelaxedOneHotCategorical(temperature=0.7, logits=[[0.5, 1., -1.],
                                                               [0., 0., 1.]])
    roc_probs = ds.RelaxedOneHotCategorical(temperature=2., probs=[0.2, 0.3, 0.5])
    x = tf.constant([0.2, 0.7, 0.9])
    simplex = tf.constant([[0.2, 0.5, 0.3], [0.1, 0.1, 0.8]])
    rb_samples = rb.sample(N_DRAWS, seed=14)
    roc_samples = roc.sample(N_DRAWS, seed=15)
    out = {"rb_log_prob": rb.log_prob(x), "rb_prob": rb.prob(x), "rb_cdf": rb.cdf(x),
           "rb_probs_log_prob": rb_probs.log_prob([0.4, 0.6]),
           "rb_temperature": rb.temperature, "rb_logits": rb.logits, "rb_probs": rb.probs,
           "rb_probs_logits": rb_probs.logits,
           "rb_sample_shape": tf.shape(rb_samples),
           "rb_mean_band": _in_band(tf, tf.cast(rb_samples > 0.5, tf.float32),
                                    tf.sigmoid([-1., 0.5, 2.]), 0.05),
           "roc_log_prob": roc.log_prob(simplex), "roc_prob": roc.prob(simplex),
           "roc_probs_log_prob": roc_probs.log_prob(simplex),
           "roc_sample_shape": tf.shape(roc_samples),
           "roc_sums_to_one": tf.reduce_all(
               tf.abs(tf.reduce_sum(roc_samples, -1) - 1.) < 1e-4),
           "names": [rb.name, roc.name, roc.distribution.name],
           "rb_params": sorted(rb.parameters)}
    for prefix, d in (("rb_", rb), ("roc_", roc)):
        out.update({prefix + k: v for k, v in _shapes(d).items()})
    return out


def case_relaxed_bernoulli_negative_temperature_raises(tf):
    d = _ds(tf).RelaxedBernoulli(temperature=-1., logits=[0.5], validate_args=True)
    return {"log_prob": d.log_prob([0.5])}


SCALE = np.array([[2., 0.5, 0.1], [0.5, 1., 0.3], [0.1, 0.3, 1.5]], np.float32)
X_SPD = np.array([[[1., 0.2, 0.], [0.2, 2., 0.4], [0., 0.4, 1.]],
                  [[3., 1., 0.5], [1., 2., 0.], [0.5, 0., 1.5]]], np.float32)


def case_wishart(tf):
    ds = _ds(tf)
    full = ds.WishartFull(df=5., scale=np.stack([SCALE, SCALE * 0.5]))
    chol = ds.WishartCholesky(df=4., scale=np.linalg.cholesky(SCALE).astype(np.float32))
    chol_io = ds.WishartCholesky(df=4., scale=np.linalg.cholesky(SCALE).astype(np.float32),
                                 cholesky_input_output_matrices=True)
    samples = full.sample(N_DRAWS, seed=16)
    io_samples = chol_io.sample(2, seed=17)
    out = {"full": _stats(full, "mean", "mode", "variance", "stddev", "entropy",
                          "mean_log_det", "log_normalization", "scale"),
           "chol": _stats(chol, "mean", "mode", "variance", "entropy", "scale"),
           "chol_io": _stats(chol_io, "mean", "mode", "variance", "scale"),
           "full_log_prob": full.log_prob(X_SPD), "full_prob": full.prob(X_SPD),
           "chol_log_prob": chol.log_prob(X_SPD),
           "full_log_prob_samples": full.log_prob(np.stack([X_SPD, X_SPD * 1.5, X_SPD * 0.7])),
           "chol_io_log_prob": chol_io.log_prob(np.linalg.cholesky(X_SPD).astype(np.float32)),
           "sample_shape": tf.shape(samples),
           "mean_band": _in_band(tf, samples / 5., np.stack([SCALE, SCALE * 0.5]), 0.15),
           "io_lower": tf.reduce_all(tf.equal(tf.matrix_band_part(io_samples, 0, -1),
                                              tf.matrix_diag(tf.matrix_diag_part(
                                                  io_samples)))),
           "df": full.df, "dimension": full.dimension,
           "names": [full.name, chol.name], "params": sorted(full.parameters)}
    out.update(_shapes(full))
    return out


def case_wishart_df_below_dimension_raises(tf):
    _ds(tf).WishartFull(df=2., scale=SCALE)
    return {}


def case_wishart_cholesky_stddev_raises(tf):
    d = _ds(tf).WishartCholesky(df=4., scale=np.eye(2, dtype=np.float32),
                                cholesky_input_output_matrices=True)
    return {"stddev": d.stddev()}


def case_quadrature_schemes(tf):
    ds = _ds(tf)
    loc = tf.constant([0., 1.])
    scale = tf.constant([1., 0.5])
    out = {}
    for key, fn in (("lognormal_gh", ds.quadrature_scheme_lognormal_gauss_hermite),
                    ("lognormal_q", ds.quadrature_scheme_lognormal_quantiles)):
        grid, probs = fn(loc, scale, 5)
        out[key] = {"grid": grid, "probs": probs}
        out[key + "_static"] = grid.shape.as_list()
    grid, probs = ds.quadrature_scheme_softmaxnormal_quantiles([[0.5], [-1.]], [[1.], [2.]], 4)
    out["softmax_q"] = {"grid": grid, "probs": probs}
    out["softmax_q_static"] = grid.shape.as_list()
    return out


def case_quadrature_softmaxnormal_needs_bimixture(tf):
    _ds(tf).quadrature_scheme_softmaxnormal_quantiles([[0.5, 1.]], [[1., 1.]], 4)
    return {}


def case_poisson_lognormal(tf):
    ds = _ds(tf)
    d = ds.PoissonLogNormalQuadratureCompound(loc=[0., 1., -0.5], scale=[1., 0.5, 0.2],
                                              quadrature_size=6)
    gh = ds.PoissonLogNormalQuadratureCompound(
        loc=[0., 1.], scale=[1., 0.5],
        quadrature_fn=ds.quadrature_scheme_lognormal_gauss_hermite)
    x = tf.constant([0., 2., 1.])
    samples = d.sample(N_DRAWS, seed=18)
    out = _stats(d, "mean", "variance", "stddev")
    out.update({"log_prob": d.log_prob(x), "prob": d.prob(x),
                "gh": _stats(gh, "mean", "variance"), "gh_log_prob": gh.log_prob([1., 3.]),
                "sample_shape": tf.shape(samples),
                "mean_band": _in_band(tf, samples, d.mean(), 0.2),
                "attrs": [d.loc, d.scale], "quadrature_size": d.quadrature_size,
                "mixture_logits": d.mixture_distribution.logits,
                "rate": d.distribution.rate, "name": d.name,
                "params": sorted(d.parameters)})
    out.update(_shapes(d))
    return out


def case_vector_diffeomixture(tf):
    ds = _ds(tf)
    d = ds.VectorDiffeomixture(
        mix_loc=[[0.], [1.]], temperature=[1.],
        distribution=tf.distributions.Normal(0., 1.),
        loc=[None, [1., 0., -1.]],
        scale=[tf.linalg.LinearOperatorScaledIdentity(
                   num_rows=3, multiplier=np.float32(1.5), is_positive_definite=True),
               tf.linalg.LinearOperatorDiag(diag=[1., 2., 0.5], is_positive_definite=True)],
        quadrature_size=4)
    tril = ds.VectorDiffeomixture(
        mix_loc=[0.5], temperature=[2.], distribution=tf.distributions.Normal(0., 1.),
        loc=[[0., 0.], [1., 1.]],
        scale=[tf.linalg.LinearOperatorLowerTriangular([[1., 0.], [0.5, 2.]],
                                                       is_positive_definite=True),
               tf.linalg.LinearOperatorIdentity(2, is_positive_definite=True)],
        quadrature_size=3)
    samples = d.sample(N_DRAWS, seed=19)
    out = {"d": _stats(d, "mean", "covariance", "variance", "stddev"),
           "tril": _stats(tril, "mean", "covariance", "variance"),
           "log_prob": d.log_prob(X3), "prob": d.prob(X3),
           "tril_log_prob": tril.log_prob([[0.5, 0.2], [1., -1.]]),
           "grid": d.grid, "sample_shape": tf.shape(samples),
           "mean_band": _in_band(tf, samples, d.mean(), 0.25),
           "name": d.name, "params": sorted(d.parameters)}
    out.update(_shapes(d))
    return out


def case_vector_diffeomixture_needs_two_components(tf):
    ds = _ds(tf)
    ident = tf.linalg.LinearOperatorIdentity(2)
    ds.VectorDiffeomixture(mix_loc=[0.], temperature=[1.],
                           distribution=tf.distributions.Normal(0., 1.),
                           scale=[ident, ident, ident])
    return {}


def _head_logits(tf):
    return tf.constant([[0.5, 0.2], [1.0, -0.5], [-0.3, 1.0], [2.0, 0.0]])


def _normal_from_logits(tf):
    def make(logits):
        return tf.distributions.Normal(loc=logits[..., 0],
                                       scale=tf.nn.softplus(logits[..., 1]) + 0.1)
    return make


def case_distribution_regression_head(tf):
    ds = _ds(tf)
    head = ds.estimator_head_distribution_regression(_normal_from_logits(tf),
                                                     logits_dimension=2)
    features = {"x": tf.zeros([4, 1])}
    labels = tf.constant([[0.4], [1.5], [0.], [1.8]])
    ops = head.create_model_fn_ops(features, tf.contrib.learn.ModeKeys.EVAL, labels=labels,
                                   logits=_head_logits(tf))
    value, update = ops.eval_metric_ops["loss"]

    def run(sess):
        sess.run(tf.local_variables_initializer())
        sess.run(update)
        return {"loss": sess.run(ops.loss), "loss_name": ops.loss.op.name,
                "metric": sess.run(value), "metric_keys": sorted(ops.eval_metric_ops),
                "predictions": sess.run(ops.predictions),
                "prediction_keys": sorted(ops.predictions),
                "logits_dimension": head.logits_dimension}
    return run


def case_distribution_regression_head_weight_column_raises(tf):
    """TF 1.15 reshapes a weight column to [batch, 1], which cannot broadcast to the
    [batch] losses: a ValueError, kept."""
    ds = _ds(tf)
    head = ds.estimator_head_distribution_regression(
        _normal_from_logits(tf), logits_dimension=2, weight_column_name="w",
        head_name="dist")
    features = {"w": tf.constant([[1.], [2.], [0.5], [1.]])}
    labels = tf.constant([[0.4], [1.5], [0.], [1.8]])
    ops = head.create_model_fn_ops(features, tf.contrib.learn.ModeKeys.EVAL, labels=labels,
                                   logits=_head_logits(tf))
    value, update = ops.eval_metric_ops["loss/dist"]

    def run(sess):
        sess.run(tf.local_variables_initializer())
        sess.run(update)
        return {"loss": sess.run(ops.loss), "loss_name": ops.loss.op.name,
                "metric": sess.run(value), "metric_keys": sorted(ops.eval_metric_ops),
                "summaries": [s.op.name for s in tf.get_collection("summaries")]}
    return run


def case_distribution_regression_head_trains(tf):
    ds = _ds(tf)
    head = ds.estimator_head_distribution_regression(_normal_from_logits(tf),
                                                     logits_dimension=2)
    features = {"x": tf.constant([[1., 0.], [0., 1.], [1., 1.], [0.5, -1.]])}
    labels = tf.constant([[0.4], [1.5], [0.], [1.8]])
    ops = head.create_model_fn_ops(
        features, tf.contrib.learn.ModeKeys.TRAIN, labels=labels,
        train_op_fn=lambda loss: tf.train.GradientDescentOptimizer(0.1).minimize(
            loss, global_step=tf.train.get_or_create_global_step()),
        logits_input=features["x"])

    def run(sess):
        before = sess.run(ops.loss)
        for _ in range(20):
            sess.run(ops.train_op)
        return {"decreased": bool(sess.run(ops.loss) < before),
                "prediction_shape": list(sess.run(ops.predictions["scores"]).shape)}
    return run


def case_distribution_regression_head_centered_bias(tf):
    ds = _ds(tf)
    head = ds.estimator_head_distribution_regression(_normal_from_logits(tf),
                                                     logits_dimension=2,
                                                     enable_centered_bias=True)
    features = {"x": tf.constant([[1., 0.], [0., 1.], [1., 1.], [0.5, -1.]])}
    labels = tf.constant([[0.4], [1.5], [0.], [1.8]])
    # the model's own step does nothing: TF 1.15 left the order of its read of the bias and
    # the bias's Adagrad update to the executor
    ops = head.create_model_fn_ops(features, tf.contrib.learn.ModeKeys.TRAIN, labels=labels,
                                   train_op_fn=lambda loss: tf.no_op(),
                                   logits=_head_logits(tf))
    bias = [v for v in tf.global_variables() if v.op.name.endswith("centered_bias_weight")]

    def run(sess):
        before = sess.run(ops.loss)
        for _ in range(5):
            sess.run(ops.train_op)
        return {"before": before, "after": sess.run(ops.loss), "bias": sess.run(bias[0])}
    return run


def case_distribution_regression_head_needs_callable(tf):
    _ds(tf).estimator_head_distribution_regression("not callable")
    return {}
