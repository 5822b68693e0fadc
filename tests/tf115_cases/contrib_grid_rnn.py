"""tf.contrib.grid_rnn cases (TF 1.15 style, Python 3.7): each grid cell run one step or under
dynamic_rnn / static_rnn with every variable loaded with fixed values, so outputs, states,
variable names and shapes compare with TF 1.15.5's record."""
from tf115_cases.fixed_values import fixed as _fixed, inputs as _inputs, flat as _flat


def _filled(tf, fetches, plain=None):
    """run(sess): every global variable set to fixed values, then `fetches` (flattened), with
    the Python values `plain` (sizes) beside them."""
    fetches = _flat(fetches)

    def run(sess):
        sess.run([tf.assign(v, _fixed(v.shape.as_list(), i))
                  for i, v in enumerate(tf.global_variables())])
        return dict(sess.run(fetches), **(plain or {}))
    return run


def _step(tf, cell, state=None, width=3):
    x = tf.constant(_inputs(2, width))
    state = cell.zero_state(2, tf.float32) if state is None else state
    out, new_state = cell(x, state)
    return {"out": out, "state": new_state}


def case_grid1_cells_one_step(tf):
    g = tf.contrib.grid_rnn
    fetches = {}
    for i, cell in enumerate([g.Grid1BasicRNNCell(4), g.Grid1BasicLSTMCell(4, forget_bias=0.5),
                              g.Grid1LSTMCell(3, use_peepholes=True)]):
        with tf.variable_scope("c%d" % i):
            fetches[str(i)] = _step(tf, cell)
    return _filled(tf, fetches, {"sizes": [str(cell.state_size), str(cell.output_size)]})


def case_grid2_lstm_dynamic_rnn(tf):
    cell = tf.contrib.grid_rnn.Grid2LSTMCell(4, use_peepholes=True, forget_bias=0.3)
    out, state = tf.nn.dynamic_rnn(cell, tf.constant(_inputs(2, 3, 5)), dtype=tf.float32)
    return _filled(tf, {"out": out, "state": state})


def case_grid2_tied_static_rnn(tf):
    g = tf.contrib.grid_rnn
    fetches = {}
    for i, cell in enumerate([g.Grid2BasicLSTMCell(3, tied=True),
                              g.Grid2GRUCell(3, tied=True), g.Grid2BasicRNNCell(3)]):
        xs = tf.unstack(tf.constant(_inputs(3, 2, 4)))
        outs, state = tf.nn.static_rnn(cell, xs, dtype=tf.float32, scope="s%d" % i)
        fetches[str(i)] = {"out": outs, "state": state}
    return _filled(tf, fetches)


def case_grid_non_recurrent_with_scope_initializer(tf):
    g = tf.contrib.grid_rnn
    fetches = {}
    init = tf.constant_initializer(0.1)
    for i, cell in enumerate([g.Grid2LSTMCell(3, non_recurrent_fn=tf.nn.relu),
                              g.Grid3LSTMCell(2, non_recurrent_fn=tf.nn.relu),
                              g.Grid2GRUCell(3, non_recurrent_fn=tf.tanh),
                              g.Grid2BasicLSTMCell(2, non_recurrent_fn=tf.nn.relu,
                                                   state_is_tuple=False,
                                                   output_is_tuple=False)]):
        with tf.variable_scope("n%d" % i, initializer=init):
            out, state = tf.nn.dynamic_rnn(cell, tf.constant(_inputs(2, 2, 4)),
                                           dtype=tf.float32)
        fetches[str(i)] = {"out": out, "state": state}
    return _filled(tf, fetches)


def case_grid_tied_non_recurrent_finds_no_variables(tf):
    """TF 1.15 reuses the tied non-recurrent weights before making them: a ValueError."""
    cell = tf.contrib.grid_rnn.Grid3LSTMCell(2, tied=True, non_recurrent_fn=tf.nn.relu)
    with tf.variable_scope("t", initializer=tf.constant_initializer(0.1)):
        return _filled(tf, _step(tf, cell))


def case_grid_non_recurrent_default_initializer(tf):
    """TF 1.15 reads `tf.contrib.layers.initializers`, which it did not export: an
    AttributeError unless the scope has an initializer."""
    cell = tf.contrib.grid_rnn.Grid2BasicRNNCell(3, non_recurrent_fn=tf.nn.relu)
    return _filled(tf, _step(tf, cell))


def case_grid_rnn_cell_custom_dims(tf):
    cell = tf.contrib.grid_rnn.GridRNNCell(
        3, num_dims=3, input_dims=[0, 1], output_dims=[1, 2], priority_dims=1,
        cell_fn=lambda n: tf.contrib.rnn.GRUCell(n), output_is_tuple=False)
    fetches = _step(tf, cell, width=4)
    with tf.variable_scope("again"):
        fetches["scoped"] = cell(tf.constant(_inputs(2, 4)), fetches["state"], scope="mine")
    return _filled(tf, fetches, {"sizes": [str(cell.state_size), cell.output_size]})


def case_grid_concat_state_needs_tuple_cell_states(tf):
    """With state_is_tuple=False TF 1.15 iterates each inner state: a GRU's is a tensor."""
    cell = tf.contrib.grid_rnn.Grid2GRUCell(3, state_is_tuple=False)
    return _filled(tf, _step(tf, cell))


def case_grid_concat_state_lstm(tf):
    cell = tf.contrib.grid_rnn.Grid2LSTMCell(2, state_is_tuple=False, output_is_tuple=False)
    out, state = tf.nn.dynamic_rnn(cell, tf.constant(_inputs(2, 3, 2)), dtype=tf.float32)
    return _filled(tf, {"out": out, "state": state},
                   {"sizes": [cell.state_size, cell.output_size]})


def case_grid_rejects_bad_dims(tf):
    return {"x": tf.contrib.grid_rnn.GridRNNCell(2, num_dims=2, input_dims=[2])}


def case_grid_rejects_non_cell(tf):
    return {"x": tf.contrib.grid_rnn.GridRNNCell(2, cell_fn=lambda n: n)}
