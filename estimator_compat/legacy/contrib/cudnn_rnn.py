"""`tf.contrib.cudnn_rnn` on CPU: TF 1.15's cuDNN layers computed by their cuDNN-compatible
cells, under the checkpoint names TF 1.15's canonical saveable wrote.

TF 1.15's `CudnnLSTM(num_layers, num_units)` held one `opaque_kernel` variable in cuDNN's
GPU-only layout and saved it twice: as `cudnn_lstm/opaque_kernel` and, through
`CudnnLSTMSaveable`, as canonical weights named for the CPU cells that can read them
(`cudnn_lstm/rnn/multi_rnn_cell/cell_<i>/cudnn_compatible_lstm_cell/{kernel,bias}`;
bidirectional: `cudnn_lstm/stack_bidirectional_rnn/cell_<i>/bidirectional_rnn/{fw,bw}/...`;
GRU: `.../cudnn_compatible_gru_cell/{gates,candidate/input_projection,
candidate/hidden_projection}/{kernel,bias}`; RNNTanh / RNNRelu: `.../basic_rnn_cell/...`).
There is no cuDNN here, so the layers are those canonical variables, run by
`CudnnCompatibleLSTMCell` / `CudnnCompatibleGRUCell` / a tanh or relu RNN cell through
`dynamic_rnn` (stacked bidirectionally for `direction='bidirectional'`), with cuDNN's
equations (LSTM forget bias 0, two biases summed; GRU's reset gate applied after the hidden
projection): a TF 1.15 checkpoint's canonical keys restore into them, and TF 1.15's own CPU
inference graph (the compatible cells in those scopes) reads ours. `opaque_kernel` itself is
neither written nor read.

The parameter converters and saveables keep TF 1.15's canonical <-> cuDNN-canonical
conversions (gate order i, f, c, o vs i, c, f, o; biases halved / summed); their "opaque"
buffer is, on CPU, the cuDNN-canonical weights then biases, each flattened, concatenated.
"""
import tensorflow as tf
from tensorflow.python.training.saving import saveable_object

from estimator_compat.legacy import rnn_cells
from estimator_compat.legacy.contrib.rnn import block_cells, functions
from estimator_compat.legacy.namespaces import namespace

v1 = tf.compat.v1

CUDNN_RNN_UNIDIRECTION, CUDNN_RNN_BIDIRECTION = "unidirectional", "bidirectional"
CUDNN_LSTM, CUDNN_GRU, CUDNN_RNN_RELU, CUDNN_RNN_TANH = "lstm", "gru", "rnn_relu", "rnn_tanh"
CUDNN_INPUT_LINEAR_MODE, CUDNN_INPUT_SKIP_MODE, CUDNN_INPUT_AUTO_MODE = (
    "linear_input", "skip_input", "auto_select")
CUDNN_LSTM_PARAMS_PER_LAYER, CUDNN_GRU_PARAMS_PER_LAYER = 8, 6
CUDNN_RNN_TANH_PARAMS_PER_LAYER = CUDNN_RNN_RELU_PARAMS_PER_LAYER = 2


def check_direction(direction):
    if direction not in (CUDNN_RNN_UNIDIRECTION, CUDNN_RNN_BIDIRECTION):
        raise ValueError(f"Invalid direction: {direction}, expecting "
                         f"{CUDNN_RNN_UNIDIRECTION} or {CUDNN_RNN_BIDIRECTION}")


def check_input_mode(input_mode):
    if input_mode not in (CUDNN_INPUT_LINEAR_MODE, CUDNN_INPUT_SKIP_MODE, CUDNN_INPUT_AUTO_MODE):
        raise ValueError(f"Invalid input_mode: {input_mode}, expect one of "
                         f"({CUDNN_INPUT_LINEAR_MODE}, {CUDNN_INPUT_SKIP_MODE}, "
                         f"{CUDNN_INPUT_AUTO_MODE})")


class CudnnCompatibleLSTMCell(block_cells.LSTMBlockCell):
    """LSTMBlockCell with cuDNN's equations (forget bias 0), scope `cudnn_compatible_lstm_cell`:
    reads CudnnLSTM's canonical checkpoint keys."""
    _default_name = "cudnn_compatible_lstm_cell"

    def __init__(self, num_units, reuse=None):
        super().__init__(num_units, forget_bias=0, cell_clip=None, use_peephole=False,
                         reuse=reuse, name="cudnn_compatible_lstm_cell")


class CudnnCompatibleGRUCell(rnn_cells.LayerRNNCell):
    """cuDNN's GRU: `h~ = tanh(x W_h + b_wh + r * (h R_h + b_rh))` (the reset gate after the
    hidden projection), variables `gates/{kernel,bias}` (bias starts at 1.0),
    `candidate/{input,hidden}_projection/{kernel,bias}`."""
    _default_name = "cudnn_compatible_gru_cell"

    def __init__(self, num_units, reuse=None, kernel_initializer=None, bias_initializer=None):
        super().__init__(_reuse=reuse)
        self._num_units = num_units
        self._kernel_initializer, self._bias_initializer = kernel_initializer, bias_initializer

    state_size = property(lambda self: self._num_units)
    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        depth = tf.TensorShape(inputs_shape)[1]
        if depth is None:
            raise ValueError(f"Expected inputs.shape[-1] to be known, saw shape: {inputs_shape}")
        n, k = self._num_units, self._kernel_initializer

        def bias(default):
            return self._bias_initializer or default
        with v1.variable_scope("gates"):
            self._gate_kernel = self.add_variable("kernel", [depth + n, 2 * n], initializer=k)
            self._gate_bias = self.add_variable("bias", [2 * n],
                                                initializer=bias(v1.constant_initializer(1.0)))
        with v1.variable_scope("candidate"):
            with v1.variable_scope("input_projection"):
                self._in_kernel = self.add_variable("kernel", [depth, n], initializer=k)
            with v1.variable_scope("hidden_projection"):
                self._hidden_kernel = self.add_variable("kernel", [n, n], initializer=k)
            with v1.variable_scope("input_projection"):
                self._in_bias = self.add_variable("bias", [n],
                                                  initializer=bias(v1.zeros_initializer()))
            with v1.variable_scope("hidden_projection"):
                self._hidden_bias = self.add_variable("bias", [n],
                                                      initializer=bias(v1.zeros_initializer()))

    def call(self, inputs, state):
        gates = tf.sigmoid(tf.nn.bias_add(tf.matmul(tf.concat([inputs, state], 1),
                                                    self._gate_kernel), self._gate_bias))
        r, u = tf.split(gates, 2, axis=1)
        candidate = tf.nn.bias_add(tf.matmul(inputs, self._in_kernel), self._in_bias)
        candidate += r * tf.nn.bias_add(tf.matmul(state, self._hidden_kernel),
                                        self._hidden_bias)
        new_h = (1 - u) * tf.tanh(candidate) + u * state
        return new_h, new_h


class _CudnnRNNCell(rnn_cells.BasicRNNCell):
    """cuDNN's tanh / relu RNN: BasicRNNCell (`basic_rnn_cell/{kernel,bias}`)."""


# --- parameter format conversion ------------------------------------------------------------

class _ParamsFormatConverter:
    """TF canonical (what the compatible cells hold) <-> cuDNN canonical (separate input and
    recurrent matrices per gate [units, width], two biases per gate) <-> the flat buffer."""
    _num_params_per_layer = None
    _gates = None

    def __init__(self, num_layers, num_units, input_size, num_proj=None,
                 input_mode=CUDNN_INPUT_LINEAR_MODE, direction=CUDNN_RNN_UNIDIRECTION):
        check_direction(direction)
        check_input_mode(input_mode)
        if num_proj and self._gates != 4:
            raise ValueError("num_proj is only supported for LSTM parameters.")
        self._num_layers, self._num_units, self._input_size = num_layers, num_units, input_size
        self._num_proj, self._input_mode, self._direction = num_proj, input_mode, direction
        self._num_dirs = 1 if direction == CUDNN_RNN_UNIDIRECTION else 2
        self._num_params = self._num_params_per_layer * num_layers * self._num_dirs

    def _input_width(self, layer):
        if layer == 0:
            return self._input_size
        return (self._num_proj or self._num_units) * self._num_dirs

    def _cu_shapes(self):
        weights, biases = [], []
        hidden = self._num_proj or self._num_units
        for layer in range(self._num_layers):
            for _ in range(self._num_dirs):
                weights += [[self._num_units, self._input_width(layer)]] * self._gates
                weights += [[self._num_units, hidden]] * self._gates
                if self._num_proj:
                    weights.append([self._num_proj, self._num_units])
                biases += [[self._num_units]] * (2 * self._gates)
        return weights, biases

    def tf_canonical_to_opaque(self, tf_canonicals, weights_proj=None):
        weights, biases = self._tf_canonical_to_cu_canonical(tf_canonicals, weights_proj)
        return tf.concat([tf.reshape(t, [-1]) for t in weights + biases], 0)

    def opaque_to_tf_canonical(self, opaque_param):
        weight_shapes, bias_shapes = self._cu_shapes()
        shapes = weight_shapes + bias_shapes
        sizes = [int(tf.TensorShape(s).num_elements()) for s in shapes]
        flat, parts, offset = tf.reshape(opaque_param, [-1]), [], 0
        for size, shape in zip(sizes, shapes):  # a longer buffer's tail is padding
            parts.append(tf.reshape(flat[offset:offset + size], shape))
            offset += size
        cu_weights, cu_biases = parts[:len(weight_shapes)], parts[len(weight_shapes):]
        tf_weights, tf_biases, tf_proj = [], [], []
        per_w = (2 * self._gates + (1 if self._num_proj else 0))
        per_b = 2 * self._gates
        for unit in range(self._num_layers * self._num_dirs):
            w = cu_weights[unit * per_w:(unit + 1) * per_w]
            if self._num_proj:
                tf_proj.append(tf.transpose(w[-1]))
                w = w[:-1]
            tw, tb = self._cu_to_tf(w, cu_biases[unit * per_b:(unit + 1) * per_b])
            tf_weights += tw
            tf_biases += tb
        if self._num_proj:
            return tf_weights, tf_biases, tf_proj
        return tf_weights, tf_biases

    def _tf_canonical_to_cu_canonical(self, tf_canonicals, weights_proj):
        half = len(tf_canonicals) // 2
        weights, biases = list(tf_canonicals[:half]), list(tf_canonicals[half:])
        per_w, per_b = len(weights) // self._num_layers, len(biases) // self._num_layers
        cu_weights, cu_biases = [], []
        for layer in range(self._num_layers):
            lw = weights[layer * per_w:(layer + 1) * per_w]
            lb = biases[layer * per_b:(layer + 1) * per_b]
            step_w, step_b = len(lw) // self._num_dirs, len(lb) // self._num_dirs
            for d in range(self._num_dirs):
                cw, cb = self._tf_to_cu(layer, lw[d * step_w:(d + 1) * step_w],
                                        lb[d * step_b:(d + 1) * step_b])
                cu_weights += cw
                if weights_proj is not None:
                    cu_weights.append(tf.transpose(weights_proj[layer * self._num_dirs + d]))
                cu_biases += cb
        return cu_weights, cu_biases

    def _split_tf_kernel(self, layer, kernel, gates):
        """TF kernel [width + hidden, gates * units] -> (input mats, recurrent mats), cuDNN
        shapes, in the TF kernel's gate order."""
        w = tf.transpose(kernel)
        hidden = self._num_proj or self._num_units
        pairs = [tf.split(g, [self._input_width(layer), hidden], axis=1)
                 for g in tf.split(w, gates, axis=0)]
        return [p[0] for p in pairs], [p[1] for p in pairs]


class CudnnParamsFormatConverterLSTM(_ParamsFormatConverter):
    """LSTM: TF kernel [in + h, 4h] and bias [4h] in gate order i, c, f, o; cuDNN i, f, c, o."""
    _num_params_per_layer, _gates = CUDNN_LSTM_PARAMS_PER_LAYER, 4

    def _cu_to_tf(self, w, b):
        win, rec = w[:4], w[4:]
        order = (0, 2, 1, 3)  # cuDNN i, f, c, o -> TF i, c, f, o
        kernel = tf.transpose(tf.concat([tf.concat([win[k], rec[k]], 1) for k in order], 0))
        bias = tf.concat([b[k] + b[4 + k] for k in order], 0)
        return [kernel], [bias]

    def _tf_to_cu(self, layer, weights, biases):
        (kernel,), (bias,) = weights, biases
        win, rec = self._split_tf_kernel(layer, kernel, 4)
        order = (0, 2, 1, 3)  # TF i, c, f, o -> cuDNN i, f, c, o
        gates = tf.split(bias, 4, axis=0)
        halves = [gates[k] * 0.5 for k in order]
        return [win[k] for k in order] + [rec[k] for k in order], halves + halves


class CudnnParamsFormatConverterGRU(_ParamsFormatConverter):
    """GRU: TF `gates` kernel [in + h, 2h] (r, u) and bias (the two cuDNN biases summed),
    `candidate/input_projection` [in, h] and `hidden_projection` [h, h] with their own biases."""
    _num_params_per_layer, _gates = CUDNN_GRU_PARAMS_PER_LAYER, 3

    def _cu_to_tf(self, w, b):
        w_r, w_u, w_h, r_r, r_u, r_h = w
        b_wr, b_wu, b_wh, b_rr, b_ru, b_rh = b
        gates = tf.transpose(tf.concat([tf.concat([w_r, r_r], 1), tf.concat([w_u, r_u], 1)], 0))
        return ([gates, tf.transpose(w_h), tf.transpose(r_h)],
                [tf.concat([b_wr, b_wu], 0) + tf.concat([b_rr, b_ru], 0), b_wh, b_rh])

    def _tf_to_cu(self, layer, weights, biases):
        gates, w_h, r_h = weights
        b_gates, b_wh, b_rh = biases
        win, rec = self._split_tf_kernel(layer, gates, 2)
        b_r, b_u = tf.split(b_gates * 0.5, 2, axis=0)
        return ([win[0], win[1], tf.transpose(w_h), rec[0], rec[1], tf.transpose(r_h)],
                [b_r, b_u, b_wh, b_r, b_u, b_rh])


class _ParamsFormatConverterBasic(_ParamsFormatConverter):
    """Plain RNN: TF kernel [in + h, h], bias = input bias + recurrent bias."""
    _num_params_per_layer, _gates = CUDNN_RNN_TANH_PARAMS_PER_LAYER, 1

    def _cu_to_tf(self, w, b):
        return [tf.transpose(tf.concat([w[0], w[1]], 1))], [b[0] + b[1]]

    def _tf_to_cu(self, layer, weights, biases):
        win, rec = self._split_tf_kernel(layer, weights[0], 1)
        return [win[0], rec[0]], [biases[0] * 0.5, biases[0] * 0.5]


class CudnnParamsFormatConverterTanh(_ParamsFormatConverterBasic):
    """tanh RNN parameters (BasicRNNCell's kernel and bias)."""


class CudnnParamsFormatConverterRelu(_ParamsFormatConverterBasic):
    """relu RNN parameters (BasicRNNCell's kernel and bias)."""


# --- saveables -------------------------------------------------------------------------------

def _prefixes(num_layers, direction, cell_name):
    for layer in range(num_layers):
        if direction == CUDNN_RNN_UNIDIRECTION:
            yield f"rnn/multi_rnn_cell/cell_{layer}/{cell_name}"
        else:
            for d in ("fw", "bw"):
                yield f"stack_bidirectional_rnn/cell_{layer}/bidirectional_rnn/{d}/{cell_name}"


class CudnnOpaqueParamsSaveable(saveable_object.SaveableObject):
    """Saves a parameter buffer as TF canonical weights named for the compatible cells
    (`<scope>/rnn/multi_rnn_cell/cell_<i>/<cell>/kernel` ...) and restores it from them."""
    _converter_cls = None
    _rnn_cell_name = None
    _weight_leaves, _bias_leaves = ("kernel",), ("bias",)

    def __init__(self, opaque_params, num_layers, num_units, input_size,
                 input_mode=CUDNN_INPUT_LINEAR_MODE, direction=CUDNN_RNN_UNIDIRECTION,
                 scope=None, name="cudnn_rnn_saveable"):
        self._num_layers, self._num_units, self._input_size = num_layers, num_units, input_size
        self._input_mode, self._direction = input_mode, direction
        scope_name = scope.name if isinstance(scope, v1.VariableScope) else scope
        self._scope = scope_name or None
        self._variables = opaque_params
        self._format_converter = None
        weights, biases = self.format_converter.opaque_to_tf_canonical(opaque_params)
        prefixes = list(_prefixes(num_layers, direction, self._rnn_cell_name))
        self._weight_names = [f"{p}/{leaf}" for p in prefixes for leaf in self._weight_leaves]
        self._bias_names = [f"{p}/{leaf}" for p in prefixes for leaf in self._bias_leaves]
        self._param_names = self._weight_names + self._bias_names
        names = [f"{self._scope}/{n}" if self._scope else n for n in self._param_names]
        specs = [saveable_object.SaveSpec(t, "", n) for t, n in zip(weights + biases, names)]
        super().__init__(tf.identity(opaque_params), specs, name)

    @property
    def format_converter(self):
        if self._format_converter is None:
            self._format_converter = self._converter_cls(
                self._num_layers, self._num_units, self._input_size,
                input_mode=self._input_mode, direction=self._direction)
        return self._format_converter

    def restore(self, restored_tensors, restored_shapes):
        opaque = self.format_converter.tf_canonical_to_opaque(restored_tensors)
        return v1.assign(self._variables, opaque, validate_shape=False)


class CudnnLSTMSaveable(CudnnOpaqueParamsSaveable):
    """LSTM parameters as `<prefix>/cudnn_compatible_lstm_cell/{kernel,bias}`."""
    _converter_cls = CudnnParamsFormatConverterLSTM
    _rnn_cell_name = "cudnn_compatible_lstm_cell"


class CudnnGRUSaveable(CudnnOpaqueParamsSaveable):
    """GRU parameters as `<prefix>/cudnn_compatible_gru_cell/{gates,candidate/...}/...`."""
    _converter_cls = CudnnParamsFormatConverterGRU
    _rnn_cell_name = "cudnn_compatible_gru_cell"
    _weight_leaves = ("gates/kernel", "candidate/input_projection/kernel",
                      "candidate/hidden_projection/kernel")
    _bias_leaves = ("gates/bias", "candidate/input_projection/bias",
                    "candidate/hidden_projection/bias")


class CudnnRNNTanhSaveable(CudnnLSTMSaveable):
    """tanh RNN parameters as `<prefix>/basic_rnn_cell/{kernel,bias}`."""
    _converter_cls = CudnnParamsFormatConverterTanh
    _rnn_cell_name = "basic_rnn_cell"


class CudnnRNNReluSaveable(CudnnLSTMSaveable):
    """relu RNN parameters as `<prefix>/basic_rnn_cell/{kernel,bias}`."""
    _converter_cls = CudnnParamsFormatConverterRelu
    _rnn_cell_name = "basic_rnn_cell"


# --- layers ------------------------------------------------------------------------------------

def _cudnn_getter(kernel_init, bias_init, units, dtype):
    """A custom getter initializing the compatible cells' variables as TF 1.15 initialized its
    cuDNN buffer: each cuDNN-canonical block drawn on its own ([units, width] input and
    recurrent matrices per gate, transposed into the TF kernel; a TF bias is the sum of a
    gate's input and recurrent biases)."""
    def kernel(shape, gates):
        width = shape[0] - units
        return tf.concat([tf.concat([tf.transpose(kernel_init([units, w], dtype=dtype))
                                     for _ in range(gates)], 1) for w in (width, units)], 0)

    def bias(gates):
        return tf.concat([bias_init([units], dtype=dtype) + bias_init([units], dtype=dtype)
                          for _ in range(gates)], 0)

    def initial(name, shape):
        if "/candidate/" in name:  # GRU: one cuDNN block each
            if name.endswith("/kernel"):
                return tf.transpose(kernel_init([shape[1], shape[0]], dtype=dtype))
            return bias_init(shape, dtype=dtype)
        if name.endswith("/kernel"):
            return kernel(shape, shape[1] // units)
        return bias(shape[0] // units)

    def getter(getter, name, *args, **kwargs):
        shape = kwargs.get("shape")
        if shape is not None and name.endswith(("/kernel", "/bias")):
            shape = [int(d) for d in shape]
            kwargs["initializer"] = lambda *_, **__: initial(name, shape)
        return getter(name, *args, **kwargs)
    return getter


class _CudnnRNN:
    """A cuDNN RNN layer: `layer(inputs, initial_state=None, sequence_lengths=None,
    time_major=True, training=True) -> (outputs, states)`, states shaped
    [num_layers * num_dirs, batch, num_units] (LSTM: (h, c))."""
    _rnn_mode = None
    _num_params_per_layer = None
    _saveable_cls = None
    _default_name = None

    def __init__(self, num_layers, num_units, input_mode=CUDNN_INPUT_LINEAR_MODE,
                 direction=CUDNN_RNN_UNIDIRECTION, dropout=0., seed=None, dtype=tf.float32,
                 kernel_initializer=None, bias_initializer=None, name=None):
        check_direction(direction)
        check_input_mode(input_mode)
        dtype = tf.as_dtype(dtype)
        if dtype not in (tf.float16, tf.float32, tf.float64):
            raise ValueError(f"Only support float16, float32, float64, provided {dtype}")
        if input_mode != CUDNN_INPUT_LINEAR_MODE:
            raise ValueError(f"{type(self).__name__}(input_mode={input_mode!r}): without cuDNN "
                             "estimator_compat runs only input_mode='linear_input' (the "
                             "default); use it, or tf.keras.layers.LSTM / GRU.")
        self._num_layers, self._num_units = num_layers, num_units
        self._input_mode, self._direction = input_mode, direction
        self._dropout, self._seed, self.dtype = dropout, seed, dtype
        self._kernel_initializer, self._bias_initializer = kernel_initializer, bias_initializer
        self._name, self._scope, self._input_size = name, None, None
        self._cells, self._stack_scope = None, None
        self.built = False
        self.trainable = True

    num_layers = property(lambda self: self._num_layers)
    num_units = property(lambda self: self._num_units)
    input_mode = property(lambda self: self._input_mode)
    rnn_mode = property(lambda self: self._rnn_mode)
    direction = property(lambda self: self._direction)
    num_dirs = property(lambda self: 1 if self._direction == CUDNN_RNN_UNIDIRECTION else 2)
    saveable = property(lambda self: None)

    @property
    def name(self):
        return self._scope.name if self._scope is not None else (self._name or
                                                                  self._default_name)

    @property
    def input_size(self):
        if not self._input_size:
            raise ValueError("'input_size' is unknown since layer has not been built.")
        return self._input_size

    @property
    def variables(self):
        if self._scope is None:
            return []
        return v1.get_collection(v1.GraphKeys.GLOBAL_VARIABLES, self._scope.name + "/")

    trainable_variables = trainable_weights = weights = variables

    def _canonical_weight_shape(self, layer):
        if not self._input_size:
            raise RuntimeError(f"{type(self).__name__}._canonical_weight_shape invoked before "
                               "input shape is known")
        gates = self._num_params_per_layer // 2
        width = self._input_size if layer == 0 else self._num_units * self.num_dirs
        shapes = [(self._num_units, width)] * gates + [(self._num_units, self._num_units)] * gates
        return shapes * self.num_dirs

    @property
    def canonical_weight_shapes(self):
        if not self._input_size:
            raise RuntimeError(f"{type(self).__name__}.canonical_weight_shapes invoked before "
                               "input shape is known")
        return [s for layer in range(self._num_layers)
                for s in self._canonical_weight_shape(layer)]

    @property
    def canonical_bias_shapes(self):
        return [[self._num_units]] * self.num_dirs * self._num_params_per_layer * \
            self._num_layers

    def state_shape(self, batch_size):
        shape = [self._num_layers * self.num_dirs, batch_size, self._num_units]
        return (shape, shape) if self._rnn_mode == CUDNN_LSTM else (shape,)

    def _zero_state(self, batch_size):
        return tuple(tf.zeros(s, dtype=self.dtype) for s in self.state_shape(batch_size))

    def _cell(self):
        n = self._num_units
        if self._rnn_mode == CUDNN_GRU:
            return CudnnCompatibleGRUCell(n)
        if self._rnn_mode == CUDNN_LSTM:
            return CudnnCompatibleLSTMCell(n)
        return _CudnnRNNCell(n, activation=tf.nn.relu if self._rnn_mode == CUDNN_RNN_RELU
                             else tf.tanh)

    def __call__(self, inputs, initial_state=None, sequence_lengths=None, time_major=True,
                 training=True):
        if initial_state is not None and not isinstance(initial_state, tuple):
            raise TypeError(f"Invalid initial_state type: {initial_state}, expecting tuple.")
        inputs = tf.convert_to_tensor(inputs, dtype=self.dtype)
        if inputs.shape.ndims != 3:
            raise ValueError(f"Expecting input_shape with 3 dims, got {inputs.shape.ndims}")
        if inputs.shape[-1] is None:
            raise ValueError("The last dimension of the inputs to `CudnnRNN` should be defined. "
                             "Found `None`.")
        if self._input_size and int(inputs.shape[-1]) != self._input_size:
            raise ValueError(f"{type(self).__name__} was built for inputs of depth "
                             f"{self._input_size}, got {inputs.shape}")
        self._input_size = int(inputs.shape[-1])
        if self._scope is None:
            with v1.variable_scope(None, default_name=self._name or self._default_name) as vs:
                self._scope = vs
                result = self._forward(inputs, initial_state, sequence_lengths, time_major,
                                       training)
        else:
            with v1.variable_scope(self._scope, reuse=True):
                result = self._forward(inputs, initial_state, sequence_lengths, time_major,
                                       training)
        self.built = True
        return result

    apply = __call__

    def _forward(self, inputs, initial_state, sequence_lengths, time_major, training):
        batch = tf.shape(inputs)[1 if time_major else 0]
        if initial_state is None:
            initial_state = self._zero_state(batch)
        lstm = self._rnn_mode == CUDNN_LSTM
        h = tf.convert_to_tensor(initial_state[0], dtype=self.dtype)
        c = tf.convert_to_tensor(initial_state[1], dtype=self.dtype) if lstm else None

        def state(index):
            return rnn_cells.LSTMStateTuple(c[index], h[index]) if lstm else h[index]

        def dropped(cell, layer):
            if training and self._dropout > 0 and layer < self._num_layers - 1:
                return rnn_cells.DropoutWrapper(cell, output_keep_prob=1.0 - self._dropout,
                                                seed=self._seed)
            return cell

        if sequence_lengths is not None:
            sequence_lengths = tf.cast(sequence_lengths, tf.int32)
        getter = _cudnn_getter(
            self._kernel_initializer or v1.glorot_uniform_initializer(seed=self._seed,
                                                                      dtype=self.dtype),
            self._bias_initializer or v1.constant_initializer(0.0, dtype=self.dtype),
            self._num_units, self.dtype)
        with v1.variable_scope(v1.get_variable_scope(), custom_getter=getter):
            if not self._cells:  # made once: a later call re-enters their scopes
                self._cells = [[self._cell() for _ in range(self._num_layers)]
                               for _ in range(self.num_dirs)]
            if self._direction == CUDNN_RNN_UNIDIRECTION:
                stack = rnn_cells.MultiRNNCell([dropped(c, i)
                                                for i, c in enumerate(self._cells[0])])
                stack._scope = self._stack_scope
                outputs, states = v1.nn.dynamic_rnn(
                    stack, inputs, sequence_length=sequence_lengths,
                    initial_state=tuple(state(i) for i in range(self._num_layers)),
                    time_major=time_major)
                self._stack_scope = stack._scope
                finals = list(states)
            else:
                fw = [dropped(c, i) for i, c in enumerate(self._cells[0])]
                bw = [dropped(c, i) for i, c in enumerate(self._cells[1])]
                outputs, states_fw, states_bw = functions.stack_bidirectional_dynamic_rnn(
                    fw, bw, inputs,
                    initial_states_fw=[state(2 * i) for i in range(self._num_layers)],
                    initial_states_bw=[state(2 * i + 1) for i in range(self._num_layers)],
                    sequence_length=sequence_lengths, time_major=time_major, dtype=self.dtype)
                finals = [s for pair in zip(states_fw, states_bw) for s in pair]
        if lstm:
            return outputs, (tf.stack([s.h for s in finals]), tf.stack([s.c for s in finals]))
        return outputs, (tf.stack(finals),)


class CudnnLSTM(_CudnnRNN):
    """cuDNN LSTM layer (CPU: CudnnCompatibleLSTMCell per layer); states (h, c)."""
    _rnn_mode, _num_params_per_layer = CUDNN_LSTM, CUDNN_LSTM_PARAMS_PER_LAYER
    _saveable_cls, _default_name = CudnnLSTMSaveable, "cudnn_lstm"


class CudnnGRU(_CudnnRNN):
    """cuDNN GRU layer (CPU: CudnnCompatibleGRUCell per layer); states (h,)."""
    _rnn_mode, _num_params_per_layer = CUDNN_GRU, CUDNN_GRU_PARAMS_PER_LAYER
    _saveable_cls, _default_name = CudnnGRUSaveable, "cudnn_gru"


class CudnnRNNTanh(_CudnnRNN):
    """cuDNN tanh RNN layer (CPU: a tanh basic_rnn_cell per layer); states (h,)."""
    _rnn_mode, _num_params_per_layer = CUDNN_RNN_TANH, CUDNN_RNN_TANH_PARAMS_PER_LAYER
    _saveable_cls, _default_name = CudnnRNNTanhSaveable, "cudnn_rnn_tanh"


class CudnnRNNRelu(_CudnnRNN):
    """cuDNN relu RNN layer (CPU: a relu basic_rnn_cell per layer); states (h,)."""
    _rnn_mode, _num_params_per_layer = CUDNN_RNN_RELU, CUDNN_RNN_RELU_PARAMS_PER_LAYER
    _saveable_cls, _default_name = CudnnRNNReluSaveable, "cudnn_rnn_relu"


_CONSTANTS = dict(
    CUDNN_RNN_UNIDIRECTION=CUDNN_RNN_UNIDIRECTION, CUDNN_RNN_BIDIRECTION=CUDNN_RNN_BIDIRECTION,
    CUDNN_LSTM=CUDNN_LSTM, CUDNN_GRU=CUDNN_GRU, CUDNN_RNN_RELU=CUDNN_RNN_RELU,
    CUDNN_RNN_TANH=CUDNN_RNN_TANH, CUDNN_INPUT_LINEAR_MODE=CUDNN_INPUT_LINEAR_MODE,
    CUDNN_INPUT_SKIP_MODE=CUDNN_INPUT_SKIP_MODE, CUDNN_INPUT_AUTO_MODE=CUDNN_INPUT_AUTO_MODE)
_PUBLIC = dict(
    CudnnCompatibleLSTMCell=CudnnCompatibleLSTMCell, CudnnCompatibleGRUCell=CudnnCompatibleGRUCell,
    CudnnLSTM=CudnnLSTM, CudnnGRU=CudnnGRU, CudnnRNNTanh=CudnnRNNTanh, CudnnRNNRelu=CudnnRNNRelu,
    CudnnLSTMSaveable=CudnnLSTMSaveable, CudnnGRUSaveable=CudnnGRUSaveable,
    CudnnRNNTanhSaveable=CudnnRNNTanhSaveable, CudnnRNNReluSaveable=CudnnRNNReluSaveable,
    CudnnParamsFormatConverterLSTM=CudnnParamsFormatConverterLSTM,
    CudnnParamsFormatConverterGRU=CudnnParamsFormatConverterGRU,
    CudnnParamsFormatConverterTanh=CudnnParamsFormatConverterTanh,
    CudnnParamsFormatConverterRelu=CudnnParamsFormatConverterRelu)


def build():
    prefix = "tensorflow.contrib.cudnn_rnn.python"
    ops_module = namespace(f"{prefix}.ops.cudnn_rnn_ops", "contrib.cudnn_rnn's cudnn_rnn_ops.py",
                           CudnnOpaqueParamsSaveable=CudnnOpaqueParamsSaveable,
                           check_direction=check_direction, check_input_mode=check_input_mode,
                           **{k: v for k, v in _PUBLIC.items()
                              if k not in ("CudnnLSTM", "CudnnGRU", "CudnnRNNTanh",
                                           "CudnnRNNRelu")}, **_CONSTANTS)
    layers_module = namespace(f"{prefix}.layers.cudnn_rnn", "contrib.cudnn_rnn's layers",
                              CudnnLSTM=CudnnLSTM, CudnnGRU=CudnnGRU, CudnnRNNTanh=CudnnRNNTanh,
                              CudnnRNNRelu=CudnnRNNRelu, **_CONSTANTS)
    python = namespace(prefix, "contrib.cudnn_rnn",
                       ops=namespace(f"{prefix}.ops", "contrib.cudnn_rnn ops",
                                     cudnn_rnn_ops=ops_module),
                       layers=namespace(f"{prefix}.layers", "contrib.cudnn_rnn layers",
                                        cudnn_rnn=layers_module))
    return namespace("tensorflow.contrib.cudnn_rnn",
                     "tf.contrib.cudnn_rnn (cuDNN layers run by their compatible cells on CPU)",
                     __served_whole__=True, python=python, **_PUBLIC)
