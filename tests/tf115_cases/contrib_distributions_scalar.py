"""tf.contrib.distributions cases (TF 1.15 style, Python 3.7): the scalar, discrete and meta
distributions and the functions. Values of each statistic on fixed inputs, shapes, parameter
names, name scopes, KL divergences, the errors of validate_args / allow_nan_stats, sample shapes
and sample means within a band, and the moving-statistics variables, as TF 1.15.5 gave them."""
import numpy as np

F = np.float32
X2 = np.array([[0.5, 2.0, -1.0], [3.0, 0.1, 1.5]], F)  # two samples of a [3] batch
COUNTS = np.array([[0., 1., 2.], [3., 5., 0.]], F)
SCALAR_STATS = ("mean", "mode", "stddev", "variance", "entropy")
POINT_STATS = ("log_prob", "prob", "cdf", "log_cdf", "survival_function",
               "log_survival_function")


def _static(shape):
    return "unknown" if shape.ndims is None else shape.as_list()


def _describe(d, x=None, stats=SCALAR_STATS, points=POINT_STATS, prefix=""):
    """{prefix + what: fetch} of `d`: the statistics, its functions of x, shapes, names."""
    out = {}
    for s in stats:
        out[prefix + s] = getattr(d, s)()
    if x is not None:
        for p in points:
            out[prefix + p] = getattr(d, p)(x)
    out[prefix + "batch_shape"] = _static(d.batch_shape)
    out[prefix + "event_shape"] = _static(d.event_shape)
    out[prefix + "batch_shape_tensor"] = d.batch_shape_tensor()
    out[prefix + "event_shape_tensor"] = d.event_shape_tensor()
    out[prefix + "parameters"] = sorted(d.parameters)
    out[prefix + "name"] = d.name
    out[prefix + "dtype"] = d.dtype.name
    out[prefix + "reparameterization"] = str(d.reparameterization_type).split(": ")[-1]
    return out


def _errors(sess, builds):
    """{name: "ok", or the type of the error building or running it}, for each function
    building a fetch. (TF 2.21's asserts see through more constant graphs than TF 1.15's, so
    some of these fail when built here, at run time there: the type is what is compared.)
    All are built before any runs: one graph for the session."""
    out, fetches = {}, {}
    for key, build in sorted(builds.items()):
        try:
            fetches[key] = build()
        except Exception as error:  # noqa: BLE001 - the error type is the record
            out[key] = type(error).__name__
    for key, fetch in sorted(fetches.items()):
        try:
            sess.run(fetch)
            out[key] = "ok"
        except Exception as error:  # noqa: BLE001 - the error type is the record
            out[key] = type(error).__name__
    return out


def case_location_scale(tf):
    ds = tf.contrib.distributions
    loc, scale = np.array([0., 1., -0.5], F), np.array([1., 2., 0.5], F)
    cauchy = ds.Cauchy(loc=loc, scale=scale)
    logistic = ds.Logistic(loc=loc, scale=scale)
    half = ds.HalfNormal(scale=scale)
    out = {}
    out.update(_describe(cauchy, X2, prefix="cauchy_"))
    out.update(_describe(logistic, X2, prefix="logistic_"))
    out.update(_describe(half, np.abs(X2), prefix="half_",
                         points=("log_prob", "prob", "cdf", "log_cdf", "survival_function")))
    out["half_negative_prob"] = half.prob(np.array([-1., 0., 1.], F))
    out["cauchy_quantile"] = cauchy.quantile(np.array([0.1, 0.5, 0.9], F))
    out["half_quantile"] = half.quantile(np.array([0.1, 0.5, 0.9], F))
    out["cauchy_loc_name"] = cauchy.loc.name
    out["cauchy_log_prob_scope"] = cauchy.log_prob(X2).op.name.startswith("Cauchy/log_prob/")
    shapes = ds.Cauchy.param_shapes([4, 2])
    out["param_shapes"] = [shapes["loc"], shapes["scale"]]
    out["broadcast_batch"] = ds.Logistic(loc=np.zeros([2, 1], F), scale=scale).batch_shape.as_list()
    return out


def case_gamma_family(tf):
    ds = tf.contrib.distributions
    conc, rate = np.array([0.5, 1.5, 3.0], F), np.array([1., 2., 0.5], F)
    inv = ds.InverseGamma(concentration=conc, rate=rate)
    inv_soft = ds.InverseGammaWithSoftplusConcentrationRate(concentration=-conc, rate=rate)
    chi2 = ds.Chi2(df=np.array([1., 2.5, 6.], F))
    chi2_abs = ds.Chi2WithAbsDf(df=np.array([-1.7, 2.5, 6.2], F))
    out = {}
    x = np.abs(X2) + 0.2
    out.update(_describe(inv, x, prefix="inv_",
                         points=("log_prob", "prob", "cdf", "log_cdf", "survival_function")))
    out.update(_describe(inv_soft, x, prefix="inv_soft_", points=("log_prob", "cdf")))
    out.update(_describe(chi2, x, prefix="chi2_", points=("log_prob", "cdf")))
    out.update(_describe(chi2_abs, x, prefix="chi2_abs_", points=("log_prob",)))
    out["chi2_df"] = chi2_abs.df
    out["chi2_concentration"] = chi2.concentration
    out["inv_soft_concentration"] = inv_soft.concentration
    return out


def case_counts(tf):
    ds = tf.contrib.distributions
    out = {}
    stats = ("mean", "mode", "stddev", "variance")
    poisson = ds.Poisson(rate=np.array([0.5, 2., 7.5], F))
    out.update(_describe(poisson, COUNTS, stats, ("log_prob", "prob", "cdf", "log_cdf"),
                         prefix="poisson_"))
    out["poisson_fraction"] = poisson.log_prob(np.array([0.5, 1.5, 2.5], F))
    out["poisson_fraction_cdf"] = poisson.cdf(np.array([0.5, 1.5, 2.5], F))
    poisson_log = ds.Poisson(log_rate=np.array([-1., 0.5, 2.], F))
    out.update(_describe(poisson_log, COUNTS, ("mean",), ("log_prob",), prefix="poisson_log_"))
    geometric = ds.Geometric(probs=np.array([0.2, 0.5, 0.9], F))
    out.update(_describe(geometric, COUNTS, stats + ("entropy",), ("log_prob", "prob", "cdf"),
                         prefix="geometric_"))
    out["geometric_fraction"] = geometric.log_prob(np.array([0.5, 1.5, -1.], F))
    out["geometric_fraction_cdf"] = geometric.cdf(np.array([0.5, 1.5, -1.], F))
    geometric_logits = ds.Geometric(logits=np.array([-1., 0., 2.], F))
    out.update(_describe(geometric_logits, COUNTS, ("mean", "entropy"), ("log_prob",),
                         prefix="geometric_logits_"))
    binomial = ds.Binomial(total_count=np.array([5., 5., 10.], F),
                           probs=np.array([0.3, 0.5, 0.9], F))
    out.update(_describe(binomial, COUNTS, stats, ("log_prob", "prob", "cdf"),
                         prefix="binomial_"))
    out["binomial_cdf_at_n"] = binomial.cdf(np.array([5., 5., 10.], F))
    out["binomial_logits"] = ds.Binomial(total_count=4., logits=np.array([0., 1.], F)).prob(
        np.array([[1.], [4.]], F))
    negbin = ds.NegativeBinomial(total_count=np.array([0.5, 3., 10.], F),
                                 probs=np.array([0.3, 0.5, 0.8], F))
    out.update(_describe(negbin, COUNTS, stats, ("log_prob", "prob"), prefix="negbin_"))
    out["negbin_cdf"] = negbin.cdf(COUNTS[1])
    return out


def case_deterministic(tf):
    ds = tf.contrib.distributions
    det = ds.Deterministic(loc=np.array([0., 1., 2.], F), atol=0.1)
    det_r = ds.Deterministic(loc=np.array([10., 100.], F), rtol=0.05)
    vec = ds.VectorDeterministic(loc=np.array([[0., 1.], [2., 3.]], F))
    out = {}
    out.update(_describe(det, np.array([[0.05, 1.2, 2.], [-0.1, 0.95, 1.]], F),
                         ("mean", "mode", "variance", "stddev", "entropy"),
                         ("prob", "log_prob", "cdf"), prefix="det_"))
    out["det_r_prob"] = det_r.prob(np.array([[10.4, 104.], [10.6, 106.]], F))
    out.update(_describe(vec, np.array([[0., 1.], [2., 3.1]], F),
                         ("mean", "mode", "variance", "entropy"), ("prob", "log_prob"),
                         prefix="vec_"))
    out["det_sample"] = det.sample(2)
    out["vec_sample"] = vec.sample([2, 1])
    return out


def case_onehot_and_relaxed(tf):
    ds = tf.contrib.distributions
    logits = np.array([[0.5, -1., 2.], [0., 0., 1.]], F)
    onehot = ds.OneHotCategorical(logits=logits)
    other = ds.OneHotCategorical(probs=np.array([[0.2, 0.3, 0.5], [0.6, 0.2, 0.2]], F))
    x = np.array([[0, 0, 1], [1, 0, 0]], np.int32)
    out = _describe(onehot, x, ("mode", "entropy", "variance", "covariance", "stddev"),
                    ("log_prob", "prob"), prefix="onehot_")
    out["onehot_probs"] = onehot.probs
    out["onehot_event_size"] = onehot.event_size
    out["onehot_broadcast"] = onehot.log_prob(np.array([[[0, 1, 0]], [[1, 0, 0]]], np.int32))
    out["kl_onehot"] = ds.kl_divergence(onehot, other)
    out["kl_onehot_v1"] = tf.distributions.kl_divergence(onehot, other)
    relaxed = ds.ExpRelaxedOneHotCategorical(temperature=np.array([0.5, 2.], F), logits=logits)
    point = np.log(np.array([[0.2, 0.3, 0.5], [0.7, 0.1, 0.2]], F))
    out.update(_describe(relaxed, point, (), ("log_prob", "prob"), prefix="relaxed_"))
    out["relaxed_temperature"] = relaxed.temperature
    out["float_onehot_dtype"] = ds.OneHotCategorical(logits=logits, dtype=tf.float32).mode()
    return out


def case_independent_and_batch_reshape(tf):
    ds = tf.contrib.distributions
    loc = np.arange(6, dtype=F).reshape(2, 3) * 0.5
    scale = np.linspace(0.5, 2., 6).astype(F).reshape(2, 3)
    base = ds.Normal(loc=loc, scale=scale)
    ind = ds.Independent(base)
    ind0 = ds.Independent(base, reinterpreted_batch_ndims=2, name="all_event")
    x = np.linspace(-1, 2, 12).astype(F).reshape(2, 2, 3)
    out = _describe(ind, x, ("mean", "mode", "stddev", "variance", "entropy"),
                    ("log_prob", "prob"), prefix="ind_")
    out.update(_describe(ind0, x, ("entropy",), ("log_prob",), prefix="ind0_"))
    out["ind_ndims"] = int(ind.reinterpreted_batch_ndims)
    other = ds.Independent(ds.Normal(loc=loc + 1., scale=scale * 2.))
    out["kl_independent"] = ds.kl_divergence(ind, other)
    reshaped = ds.BatchReshape(base, [3, 2])
    y = np.linspace(-1, 2, 12).astype(F).reshape(2, 3, 2)
    out.update(_describe(reshaped, y, ("mean", "mode", "stddev", "variance", "entropy"),
                         ("log_prob", "prob", "cdf", "log_cdf", "survival_function",
                          "log_survival_function"), prefix="reshape_"))
    implicit = ds.BatchReshape(base, [-1], validate_args=True)
    out.update(_describe(implicit, np.zeros([6], F), ("mean",), ("log_prob",),
                         prefix="implicit_"))
    out["reshape_sample_shape"] = tf.shape(reshaped.sample(4, seed=3))
    partial = ds.BatchReshape(base, tf.stack([3, tf.placeholder_with_default(-1, [])]),
                              validate_args=True)
    out.update(_describe(partial, y, ("mean", "variance"), ("log_prob",), prefix="partial_"))
    return out


def case_mixtures(tf):
    ds = tf.contrib.distributions
    cat = ds.Categorical(logits=np.array([[0.2, 0.8], [1.5, -0.5], [0., 0.]], F))
    comps = [ds.Normal(loc=np.array([-1., 0., 2.], F), scale=np.array([0.5, 1., 2.], F)),
             ds.Logistic(loc=np.array([1., 3., -2.], F), scale=np.array([1., 0.3, 0.7], F))]
    mix = ds.Mixture(cat=cat, components=comps)
    out = _describe(mix, X2, ("mean", "stddev", "variance"), ("log_prob", "prob", "log_cdf",
                                                              "cdf"), prefix="mix_")
    out["mix_entropy_lower_bound"] = mix.entropy_lower_bound()
    out["mix_num_components"] = mix.num_components
    msf = ds.MixtureSameFamily(
        mixture_distribution=ds.Categorical(probs=np.array([[0.3, 0.7], [0.5, 0.5]], F)),
        components_distribution=ds.Normal(loc=np.array([[-1., 1.], [0., 4.]], F),
                                          scale=np.array([[1., 0.5], [2., 1.]], F)))
    y = np.array([[0.5, 2.], [-1., 3.], [0., 0.]], F)
    out.update(_describe(msf, y, ("mean", "variance", "stddev"), ("log_prob", "prob",
                                                                  "log_cdf", "cdf"),
                         prefix="msf_"))
    vector = ds.MixtureSameFamily(
        mixture_distribution=ds.Categorical(logits=np.array([0.1, -0.4, 0.3], F)),
        components_distribution=ds.Independent(ds.Normal(
            loc=np.arange(6, dtype=F).reshape(3, 2), scale=np.ones([3, 2], F))))
    out.update(_describe(vector, np.array([[0.5, 1.], [2., 2.]], F), ("mean", "variance"),
                         ("log_prob",), prefix="vector_"))
    out["vector_sample"] = tf.shape(vector.sample([4, 5], seed=1))
    out["mix_sample"] = tf.shape(mix.sample(7, seed=2))
    static = ds.Mixture(cat=cat, components=comps, use_static_graph=True)
    out["static_sample"] = tf.shape(static.sample(7, seed=2))
    return out


def case_quantized(tf):
    ds = tf.contrib.distributions
    base = ds.Normal(loc=np.array([0., 2., -1.], F), scale=np.array([1., 3., 0.5], F))
    q = ds.QuantizedDistribution(distribution=base, low=-2., high=4.)
    q_open = ds.QuantizedDistribution(distribution=base)
    y = np.array([[-3., 0., 1.], [4., 2., -1.], [5., -2., 0.]], F)
    out = _describe(q, y, (), POINT_STATS, prefix="q_")
    out.update(_describe(q_open, y, (), ("log_prob", "prob", "cdf", "survival_function"),
                         prefix="open_"))
    out["q_low"] = q.low
    out["q_high"] = q.high
    logistic = ds.QuantizedDistribution(ds.Logistic(loc=0., scale=np.array([1., 2.], F)))
    out["logistic_prob"] = logistic.prob(np.array([[0.], [3.]], F))
    return out


def case_dynamic_shapes(tf):
    """The paths taken when shapes are known only when run (placeholders of unknown shape),
    and float64."""
    ds = tf.contrib.distributions

    def unknown(value):
        return tf.placeholder_with_default(value, None)
    loc = np.arange(6, dtype=np.float64).reshape(2, 3) * 0.3
    base = ds.Normal(loc=unknown(loc), scale=unknown(np.ones([2, 3]) * 0.7))
    x = np.linspace(-1, 1, 12).reshape(2, 2, 3)
    out = {}
    ind = ds.Independent(base, validate_args=True)
    out.update(_describe(ind, x, ("mean", "entropy"), ("log_prob",), prefix="ind_"))
    ind1 = ds.Independent(base, reinterpreted_batch_ndims=unknown(1), validate_args=True)
    out.update(_describe(ind1, x, ("entropy",), ("log_prob",), prefix="ind1_"))
    msf = ds.MixtureSameFamily(ds.Categorical(logits=unknown(np.array([[0.1, 0.2, -0.3],
                                                                       [1., 0., 0.]]))),
                               base)  # validate_args=True: AttributeError in TF 1.15
    out.update(_describe(msf, unknown(np.array([[0.5, 1.], [0., 0.]])), ("mean", "variance"),
                         ("log_prob", "cdf"), prefix="msf_"))
    out["msf_sample"] = tf.shape(msf.sample(3, seed=1))
    onehot = ds.OneHotCategorical(logits=unknown(np.array([[0., 1., 2.], [1., 1., 0.]], F)))
    out.update(_describe(onehot, unknown(np.array([[0, 0, 1], [0, 1, 0]], np.int32)),
                         ("mode", "entropy"), ("log_prob",), prefix="onehot_"))
    out["onehot_sample"] = tf.shape(onehot.sample([2, 3], seed=1))
    det = ds.Deterministic(unknown(np.array([[1., 2.]], F)))
    out["det_sample"] = det.sample(unknown(np.array([2, 1], np.int32)))
    vec = ds.VectorDeterministic(unknown(np.array([[1., 2.]], F)), validate_args=True)
    out["vec_prob"] = vec.prob(unknown(np.array([[1., 2.]], F)))
    series = unknown(np.sin(np.arange(10) * 0.9).astype(F).reshape(2, 5))
    out["acf"] = ds.auto_correlation(series, axis=-1, max_lags=unknown(np.int32(3)))
    grid = tf.placeholder_with_default(np.cos(np.arange(12.)).astype(F).reshape(3, 4), [None, 4])
    out["pct"] = ds.percentile(grid, 40., axis=1, keep_dims=True)
    out["pct_all"] = ds.percentile(unknown(np.arange(7, dtype=F)), 60., interpolation="higher")
    mix = ds.Mixture(ds.Categorical(logits=tf.placeholder_with_default(
        np.array([0.3, -0.2]), [2])),
                     [ds.Normal(unknown(np.float64(0.)), np.float64(1.)),
                      ds.Laplace(np.float64(1.), np.float64(2.))])
    out.update(_describe(mix, unknown(np.array([0.5, -1.])), ("mean", "stddev"),
                         ("log_prob",), prefix="mix_"))
    out["mix_sample"] = tf.shape(mix.sample(5, seed=2))
    q = ds.QuantizedDistribution(ds.Laplace(unknown(np.array([0., 1.])), np.float64(1.)),
                                 low=np.float64(-1.), high=np.float64(2.))
    out.update(_describe(q, unknown(np.array([[-2., 0.], [1., 3.]])), (),
                         ("log_prob", "cdf", "survival_function"), prefix="q_"))
    return out


def case_gradients(tf):
    """Gradients of log_prob / cdf / entropy / KL with respect to variable parameters."""
    ds = tf.contrib.distributions
    with tf.variable_scope("params"):
        loc = tf.get_variable("loc", initializer=np.array([0.2, -0.4], F))
        scale = tf.get_variable("scale", initializer=np.array([1.3, 0.6], F))
        logits = tf.get_variable("logits", initializer=np.array([[0.1, 0.7, -0.2]], F))
    x = np.array([0.5, 1.5], F)
    k = np.array([1., 3.], F)
    terms = {
        "cauchy": ds.Cauchy(loc, scale).log_prob(x) + ds.Cauchy(loc, scale).cdf(x),
        "logistic": ds.Logistic(loc, scale).log_prob(x) + ds.Logistic(loc, scale).entropy(),
        "half": ds.HalfNormal(scale).log_prob(x) + ds.HalfNormal(scale).cdf(x),
        "inverse_gamma": ds.InverseGamma(scale + 1., scale).log_prob(x),
        "poisson": ds.Poisson(log_rate=loc).log_prob(k),
        "geometric": ds.Geometric(logits=loc).log_prob(k),
        "binomial": ds.Binomial(4., logits=loc).log_prob(k),
        "negbin": ds.NegativeBinomial(scale, logits=loc).log_prob(k),
        "onehot": ds.OneHotCategorical(logits=logits).log_prob(np.array([0, 1, 0], np.int32))
        + ds.kl_divergence(ds.OneHotCategorical(logits=logits),
                           ds.OneHotCategorical(logits=tf.zeros([1, 3]))),
        "relaxed": ds.ExpRelaxedOneHotCategorical(0.7, logits=logits).log_prob(
            np.log(np.array([0.1, 0.6, 0.3], F))),
        "msf": ds.MixtureSameFamily(ds.Categorical(logits=logits[0, :2]),
                                    ds.Normal(loc, scale)).log_prob(x),
        "independent": ds.Independent(ds.Normal(loc, scale)).log_prob(x),
        "quantized": ds.QuantizedDistribution(ds.Normal(loc, scale)).log_prob(k),
        "mixture": ds.Mixture(ds.Categorical(logits=logits[0, :2]),
                              [ds.Normal(loc[0], scale[0]), ds.Cauchy(loc[1], scale[1])])
        .log_prob(x),
    }
    params = {"loc": loc, "scale": scale, "logits": logits}
    out = {}
    for key, value in terms.items():
        grads = tf.gradients(tf.reduce_sum(value), list(params.values()))
        for name, grad in zip(params, grads):
            if grad is not None:
                out[key + "_" + name] = grad
    return out


def case_kl_registry(tf):
    ds = tf.contrib.distributions
    out = {}
    n1 = ds.Normal(loc=np.array([0., 1.], F), scale=np.array([1., 2.], F))
    n2 = ds.Normal(loc=np.array([1., -1.], F), scale=np.array([0.5, 1.], F))
    out["normal"] = ds.kl_divergence(n1, n2)
    out["gamma"] = ds.kl_divergence(ds.Gamma(2., np.array([1., 3.], F)),
                                    ds.Gamma(1.5, np.array([2., 2.], F)))
    out["chi2_as_gamma"] = ds.kl_divergence(ds.Chi2(np.array([2., 5.], F)),
                                            ds.Chi2(np.array([3., 4.], F)))
    out["exponential"] = ds.kl_divergence(ds.Exponential(np.array([1., 2.], F)),
                                          ds.Exponential(np.array([0.5, 4.], F)))

    class Mine(ds.Normal):
        pass

    @ds.RegisterKL(Mine, Mine)
    def _kl(a, b, name=None):
        return a.loc - b.loc

    out["registered"] = ds.kl_divergence(Mine(3., 1.), Mine(1., 1.))
    out["reparameterized"] = [str(ds.FULLY_REPARAMETERIZED).split(": ")[-1],
                              str(ds.NOT_REPARAMETERIZED).split(": ")[-1],
                              isinstance(ds.FULLY_REPARAMETERIZED, ds.ReparameterizationType)]
    out["classes_kept"] = [ds.Normal is tf.distributions.Normal,
                           issubclass(ds.Cauchy, ds.Distribution),
                           issubclass(ds.Chi2, ds.Gamma)]
    return out


def case_softplus_variants(tf):
    ds = tf.contrib.distributions
    raw = np.array([-1., 0.5, 2.], F)
    x = np.array([0.3, 0.6, 0.9], F)
    return {
        "beta": ds.BetaWithSoftplusConcentration(raw, raw[::-1].copy()).log_prob(x),
        "exponential": ds.ExponentialWithSoftplusRate(raw).log_prob(x),
        "gamma": ds.GammaWithSoftplusConcentrationRate(raw, raw).log_prob(x),
        "laplace": ds.LaplaceWithSoftplusScale(raw, raw).log_prob(x),
        "normal": ds.NormalWithSoftplusScale(raw, raw).log_prob(x),
        "student": ds.StudentTWithAbsDfSoftplusScale(raw, raw, raw).log_prob(x),
        "bernoulli": ds.Bernoulli(logits=raw).log_prob(np.array([0, 1, 1], np.int32)),
        "dirichlet": ds.Dirichlet(np.array([1., 2., 3.], F)).log_prob(
            np.array([0.2, 0.3, 0.5], F)),
        "uniform": ds.Uniform(0., 2.).cdf(x),
    }


def case_functions(tf):
    ds = tf.contrib.distributions
    series = np.sin(np.arange(12) * 0.7).astype(F) + np.arange(12, dtype=F) * 0.1
    grid = (np.cos(np.arange(24) * 1.3) * 3.).astype(F).reshape(2, 3, 4)
    prior = ds.Normal(loc=np.array([0., 1.], F), scale=np.array([2., 0.5], F))
    post = ds.normal_conjugates_known_scale_posterior(prior, scale=1.5,
                                                      s=tf.constant([3., -2.]), n=4)
    pred = ds.normal_conjugates_known_scale_predictive(prior, scale=1.5,
                                                       s=tf.constant([3., -2.]), n=4)
    tri = ds.fill_triangular(np.arange(1, 7, dtype=F))
    stream = ds.SeedStream(42, salt="salty")
    nested = ds.SeedStream(stream, salt="inner")
    return {
        "acf": ds.auto_correlation(series),
        "acf_lags": ds.auto_correlation(grid, axis=1, max_lags=1, center=False),
        "acf_raw": ds.auto_correlation(grid, axis=-1, normalize=False),
        "pct_nearest": ds.percentile(grid, 30.),
        "pct_lower_axis": ds.percentile(grid, 50., axis=[0, 2], interpolation="lower"),
        "pct_higher_keep": ds.percentile(grid, 75., axis=1, interpolation="higher",
                                         keep_dims=True),
        "pct_keep_all": ds.percentile(grid, 10., keep_dims=True),
        "post_loc": post.loc, "post_scale": post.scale,
        "pred_loc": pred.loc, "pred_scale": pred.scale,
        "fill": tri,
        "fill_upper": ds.fill_triangular(np.arange(1, 7, dtype=F), upper=True),
        "fill_inverse": ds.fill_triangular_inverse(tri),
        "softplus_inverse": ds.softplus_inverse(np.array([0.1, 1., 20.], F)),
        "weighted_lse": ds.reduce_weighted_logsumexp(
            np.array([[0., 1., 2.], [1., 1., 1.]], F), w=np.array([[1., -1., 2.], [1., 1., 0.]], F),
            axis=-1),
        "weighted_lse_sign": ds.reduce_weighted_logsumexp(
            np.array([0., 1.], F), w=np.array([1., -2.], F), return_sign=True),
        "tridiag": ds.tridiag(np.array([1., 2.], F), np.array([3., 4., 5.], F),
                              np.array([6., 7.], F)),
        "diag_transform": ds.matrix_diag_transform(
            np.array([[1., 2.], [3., -4.]], F), transform=tf.abs),
        "seeds": [str(stream()), str(stream()), str(nested()), stream.salt,
                  str(nested.original_seed), str(ds.SeedStream(None, "x")())],
    }


def case_moving_stats(tf):
    ds = tf.contrib.distributions
    value = tf.placeholder(tf.float32, [2])
    mean, variance = ds.moving_mean_variance(value, decay=0.9)
    log_var = tf.get_variable("log_mean_exp", initializer=np.array([0., 1.], F),
                              trainable=False)
    log_update = ds.assign_log_moving_mean_exp(log_var, value, decay=0.8)
    with tf.variable_scope("mine"):
        m = tf.get_variable("m", initializer=np.array([1., 1.], F))
        v = tf.get_variable("v", initializer=np.array([0., 0.], F))
    assigned = ds.assign_moving_mean_variance(m, v, value, 0.5)

    def run(sess):
        out = {}
        for i, feed in enumerate([[1., 2.], [3., -1.], [0.5, 0.5]]):
            got = sess.run([mean, variance, log_update, assigned[0], assigned[1]],
                           {value: feed})
            out["step%d" % i] = [np.asarray(g).tolist() for g in got]
        return out
    return run


def case_samples(tf):
    ds = tf.contrib.distributions
    dists = {
        "cauchy_median": (ds.Cauchy(loc=np.array([1., -2.], F), scale=0.5), None),
        "logistic": (ds.Logistic(loc=np.array([1., -2.], F), scale=0.5), 0.1),
        "half_normal": (ds.HalfNormal(scale=np.array([1., 2.], F)), 0.1),
        "inverse_gamma": (ds.InverseGamma(np.array([4., 6.], F), np.array([3., 5.], F)), 0.1),
        "chi2": (ds.Chi2(np.array([2., 5.], F)), 0.2),
        "poisson": (ds.Poisson(rate=np.array([0.5, 7.], F)), 0.2),
        "geometric": (ds.Geometric(probs=np.array([0.3, 0.8], F)), 0.2),
        "negbin": (ds.NegativeBinomial(np.array([2., 5.], F), probs=np.array([0.3, 0.6], F)),
                   0.3),
        "onehot": (ds.OneHotCategorical(logits=np.array([[0., 1., 2.]], F)), 0.05),
        "independent": (ds.Independent(ds.Normal(np.array([[1., 2.]], F), 1.)), 0.1),
        "msf": (ds.MixtureSameFamily(ds.Categorical(probs=np.array([0.3, 0.7], F)),
                                     ds.Normal(np.array([-2., 3.], F), 1.)), 0.15),
        "mixture": (ds.Mixture(ds.Categorical(probs=np.array([0.3, 0.7], F)),
                               [ds.Normal(-2., 1.), ds.Normal(3., 1.)]), 0.15),
        "quantized": (ds.QuantizedDistribution(ds.Normal(np.array([0.3, 2.], F), 1.)), 0.1),
        "batch_reshape": (ds.BatchReshape(ds.Normal(np.arange(4, dtype=F), 1.), [2, 2]), 0.1),
    }
    samples = {k: d.sample(4000, seed=7) for k, (d, _) in dists.items()}
    relaxed = ds.ExpRelaxedOneHotCategorical(0.5, logits=np.array([0., 1., 2.], F))
    relaxed_sample = relaxed.sample([3, 2], seed=1)

    def run(sess):
        got = sess.run(samples)
        out = {}
        for key, (d, band) in dists.items():
            value = got[key]
            out[key + "_shape"] = list(value.shape)
            out[key + "_dtype"] = str(value.dtype)
            if key == "cauchy_median":
                centre = np.median(value, axis=0)
                out[key] = bool(np.all(np.abs(centre - np.array([1., -2.])) < 0.1))
            else:
                if key == "onehot":
                    expected = sess.run(d.probs)
                elif key == "quantized":  # E[ceil(X)] ~ E[X] + 1/2 for a spread-out X
                    expected = np.array([0.8, 2.5])
                else:
                    expected = sess.run(d.mean())
                out[key] = bool(np.all(np.abs(value.mean(axis=0) - expected)
                                       < band * (1 + np.abs(expected))))
        r = sess.run(relaxed_sample)
        out["relaxed_shape"] = list(r.shape)
        out["relaxed_on_log_simplex"] = bool(np.allclose(np.log(np.exp(r).sum(-1)), 0.,
                                                         atol=1e-5))
        return out
    return run


def case_validate_args_errors(tf):
    ds = tf.contrib.distributions
    neg = tf.placeholder_with_default(np.array([-1., 2.], F), [2])
    zeros3 = np.zeros([3], F)
    log_point = np.log(np.array([0.2, 0.3, 0.5], F))
    checked = dict(validate_args=True)
    no_nan = dict(allow_nan_stats=False)
    fetches = {
        "cauchy_scale": lambda: ds.Cauchy(0., neg, **checked).mode(),
        "logistic_scale": lambda: ds.Logistic(0., neg, **checked).mean(),
        "half_scale": lambda: ds.HalfNormal(neg, **checked).mean(),
        "inverse_gamma_rate": lambda: ds.InverseGamma(1., neg, **checked).mode(),
        "inverse_gamma_sample": lambda: ds.InverseGamma(1., 1., **checked).log_prob(neg),
        "chi2_df": lambda: ds.Chi2(neg, **checked).mean(),
        "poisson_rate": lambda: ds.Poisson(rate=neg, **checked).mean(),
        "poisson_fraction": lambda: ds.Poisson(rate=1., **checked).log_prob(
            np.array([0.5], F)),
        "poisson_negative": lambda: ds.Poisson(rate=1., **checked).log_prob(
            np.array([-1.], F)),
        "geometric_probs": lambda: ds.Geometric(probs=neg, **checked).mean(),
        "geometric_entropy": lambda: ds.Geometric(probs=1., **checked).entropy(),
        "binomial_total": lambda: ds.Binomial(2.5, probs=0.5, **checked).mean(),
        "binomial_counts": lambda: ds.Binomial(2., probs=0.5, **checked).prob(3.),
        "binomial_ok": lambda: ds.Binomial(2., probs=0.5, **checked).prob(2.),
        "negbin_total": lambda: ds.NegativeBinomial(neg, probs=0.5, **checked).mean(),
        "deterministic_tol": lambda: ds.Deterministic(0., atol=-1., **checked).prob(0.),
        "vector_space": lambda: ds.VectorDeterministic(np.zeros([2], F), **checked).prob(
            tf.placeholder_with_default(zeros3, [None])),
        # TF 1.15 checked a one-hot sample as a log-simplex point: valid samples fail
        "onehot_sample": lambda: ds.OneHotCategorical(logits=zeros3, **checked).log_prob(
            np.array([0, 1, 0], np.int32)),
        "relaxed_temperature": lambda: ds.ExpRelaxedOneHotCategorical(
            -1., logits=zeros3, **checked).log_prob(log_point),
        "relaxed_ok": lambda: ds.ExpRelaxedOneHotCategorical(
            1., logits=zeros3, **checked).log_prob(log_point),
        "quantized_integer": lambda: ds.QuantizedDistribution(
            ds.Normal(0., 1.), **checked).prob(0.5),
        "quantized_low_high": lambda: ds.QuantizedDistribution(
            ds.Normal(0., 1.), low=2., high=1., **checked).prob(1.),
        "inverse_gamma_nan_mean": lambda: ds.InverseGamma(
            np.array([0.5, 2.], F), 1., **no_nan).mean(),
        "inverse_gamma_nan_variance": lambda: ds.InverseGamma(
            np.array([1.5, 3.], F), 1., **no_nan).variance(),
        "inverse_gamma_defined": lambda: ds.InverseGamma(
            np.array([3.5, 3.], F), 1., **no_nan).variance(),
        "percentile_q": lambda: ds.percentile(
            np.arange(5, dtype=F), tf.placeholder_with_default(120., []), **checked),
        "batch_reshape_size": lambda: ds.BatchReshape(
            ds.Normal(np.zeros([6], F), 1.),
            tf.placeholder_with_default(np.array([4, -1], np.int32), [2]), **checked).mean(),
    }

    def run(sess):
        return _errors(sess, fetches)
    return run


def case_static_errors(tf):
    ds = tf.contrib.distributions
    out = {}
    attempts = {
        "cauchy_mean": lambda: ds.Cauchy(0., 1., allow_nan_stats=False).mean(),
        "cauchy_stddev": lambda: ds.Cauchy(0., 1., allow_nan_stats=False).stddev(),
        "cauchy_int": lambda: ds.Cauchy(0, 1),
        "poisson_both": lambda: ds.Poisson(rate=1., log_rate=0.),
        "poisson_neither": lambda: ds.Poisson(),
        "poisson_int": lambda: ds.Poisson(rate=1),
        "binomial_sample": lambda: ds.Binomial(3., probs=0.5).sample(),
        "mixture_count": lambda: ds.Mixture(ds.Categorical(logits=[0., 0., 0.]),
                                            [ds.Normal(0., 1.), ds.Normal(1., 1.)]),
        "mixture_not_categorical": lambda: ds.Mixture(ds.Normal(0., 1.), [ds.Normal(0., 1.)]),
        "mixture_empty": lambda: ds.Mixture(ds.Categorical(logits=[0.]), []),
        "mixture_dtypes": lambda: ds.Mixture(
            ds.Categorical(logits=[0., 0.]),
            [ds.Normal(0., 1.), ds.Normal(np.float64(0.), np.float64(1.))]),
        "msf_float_mixture": lambda: ds.MixtureSameFamily(ds.Normal(0., 1.),
                                                          ds.Normal([0., 1.], 1.)),
        "msf_components": lambda: ds.MixtureSameFamily(ds.Categorical(logits=[0., 0., 0.]),
                                                       ds.Normal([0., 1.], 1.)),
        "independent_ndims": lambda: ds.Independent(ds.Normal([0., 1.], 1.),
                                                    reinterpreted_batch_ndims=2),
        "batch_reshape_size": lambda: ds.BatchReshape(ds.Normal(np.zeros([6], F), 1.), [4, 2]),
        "batch_reshape_negative": lambda: ds.BatchReshape(ds.Normal(np.zeros([6], F), 1.),
                                                          [-2, -3]),
        "batch_reshape_broadcast": lambda: ds.BatchReshape(
            ds.Normal(np.zeros([6], F), 1.), [2, 3]).log_prob(np.zeros([3], F)),
        "vector_deterministic_scalar": lambda: ds.VectorDeterministic(0., validate_args=True),
        "percentile_interpolation": lambda: ds.percentile([1., 2.], 50., interpolation="linear"),
        "auto_correlation_int": lambda: ds.auto_correlation(tf.constant([1, 2, 3])),
        "moving_int": lambda: ds.moving_mean_variance(tf.constant([1, 2]), 0.9),
        "conjugate_prior": lambda: ds.normal_conjugates_known_scale_posterior(
            ds.Cauchy(0., 1.), 1., tf.constant(1.), 1),
        "conjugate_dtype": lambda: ds.normal_conjugates_known_scale_posterior(
            ds.Normal(0., 1.), 1., tf.constant(1., tf.float64), 1),
    }
    for key, attempt in sorted(attempts.items()):
        try:
            attempt()
            out[key] = "ok"
        except Exception as error:  # noqa: BLE001 - the error type is the record
            out[key] = type(error).__name__
    return out


def case_independent_log_prob_trains(tf):
    """The VAE idiom: an optimizer on `Independent(Bernoulli(logits), 1).log_prob(x)` of
    dense-layer logits (TensorFlow 2.21's Sum gradient in a graph needs int32 axes)."""
    tfd = tf.contrib.distributions
    x = tf.placeholder_with_default(np.array([[1., 0., 1.], [0., 0., 1.]], np.float32),
                                    [None, 3])  # the batch size unknown, as a fed x's
    inputs = tf.placeholder_with_default(np.ones([2, 4], np.float32), [None, 4])
    logits = tf.layers.dense(inputs, 3, kernel_initializer=tf.constant_initializer(0.1))
    log_prob = tfd.Independent(tfd.Bernoulli(logits=logits), 1).log_prob(x)
    loss = -tf.reduce_mean(log_prob)
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    grad = tf.gradients(loss, logits)[0]

    def run(sess):
        losses = [sess.run([loss, train])[0] for _ in range(3)]
        return {"losses": np.array(losses), "grad": sess.run(grad)}
    return run
