"""`tf.contrib.grid_rnn`, served whole: Grid RNN cells (Kalchbrenner et al. 2015), TF1 cells
whose step runs an inner cell along each of `num_dims` dimensions.

One step, in scope `<scope or class name>` (re-entered on every call, as TF 1.15 did): the
input, split over the input dimensions, is projected (`project_m_<d>`, and `project_c_<d>` for
inner cells with a (c, m) state) into those dimensions' previous outputs; then the
non-priority dimensions, then the priority ones, each step: a recurrent dimension runs its
inner cell (scope `recurrent/cell_<d>`, or `recurrent` when `tied`) on the concatenated outputs
of dimensions 0..n-2 with state (c_d, output of the last dimension); a non-recurrent one a
`fully_connected` layer (`non_recurrent/cell_<d>`). TF 1.15's quirks are kept: a
non-recurrent dimension needs a scope initializer (TF 1.15 read `tf.contrib.layers.initializers`,
which it did not export), tied non-recurrent weights are reused before they exist, and a
concatenated state needs inner cells with tuple states.
"""
import __future__
import collections
import functools
import importlib

import tensorflow as tf

from estimator_compat.legacy import rnn_cells

v1 = tf.compat.v1
_log = tf.get_logger()

_GridRNNDimension = collections.namedtuple(
    "_GridRNNDimension", ["idx", "is_input", "is_output", "is_priority", "non_recurrent_fn"])
_GridRNNConfig = collections.namedtuple(
    "_GridRNNConfig", ["num_dims", "dims", "inputs", "outputs", "recurrents", "priority",
                       "non_priority", "tied", "num_units"])


def _contrib(name):
    """tf.contrib.<name> (contrib.rnn's cells, contrib.layers' fully_connected)."""
    from estimator_compat.legacy import contrib
    return importlib.import_module(contrib.MODULES[name]).build()


def _dim_list(dims, num_dims):
    dims = [] if dims is None else dims if isinstance(dims, (list, tuple)) else [dims]
    dims = sorted(set(dims))
    if any(d < 0 or d >= num_dims for d in dims):
        raise ValueError(f"Invalid dims: {dims}. Must be in [0, {num_dims})")
    return dims


def _parse_config(num_dims, input_dims, output_dims, priority_dims, non_recurrent_dims,
                  non_recurrent_fn, tied, num_units):
    inputs, outputs, priority, non_recurrent = (
        _dim_list(d, num_dims) for d in (input_dims, output_dims, priority_dims,
                                          non_recurrent_dims))
    dims = [_GridRNNDimension(i, i in inputs, i in outputs, i in priority,
                              non_recurrent_fn if i in non_recurrent else None)
            for i in range(num_dims)]
    return _GridRNNConfig(num_dims, dims, inputs, outputs,
                          [d for d in range(num_dims) if d not in non_recurrent], priority,
                          [d for d in range(num_dims) if d not in priority], tied, num_units)


class GridRNNCell(rnn_cells.RNNCell):
    """A Grid RNN cell of `num_dims` dimensions; `cell_fn(num_units)` makes each dimension's
    inner cell (LSTMCell by default), shared by all when `tied`."""

    def __init__(self, num_units, num_dims=1, input_dims=None, output_dims=None,
                 priority_dims=None, non_recurrent_dims=None, tied=False, cell_fn=None,
                 non_recurrent_fn=None, state_is_tuple=True, output_is_tuple=True):
        super().__init__()
        if not state_is_tuple:
            _log.warning("%s: Using a concatenated state is slower and will soon be "
                         "deprecated.  Use state_is_tuple=True.", self)
        if not output_is_tuple:
            _log.warning("%s: Using a concatenated output is slower and will soon be "
                         "deprecated.  Use output_is_tuple=True.", self)
        if num_dims < 1:
            raise ValueError(f"dims must be >= 1: {num_dims}")
        self._config = _parse_config(num_dims, input_dims, output_dims, priority_dims,
                                     non_recurrent_dims, non_recurrent_fn or tf.nn.relu, tied,
                                     num_units)
        self._state_is_tuple, self._output_is_tuple = state_is_tuple, output_is_tuple
        if cell_fn is None:
            make = functools.partial(_contrib("rnn").LSTMCell, num_units=num_units,
                                     state_is_tuple=state_is_tuple)
        else:
            def make():
                return cell_fn(num_units)
        self._cells = [make()] * num_dims if tied else [make() for _ in range(num_dims)]
        if not isinstance(self._cells[0], rnn_cells.RNNCell):
            raise TypeError("cell_fn must return an RNNCell instance, saw: %s"
                            % type(self._cells[0]))
        inner = self._cells[0]
        if output_is_tuple:
            self._output_size = tuple(inner.output_size for _ in self._config.outputs)
        else:
            self._output_size = inner.output_size * len(self._config.outputs)
        if state_is_tuple:
            self._state_size = tuple(inner.state_size for _ in self._config.recurrents)
        else:
            self._state_size = self._cell_state_size() * len(self._config.recurrents)

    output_size = property(lambda self: self._output_size)
    state_size = property(lambda self: self._state_size)

    def __call__(self, inputs, state, scope=None):
        conf = self._config
        dtype = inputs.dtype
        c_prev, m_prev, cell_output_size = self._extract_states(state)
        new_output, new_state = [None] * conf.num_dims, [None] * conf.num_dims
        with v1.variable_scope(scope or type(self).__name__):
            self._project_input(inputs, c_prev, m_prev, cell_output_size > 0)
            _propagate(conf.non_priority, conf, self._cells, c_prev, m_prev, new_output,
                       new_state, True)
            _propagate(conf.priority, conf, self._cells, c_prev, m_prev, new_output,
                       new_state, False)
            outputs = [new_output[i] for i in conf.outputs]
            if self._output_is_tuple:
                output = tuple(outputs)
            else:
                output = tf.concat(outputs, 1) if outputs else tf.zeros([0, 0], dtype)
            if self._state_is_tuple:
                states = tuple(new_state[i] for i in conf.recurrents)
            else:  # each inner state iterated, as TF 1.15 did (a tensor state cannot be)
                parts = [x for i in conf.recurrents for x in new_state[i]]
                states = tf.concat(parts, 1) if parts else tf.zeros([0, 0], dtype)
        return output, states

    def _extract_states(self, state):
        """(c_prev, m_prev) per dimension from `state`, and the inner cells' output size."""
        conf = self._config
        c_prev, m_prev = [None] * conf.num_dims, [None] * conf.num_dims
        total = self._cell_state_size()
        cell_output_size = total - conf.num_units
        if self._state_is_tuple:
            if len(conf.recurrents) != len(state):
                raise ValueError(f"Expected state as a tuple of {len(conf.recurrents)} element")
            for dim, dim_state in zip(conf.recurrents, state):
                if cell_output_size > 0:
                    c_prev[dim], m_prev[dim] = dim_state
                else:
                    m_prev[dim] = dim_state
        else:
            for dim, start in zip(conf.recurrents, range(0, self.state_size, total)):
                if cell_output_size > 0:
                    c_prev[dim] = tf.slice(state, [0, start], [-1, conf.num_units])
                    m_prev[dim] = tf.slice(state, [0, start + conf.num_units],
                                           [-1, cell_output_size])
                else:
                    m_prev[dim] = tf.slice(state, [0, start], [-1, conf.num_units])
        return c_prev, m_prev, cell_output_size

    def _project_input(self, inputs, c_prev, m_prev, with_c):
        """The input dimensions' previous m (and c) replaced by projections of the input."""
        conf = self._config
        if inputs is None or not tf.TensorShape(inputs.shape).with_rank(2)[1] or not conf.inputs:
            return
        if isinstance(inputs, tuple):
            if len(conf.inputs) != len(inputs):
                raise ValueError(f"Expect inputs as a tuple of {len(conf.inputs)} tensors")
            splits = inputs
        else:
            splits = tf.split(inputs, len(conf.inputs), axis=1)
        width = tf.TensorShape(splits[0].shape).with_rank(2)[1]
        for i, dim in enumerate(conf.inputs):
            project_m = v1.get_variable(f"project_m_{dim}", [width, conf.num_units],
                                        dtype=inputs.dtype)
            m_prev[dim] = tf.matmul(splits[i], project_m)
            if with_c:
                project_c = v1.get_variable(f"project_c_{dim}", [width, conf.num_units],
                                            dtype=inputs.dtype)
                c_prev[dim] = tf.matmul(splits[i], project_c)

    def _cell_state_size(self):
        sizes = self._cells[0].state_size
        return sum(sizes) if isinstance(sizes, tuple) else sizes


def _propagate(dim_indices, conf, cells, c_prev, m_prev, new_output, new_state, first_call):
    """Runs the dimensions `dim_indices` (recurrent: the inner cell; non-recurrent: a
    fully_connected layer), filling `new_output` / `new_state`."""
    if not dim_indices:
        return
    if conf.num_dims > 1:
        cell_inputs = tf.concat([m_prev[d.idx] if new_output[d.idx] is None
                                 else new_output[d.idx] for d in conf.dims[:-1]], 1)
    else:
        cell_inputs = tf.zeros([m_prev[0].shape.as_list()[0], 0], m_prev[0].dtype)
    last_dim_output = new_output[-1] if new_output[-1] is not None else m_prev[-1]
    for i in dim_indices:
        dim = conf.dims[i]
        reuse = conf.tied and not (first_call and i == dim_indices[0])
        if dim.non_recurrent_fn:
            args = tf.concat([cell_inputs, last_dim_output], 1) if conf.num_dims > 1 \
                else last_dim_output
            with v1.variable_scope("non_recurrent" if conf.tied else f"non_recurrent/cell_{i}"):
                if reuse:
                    v1.get_variable_scope().reuse_variables()
                layers = _contrib("layers")
                scope = v1.get_variable_scope()
                new_output[dim.idx] = layers.fully_connected(
                    args, num_outputs=conf.num_units, activation_fn=dim.non_recurrent_fn,
                    # TF 1.15 read `layers.initializers`, which tf.contrib.layers lacks
                    weights_initializer=scope.initializer or layers.initializers.xavier_initializer,
                    weights_regularizer=scope.regularizer)
        else:
            cell_state = last_dim_output if c_prev[i] is None else (c_prev[i], last_dim_output)
            with v1.variable_scope("recurrent" if conf.tied else f"recurrent/cell_{i}"):
                if reuse:
                    v1.get_variable_scope().reuse_variables()
                new_output[dim.idx], new_state[dim.idx] = cells[i](cell_inputs, cell_state)


class _InputInDimZero(GridRNNCell):
    """The specialized cells: input and output in dimension 0, which is non-recurrent when a
    `non_recurrent_fn` is given."""

    def _setup(self, num_units, num_dims, cell_fn, tied=False, non_recurrent_fn=None,
               state_is_tuple=True, output_is_tuple=True):
        GridRNNCell.__init__(
            self, num_units=num_units, num_dims=num_dims, input_dims=0, output_dims=0,
            priority_dims=0, tied=tied, non_recurrent_dims=None if non_recurrent_fn is None
            else 0, cell_fn=cell_fn, non_recurrent_fn=non_recurrent_fn,
            state_is_tuple=state_is_tuple, output_is_tuple=output_is_tuple)


def _rnn():
    return _contrib("rnn")


class Grid1BasicRNNCell(_InputInDimZero):
    """1D BasicRNN cell."""

    def __init__(self, num_units, state_is_tuple=True, output_is_tuple=True):
        self._setup(num_units, 1, lambda n: _rnn().BasicRNNCell(num_units=n),
                    state_is_tuple=state_is_tuple, output_is_tuple=output_is_tuple)


class Grid2BasicRNNCell(_InputInDimZero):
    """2D BasicRNN cell."""

    def __init__(self, num_units, tied=False, non_recurrent_fn=None, state_is_tuple=True,
                 output_is_tuple=True):
        self._setup(num_units, 2, lambda n: _rnn().BasicRNNCell(num_units=n), tied,
                    non_recurrent_fn, state_is_tuple, output_is_tuple)


class Grid1BasicLSTMCell(_InputInDimZero):
    """1D BasicLSTM cell."""

    def __init__(self, num_units, forget_bias=1, state_is_tuple=True, output_is_tuple=True):
        self._setup(num_units, 1,
                    lambda n: _rnn().BasicLSTMCell(num_units=n, forget_bias=forget_bias),
                    state_is_tuple=state_is_tuple, output_is_tuple=output_is_tuple)


class Grid2BasicLSTMCell(_InputInDimZero):
    """2D BasicLSTM cell."""

    def __init__(self, num_units, tied=False, non_recurrent_fn=None, forget_bias=1,
                 state_is_tuple=True, output_is_tuple=True):
        self._setup(num_units, 2,
                    lambda n: _rnn().BasicLSTMCell(num_units=n, forget_bias=forget_bias),
                    tied, non_recurrent_fn, state_is_tuple, output_is_tuple)


def _lstm(use_peepholes, forget_bias):
    return lambda n: _rnn().LSTMCell(num_units=n, forget_bias=forget_bias,
                                     use_peepholes=use_peepholes)


class Grid1LSTMCell(_InputInDimZero):
    """1D LSTM cell, with peepholes and forget bias as options."""

    def __init__(self, num_units, use_peepholes=False, forget_bias=1.0, state_is_tuple=True,
                 output_is_tuple=True):
        self._setup(num_units, 1, _lstm(use_peepholes, forget_bias),
                    state_is_tuple=state_is_tuple, output_is_tuple=output_is_tuple)


class Grid2LSTMCell(_InputInDimZero):
    """2D LSTM cell."""

    def __init__(self, num_units, tied=False, non_recurrent_fn=None, use_peepholes=False,
                 forget_bias=1.0, state_is_tuple=True, output_is_tuple=True):
        self._setup(num_units, 2, _lstm(use_peepholes, forget_bias), tied, non_recurrent_fn,
                    state_is_tuple, output_is_tuple)


class Grid3LSTMCell(_InputInDimZero):
    """3D LSTM cell (dimensions 1 and 2 are LSTMs)."""

    def __init__(self, num_units, tied=False, non_recurrent_fn=None, use_peepholes=False,
                 forget_bias=1.0, state_is_tuple=True, output_is_tuple=True):
        self._setup(num_units, 3, _lstm(use_peepholes, forget_bias), tied, non_recurrent_fn,
                    state_is_tuple, output_is_tuple)


class Grid2GRUCell(_InputInDimZero):
    """2D GRU cell."""

    def __init__(self, num_units, tied=False, non_recurrent_fn=None, state_is_tuple=True,
                 output_is_tuple=True):
        self._setup(num_units, 2, lambda n: _rnn().GRUCell(num_units=n), tied,
                    non_recurrent_fn, state_is_tuple, output_is_tuple)


CELLS = ("GridRNNCell", "Grid1BasicRNNCell", "Grid2BasicRNNCell", "Grid1BasicLSTMCell",
         "Grid2BasicLSTMCell", "Grid1LSTMCell", "Grid2LSTMCell", "Grid3LSTMCell", "Grid2GRUCell")
# the modules TF 1.15's grid_rnn exported by accident of its imports
_MODULES = {"array_ops": "tensorflow.python.ops.array_ops",
            "math_ops": "tensorflow.python.ops.math_ops", "nn": "tensorflow.python.ops.nn",
            "tensor_shape": "tensorflow.python.framework.tensor_shape",
            "vs": "tensorflow.python.ops.variable_scope",
            "logging": "tensorflow.python.platform.tf_logging", "functools": "functools"}


def build():
    from estimator_compat.legacy.namespaces import namespace
    prefix = "tensorflow.contrib.grid_rnn"
    names = {n: globals()[n] for n in CELLS}
    names.update({n: importlib.import_module(m) for n, m in _MODULES.items()})
    names.update(namedtuple=collections.namedtuple, layers=_contrib("layers"),
                 rnn=_contrib("rnn"))
    names.update({n: getattr(__future__, n) for n in ("absolute_import", "division",
                                                      "print_function")})
    cell_module = namespace(f"{prefix}.python.ops.grid_rnn_cell", "grid_rnn_cell.py", **names)
    ops = namespace(f"{prefix}.python.ops", "grid_rnn's ops", grid_rnn_cell=cell_module)
    python = namespace(f"{prefix}.python", "tf.contrib.grid_rnn", ops=ops)
    return namespace(prefix, "tf.contrib.grid_rnn (TF 1.15's Grid RNN cells)",
                     __served_whole__=True, python=python, **names)
