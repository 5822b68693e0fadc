"""`tf.contrib.recurrent.Recurrent`: a recurrent loop over time-major inputs, as TF 1.15 ran it.

    state = state0
    for t in [start, limit):                  # [0, max_len), or [T - max_len, T) aligned_end
        state, extras = cell_fn(theta, state, inputs[t])
        acc_state[t] = state                  # other rows stay zero
    return acc_state, state

TF 1.15 built this from `Defun`s around a `For` op; here it is a `tf.while_loop` writing a
TensorArray (padded with zeros to the full length). Without a `cell_grad` its gradient is
TensorFlow's own through the loop, the true gradient: TF 1.15 derived the same from `cell_fn`
except in one case, an end-aligned loop shorter than the inputs, whose first step it
re-differentiated from the zero row before it instead of from state0 (a TF 1.15 bug, not
reproduced). A given `cell_grad(theta, state0, inputs_t, extras_t, dstate1) -> (dtheta,
dstate0, dinputs_t)` is used instead, over the steps in reverse, fed as TF 1.15 fed it.
"""
import tensorflow as tf


def _flat(struct):
    return [tf.convert_to_tensor(x) for x in tf.nest.flatten(struct)]


def _pack(template, flat):
    return tf.nest.pack_sequence_as(template, list(flat))


def _is_single_time_step(inputs, max_input_length):
    """TF 1.15's shortcut test: a max length of the Python number 1, or a tensor max length
    with every input's static time dimension 1."""
    if not isinstance(max_input_length, tf.Tensor):
        return max_input_length == 1
    return all(x.shape.rank is not None and x.shape[0] == 1
               for x in tf.nest.flatten(inputs))


def _loop(cell_fn, theta, state0, inputs, start, limit, extras_template=None):
    """Runs the steps [start, limit): (stacked states, final state, stacked extras). The
    extras are kept only where `extras_template` (a list, given their structure) is given."""
    flat_state0 = _flat(state0)
    flat_inputs = _flat(inputs)
    steps = limit - start
    with_extras = extras_template is not None

    def step(t, flat_state):
        inputs_t = _pack(inputs, [x[t] for x in flat_inputs])
        state1, extras = cell_fn(theta, _pack(state0, flat_state), inputs_t)
        if with_extras and not extras_template:
            extras_template.append(extras)
        return _flat(state1), (_flat(extras) if with_extras else [])

    # the extras' dtypes are needed for their TensorArrays: one step traced outside the loop
    _, probe = step(start, flat_state0) if with_extras else (None, [])
    state_arrays = [tf.TensorArray(s.dtype, size=steps, element_shape=s.shape)
                    for s in flat_state0]
    extra_arrays = [tf.TensorArray(e.dtype, size=steps, element_shape=e.shape) for e in probe]

    def body(t, flat_state, states, extras):
        flat_state1, flat_extras = step(t, flat_state)
        for s, s0 in zip(flat_state1, flat_state):
            s.set_shape(s0.shape)
        i = t - start
        return (t + 1, flat_state1, [a.write(i, s) for a, s in zip(states, flat_state1)],
                [a.write(i, e) for a, e in zip(extras, flat_extras)])
    _, final, states, extras = tf.while_loop(
        lambda t, *_: t < limit, body, [start, flat_state0, state_arrays, extra_arrays])
    return [a.stack() for a in states], final, [a.stack() for a in extras]


def _pad_time(stacked, start, slen):
    """Rows [start, start + len(stacked)) of a zero tensor `slen` long."""
    rest = slen - start - tf.shape(stacked)[0]
    paddings = tf.concat([[[start, rest]], tf.zeros([tf.rank(stacked) - 1, 2], tf.int32)], 0)
    return tf.pad(stacked, paddings)


def Recurrent(theta, state0, inputs, cell_fn, cell_grad=None, extras=None,  # noqa: N802
              max_input_length=None, use_tpu=False, aligned_end=False):
    """(accumulated states [T, ...] per state tensor, final state); see the module docstring.
    `use_tpu` changed only TF 1.15's loop op; `extras` only pre-declared the extras' shapes."""
    del use_tpu, extras
    if cell_grad is None and _is_single_time_step(inputs, max_input_length):
        state1, _ = cell_fn(theta, state0, tf.nest.map_structure(
            lambda x: tf.squeeze(x, axis=0), inputs))
        return tf.nest.map_structure(lambda x: tf.expand_dims(x, axis=0), state1), state1
    slen = tf.shape(tf.nest.flatten(inputs)[0])[0]
    max_len = slen if max_input_length is None else tf.cast(max_input_length, tf.int32)
    start = slen - max_len if aligned_end else tf.constant(0)
    limit = slen if aligned_end else max_len
    if cell_grad is None:
        stacked, final, _ = _loop(cell_fn, theta, state0, inputs, start, limit)
        acc = [_pad_time(s, start, slen) for s in stacked]
        return _pack(state0, acc), _pack(state0, final)
    return _with_cell_grad(theta, state0, inputs, cell_fn, cell_grad, start, limit, slen)


def _with_cell_grad(theta, state0, inputs, cell_fn, cell_grad, start, limit, slen):
    """The loop with `cell_grad` as its gradient, back from the last step to the first."""
    n_theta, n_state = len(_flat(theta)), len(_flat(state0))

    @tf.custom_gradient
    def run(*flat):
        th = _pack(theta, flat[:n_theta])
        s0 = _pack(state0, flat[n_theta:n_theta + n_state])
        xs = _pack(inputs, flat[n_theta + n_state:])
        template = []
        stacked, final, acc_extras = _loop(cell_fn, th, s0, xs, start, limit, template)
        acc = [_pad_time(s, start, slen) for s in stacked]

        def grad(*dys, variables=None):
            d_acc, d_final = dys[:n_state], dys[n_state:]
            flat_s0, flat_xs = _flat(s0), _flat(xs)

            def body(t, d_state1, d_theta, d_inputs):
                # as TF 1.15: state0 is acc_state[t - 1] but at t == 0 (an end-aligned,
                # shortened loop's first step sees the zero row before it)
                prev = [tf.where(tf.equal(t, 0), s, a[tf.maximum(t - 1, 0)])
                        for a, s in zip(acc, flat_s0)]
                d_state1 = [d + a[t] for d, a in zip(d_state1, d_acc)]
                dth, ds0, dx = cell_grad(
                    th, _pack(s0, prev), _pack(xs, [x[t] for x in flat_xs]),
                    _pack(template[0], [e[t - start] for e in acc_extras]), _pack(s0, d_state1))
                return (t - 1, _flat(ds0), [a + b for a, b in zip(d_theta, _flat(dth))],
                        [a.write(t - start, b) for a, b in zip(d_inputs, _flat(dx))])
            d_inputs = [tf.TensorArray(x.dtype, size=limit - start, element_shape=x.shape[1:])
                        for x in flat_xs]
            _, d_s0, d_th, d_inputs = tf.while_loop(
                lambda t, *_: t >= start, body,
                [limit - 1, list(d_final), [tf.zeros_like(x) for x in _flat(th)], d_inputs])
            grads = (list(d_th) + list(d_s0)
                     + [_pad_time(a.stack(), start, slen) for a in d_inputs])
            return (grads, [None] * len(variables)) if variables else grads
        return acc + list(final), grad

    out = run(*(_flat(theta) + _flat(state0) + _flat(inputs)))
    return _pack(state0, out[:n_state]), _pack(state0, out[n_state:])
