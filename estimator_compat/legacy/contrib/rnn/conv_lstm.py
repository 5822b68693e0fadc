"""`ConvLSTMCell` and its 1-D / 2-D / 3-D forms (Shi et al. 2015): the LSTM's matmuls as
'SAME' convolutions over [inputs, hidden]; variables `kernel` (filter + [in + out, 4 out]) and
`biases`, in scope `conv_lstm_cell` (`conv_{1,2,3}d_lstm_cell`)."""
import tensorflow as tf

from estimator_compat.legacy import rnn_cells

v1 = tf.compat.v1


def _conv(args, filter_size, num_features, bias, bias_start=0.0):
    shapes = [a.shape.as_list() for a in args]
    rank = len(shapes[0])
    for shape in shapes:
        if len(shape) not in (3, 4, 5):
            raise ValueError(f"Conv Linear expects 3D, 4D or 5D arguments: {shapes}")
        if len(shape) != rank:
            raise ValueError(f"Conv Linear expects all args to be of same Dimension: {shapes}")
    depth = sum(s[-1] for s in shapes)
    dtype = args[0].dtype
    kernel = v1.get_variable("kernel", list(filter_size) + [depth, num_features], dtype)
    value = args[0] if len(args) == 1 else tf.concat(args, axis=rank - 1)
    res = tf.nn.convolution(value, kernel, padding="SAME")
    if not bias:
        return res
    return res + v1.get_variable("biases", [num_features], dtype,
                                 initializer=v1.constant_initializer(bias_start, dtype=dtype))


class ConvLSTMCell(rnn_cells.RNNCell):
    """Convolutional LSTM over inputs [batch] + input_shape; state (c, h) of
    input_shape[:-1] + [output_channels]; `skip_connection` concatenates the inputs."""
    _default_name = "conv_lstm_cell"

    def __init__(self, conv_ndims, input_shape, output_channels, kernel_shape, use_bias=True,
                 skip_connection=False, forget_bias=1.0, initializers=None,
                 name="conv_lstm_cell"):
        super().__init__(name=name)
        if conv_ndims != len(input_shape) - 1:
            raise ValueError(f"Invalid input_shape {input_shape} for conv_ndims={conv_ndims}.")
        self._conv_ndims, self._input_shape = conv_ndims, list(input_shape)
        self._output_channels, self._kernel_shape = output_channels, list(kernel_shape)
        self._use_bias, self._forget_bias, self._skip = use_bias, forget_bias, skip_connection
        total = output_channels + (self._input_shape[-1] if skip_connection else 0)
        size = tf.TensorShape(self._input_shape[:-1] + [output_channels])
        self._state_size = rnn_cells.LSTMStateTuple(size, size)
        self._output_size = tf.TensorShape(self._input_shape[:-1] + [total])

    state_size = property(lambda self: self._state_size)
    output_size = property(lambda self: self._output_size)

    def call(self, inputs, state, scope=None):
        cell, hidden = state
        gates = _conv([inputs, hidden], self._kernel_shape, 4 * self._output_channels,
                      self._use_bias)
        i, j, f, o = tf.split(gates, 4, axis=self._conv_ndims + 1)
        new_cell = tf.sigmoid(f + self._forget_bias) * cell + tf.sigmoid(i) * tf.tanh(j)
        output = tf.tanh(new_cell) * tf.sigmoid(o)
        if self._skip:
            output = tf.concat([output, inputs], axis=-1)
        return output, rnn_cells.LSTMStateTuple(new_cell, output)


class Conv1DLSTMCell(ConvLSTMCell):
    """ConvLSTMCell over [batch, width, channels]."""
    _default_name = "conv_1d_lstm_cell"

    def __init__(self, name="conv_1d_lstm_cell", **kwargs):
        super().__init__(conv_ndims=1, name=name, **kwargs)


class Conv2DLSTMCell(ConvLSTMCell):
    """ConvLSTMCell over [batch, height, width, channels]."""
    _default_name = "conv_2d_lstm_cell"

    def __init__(self, name="conv_2d_lstm_cell", **kwargs):
        super().__init__(conv_ndims=2, name=name, **kwargs)


class Conv3DLSTMCell(ConvLSTMCell):
    """ConvLSTMCell over [batch, depth, height, width, channels]."""
    _default_name = "conv_3d_lstm_cell"

    def __init__(self, name="conv_3d_lstm_cell", **kwargs):
        super().__init__(conv_ndims=3, name=name, **kwargs)
