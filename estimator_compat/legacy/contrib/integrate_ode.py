"""ODE solvers of `tf.contrib.integrate`, as TF 1.15 ran them: graph-mode while loops.

`odeint` is the adaptive Dormand-Prince 5(4) method with Shampine's dense output (a quartic
through y0, y1, the step's midpoint and both slopes); a step is accepted when the RMS of
error / (atol + rtol * max|y|) is <= 1, and the next step is last / clip(ratio^(1/5) / safety,
1/ifactor, 1/dfactor) either way. `odeint_fixed` steps each interval of `t` a whole number of
equal steps (midpoint or classic RK4).
"""
import tensorflow as tf

_v1 = tf.compat.v1

# Dormand-Prince 5(4): nodes, stage weights (the last row gives y1, whose slope is the 7th
# stage), the 4th-minus-5th-order error weights and Shampine's midpoint weights, halved.
_NODES = (1 / 5, 3 / 10, 4 / 5, 8 / 9, 1., 1.)
_STAGES = ((1 / 5,),
           (3 / 40, 9 / 40),
           (44 / 45, -56 / 15, 32 / 9),
           (19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729),
           (9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656),
           (35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84))
_ERROR = (1951 / 21600 - 35 / 384, 0, 22642 / 50085 - 500 / 1113, 451 / 720 - 125 / 192,
          -12231 / 42400 + 2187 / 6784, 649 / 6300 - 11 / 84, 1 / 60)
_MID = tuple(w / 2 for w in (6025192743 / 30085553152, 0, 51252292925 / 65400821598,
                             -2691868925 / 45128329728, 187940372067 / 1594534317056,
                             -1776094331 / 19743644256, 11237099 / 235043384))


def _weighted(scale, weights, ks):
    """scale * sum(w * k) over the nonzero weights."""
    return tf.add_n([(scale * w) * k for w, k in zip(weights, ks) if w != 0])


def _dopri_step(func, y0, f0, t0, dt):
    """One Dormand-Prince step: (y1, slopes k0..k6, error estimate)."""
    h = tf.cast(dt, y0.dtype)
    ks = [f0]
    for node, row in zip(_NODES, _STAGES):
        y = y0 + _weighted(h, row, ks)
        ks.append(func(y, t0 + node * dt))
    return y, ks, _weighted(h, _ERROR, ks)  # the last stage point is y1


def _quartic(y0, y1, ks, dt):
    """Coefficients [a, b, c, d, e] of a x^4 + ... + e on x in [0, 1] through the step."""
    h = tf.cast(dt, y0.dtype)
    ym = y0 + _weighted(h, _MID, ks)
    f0, f1 = ks[0], ks[-1]

    def comb(wf0, wf1, w0, w1, wm):
        return tf.add_n([wf0 * f0, wf1 * f1, w0 * y0, w1 * y1, wm * ym])
    return [comb(-2 * h, 2 * h, -8, -8, 16), comb(5 * h, -3 * h, 18, 14, -32),
            comb(-4 * h, h, -11, -5, 16), h * f0, y0]


def _evaluate(coeffs, t0, t1, t):
    check = _v1.Assert((t0 <= t) & (t <= t1),
                       ["invalid interpolation, fails `t0 <= t <= t1`:", t0, t, t1])
    with tf.control_dependencies([check]):
        x = tf.cast((t - t0) / (t1 - t0), coeffs[0].dtype)
    value = coeffs[0]
    for c in coeffs[1:]:
        value = value * x + c
    return value


def _squared_magnitude(x):
    if x.dtype.is_complex:
        return tf.square(tf.math.real(x)) + tf.square(tf.math.imag(x))
    return tf.square(x)


def _check_types(y0, t, dt=None):
    if not (y0.dtype.is_floating or y0.dtype.is_complex):
        raise TypeError("`y0` must have a floating point or complex floating point dtype")
    if not t.dtype.is_floating:
        raise TypeError("`t` must have a floating point dtype")
    if dt is not None and not dt.dtype.is_floating:
        raise TypeError("`dt` must have a floating point dtype")


def _increasing(t):
    return tf.control_dependencies([_v1.Assert(tf.reduce_all(t[1:] > t[:-1]),
                                               ["`t` must be monotonic increasing"])])


def _dopri5(func, y0, t, rtol, atol, full_output=False, first_step=None, safety=0.9,
            ifactor=10.0, dfactor=0.2, max_num_steps=1000, name=None):
    with tf.name_scope(name) as scope:
        first_step = tf.convert_to_tensor(1.0 if first_step is None else first_step,
                                          dtype=t.dtype, name="first_step")
        safety = tf.convert_to_tensor(safety, dtype=t.dtype, name="safety")
        ifactor = tf.convert_to_tensor(ifactor, dtype=t.dtype, name="ifactor")
        dfactor = tf.convert_to_tensor(dfactor, dtype=t.dtype, name="dfactor")
        max_num_steps = tf.convert_to_tensor(max_num_steps, dtype=tf.int32,
                                             name="max_num_steps")

        def step(state, points, ratios, n):
            """One try: state = (y, f, t_start, t_end, dt_next, coeffs)."""
            y0, f0, _, t0, dt, coeffs = state
            checks = [_v1.Assert(t0 + dt > t0, ["underflow in dt", dt]),
                      _v1.Assert(n < max_num_steps, ["max_num_steps exceeded"]),
                      _v1.Assert(tf.reduce_all(tf.math.is_finite(abs(y0))),
                                 ["non-finite values in state `y`", y0])]
            with tf.control_dependencies(checks):
                y1, ks, error = _dopri_step(func, y0, f0, t0, dt)
            tolerance = atol + rtol * tf.maximum(abs(y0), abs(y1))
            ratio = tf.sqrt(tf.reduce_mean(_squared_magnitude(error) /
                                           _squared_magnitude(tolerance)))
            accept = ratio <= 1
            new_coeffs = _v1.cond(accept, lambda: _quartic(y0, y1, ks, dt), lambda: coeffs)
            factor = tf.maximum(1 / ifactor, tf.minimum(
                tf.cast(ratio, dt.dtype) ** tf.cast(1 / 5, dt.dtype) / safety, 1 / dfactor))
            state = (_v1.where(accept, y1, y0), _v1.where(accept, ks[-1], f0), t0,
                     _v1.where(accept, t0 + dt, t0), dt / factor, new_coeffs)
            return (state, points.write(points.size(), t0 + dt),
                    ratios.write(ratios.size(), ratio), n + 1)

        def next_time(solution, state, points, ratios, i):
            state, points, ratios, _ = _v1.while_loop(
                lambda state, *_: t[i] > state[3], step, (state, points, ratios, 0),
                name="integrate_loop")
            y = _evaluate(state[5], state[2], state[3], t[i])
            return solution.write(i, y), state, points, ratios, i + 1

        with _increasing(t):
            num_times = tf.size(t)
        solution = tf.TensorArray(y0.dtype, size=num_times).write(0, y0)
        points = tf.TensorArray(t.dtype, size=0, dynamic_size=True)
        ratios = tf.TensorArray(rtol.dtype, size=0, dynamic_size=True)
        state = (y0, func(y0, t[0]), t[0], t[0], first_step, [y0] * 5)
        solution, _, points, ratios, _ = _v1.while_loop(
            lambda *loop: loop[-1] < num_times, next_time,
            (solution, state, points, ratios, 1), name="interpolate_loop")
        y = solution.stack(name=scope)
        y.set_shape(t.shape.concatenate(y0.shape))
        if not full_output:
            return y
        points = points.stack()
        return y, {"num_func_evals": 6 * tf.size(points) + 1, "integrate_points": points,
                   "error_ratio": ratios.stack()}


def odeint(func, y0, t, rtol=1e-6, atol=1e-12, method=None, options=None, full_output=False,
           name=None):
    """y at each time in `t` of dy/dt = func(y, t), y(t[0]) = y0 (adaptive 'dopri5');
    with `full_output`, also {num_func_evals, integrate_points, error_ratio}."""
    if method is not None and method != "dopri5":
        raise ValueError("invalid method: %r" % method)
    if options is None:
        options = {}
    elif method is None:
        raise ValueError("cannot supply `options` without specifying `method`")
    with _v1.name_scope(name, "odeint", [y0, t, rtol, atol]) as scope:
        y0 = tf.convert_to_tensor(y0, name="y0")
        t = _v1.convert_to_tensor(t, preferred_dtype=tf.float64, name="t")
        _check_types(y0, t)
        error_dtype = abs(y0).dtype
        rtol = tf.convert_to_tensor(rtol, dtype=error_dtype, name="rtol")
        atol = tf.convert_to_tensor(atol, dtype=error_dtype, name="atol")
        return _dopri5(func, y0, t, rtol, atol, full_output=full_output, name=scope,
                       **options)


def _midpoint(func, t, dt, y):
    h = tf.cast(dt, y.dtype)
    return h * func(y + func(y, t) * h / 2, t + dt / 2)


def _rk4(func, t, dt, y):
    h = tf.cast(dt, y.dtype)
    k1 = func(y, t)
    k2 = func(y + h * k1 / 2, t + dt / 2)
    k3 = func(y + h * k2 / 2, t + dt / 2)
    k4 = func(y + h * k3, t + dt)
    return tf.add_n([k1, 2 * k2, 2 * k3, k4]) * (h / 6)


_FIXED = {"midpoint": _midpoint, "rk4": _rk4}


def _fixed_grid(step, func, y0, t, dt, steps):
    def advance(y, time, j, interval):
        h = dt[interval - 1]
        return y + tf.cast(step(func, time, h, y), y.dtype), time + h, j + 1, interval

    def interval(solution, y, time, i):
        y, time, _, _ = _v1.while_loop(lambda _, __, j, i: j < steps[i - 1], advance,
                                       (y, time, 0, i))
        return solution.write(i, y), y, time, i + 1

    num_times = tf.size(t)
    solution = tf.TensorArray(y0.dtype, num_times).write(0, y0)
    solution, _, _, _ = _v1.while_loop(lambda *loop: loop[-1] < num_times, interval,
                                       (solution, y0, t[0], 1))
    y = solution.stack()
    y.set_shape(t.shape.concatenate(y0.shape))
    return y


def odeint_fixed(func, y0, t, dt=None, method="rk4", name=None):
    """y at each time in `t`, stepping each interval ceil(interval / dt) equal steps of
    'midpoint' or 'rk4' (dt: None for one step per interval, a scalar or one per interval)."""
    with _v1.name_scope(name, "odeint_fixed", [y0, t, dt]):
        t = _v1.convert_to_tensor(t, preferred_dtype=tf.float64, name="t")
        y0 = tf.convert_to_tensor(y0, name="y0")
        intervals = t[1:] - t[:-1]
        dt = _v1.convert_to_tensor(intervals if dt is None else dt,
                                   preferred_dtype=tf.float64, name="dt")
        steps = tf.math.ceil(intervals / dt)
        dt = intervals / steps
        steps = tf.cast(steps, tf.int32)
        _check_types(y0, t, dt)
        if len(t.shape) > 1 or len(dt.shape) > 1:
            raise ValueError("t must be a 1D tensor")
        if None not in (t.shape[0], dt.shape[0]) and t.shape[0] != dt.shape[0] + 1:
            raise ValueError("t and dt have incompatible lengths, must be N and N-1")
        with _increasing(t), tf.name_scope(method):
            if method not in _FIXED:
                raise ValueError("method not supported: {!s}".format(method))
            return _fixed_grid(_FIXED[method], func, y0, t, dt, steps)
