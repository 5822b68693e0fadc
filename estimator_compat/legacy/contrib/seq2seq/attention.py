"""Attention mechanisms of TF 1.15's `tf.contrib.seq2seq`: `BahdanauAttention`,
`LuongAttention`, their monotonic forms, `monotonic_attention`, `safe_cumprod`, `hardmax`.

A mechanism projects its memory once, at construction, through a `memory_layer` (variable
`memory_layer/kernel`, numbered `memory_layer_1`... as TF1's layers were); its score variables
(`bahdanau_attention/attention_v`, `query_layer/kernel`, ...) are made where it is first called,
inside the `AttentionWrapper`'s scope.
"""
import functools

import numpy as np
import tensorflow as tf

v1 = tf.compat.v1


class Projection:
    """A TF1 `tf.layers.Dense(units, use_bias=False, name=...)`: its scope (made unique, as
    TF1's layers did) is taken on the first call and re-entered after."""

    def __init__(self, units, name, dtype=None):
        self.units, self._name = units, name
        self.dtype = tf.as_dtype(dtype or tf.float32)
        self._scope = None

    def compute_output_shape(self, input_shape):
        return tf.TensorShape(input_shape)[:-1].concatenate([self.units])

    def __call__(self, inputs):
        inputs = tf.convert_to_tensor(inputs)
        if self._scope is None:
            with v1.variable_scope(None, default_name=self._name) as scope:
                self._scope = scope
                return self._apply(inputs)
        with v1.variable_scope(self._scope, reuse=True, auxiliary_name_scope=False):
            return self._apply(inputs)

    def _apply(self, inputs):
        kernel = v1.get_variable("kernel", [inputs.shape[-1], self.units], self.dtype)
        if inputs.shape.rank is not None and inputs.shape.rank > 2:
            out = tf.tensordot(inputs, kernel, [[inputs.shape.rank - 1], [0]])
            out.set_shape(inputs.shape[:-1].concatenate([self.units]))
            return out
        return tf.matmul(inputs, kernel)

    @property
    def variables(self):
        if self._scope is None:
            return []
        return v1.get_collection(v1.GraphKeys.GLOBAL_VARIABLES, self._scope.name + "/")

    weights = trainable_variables = trainable_weights = variables

    @property
    def name(self):
        return self._scope.name if self._scope is not None else self._name

    @property
    def kernel(self):
        return self.variables[0] if self.variables else None


class AttentionMechanism:
    """Base class of the attention mechanisms `AttentionWrapper` accepts."""

    @property
    def alignments_size(self):
        raise NotImplementedError

    @property
    def state_size(self):
        raise NotImplementedError


def _dim(tensor, axis):
    return tf.compat.dimension_value(tensor.shape[axis]) or tf.shape(tensor)[axis]


def _prepare_memory(memory, memory_sequence_length, check_inner_dims_defined):
    """Memory as tensors, entries past each sequence length zeroed."""
    memory = tf.nest.map_structure(lambda m: tf.convert_to_tensor(m, name="memory"), memory)
    if memory_sequence_length is not None:
        memory_sequence_length = tf.convert_to_tensor(memory_sequence_length,
                                                      name="memory_sequence_length")
    if check_inner_dims_defined:
        for m in tf.nest.flatten(memory):
            if not m.shape[2:].is_fully_defined():
                raise ValueError("Expected memory %s to have fully defined inner dims, but saw "
                                 "shape: %s" % (m.name, m.shape))
    if memory_sequence_length is None:
        return memory
    first = tf.nest.flatten(memory)[0]
    mask = tf.sequence_mask(memory_sequence_length, maxlen=tf.shape(first)[1], dtype=first.dtype)
    lengths_batch = _dim(memory_sequence_length, 0)

    def masked(m):
        rank = m.shape.rank if m.shape.rank is not None else tf.rank(m)
        check = v1.assert_equal(lengths_batch, _dim(m, 0), message=(
            "memory_sequence_length and memory tensor batch sizes do not match."))
        with tf.control_dependencies([check]):
            m_mask = tf.reshape(mask, tf.concat((tf.shape(mask), tf.ones(rank - 2, tf.int32)), 0))
            return m * m_mask
    return tf.nest.map_structure(masked, memory)


def _mask_score(score, memory_sequence_length, score_mask_value):
    if memory_sequence_length is None:
        return score
    check = v1.assert_positive(memory_sequence_length, message=(
        "All values in memory_sequence_length must greater than zero."))
    with tf.control_dependencies([check]):
        mask = tf.sequence_mask(memory_sequence_length, maxlen=tf.shape(score)[1])
        return tf.where(mask, score, score_mask_value * tf.ones_like(score))


def _zero_alignments(size, batch_size, dtype):
    zeros = tf.zeros(tf.stack([batch_size, size]), dtype)
    zeros.set_shape([tf.get_static_value(batch_size) if tf.is_tensor(batch_size)
                     else batch_size, tf.get_static_value(size) if tf.is_tensor(size) else size])
    return zeros


class _BaseAttentionMechanism(AttentionMechanism):
    """Keys = memory_layer(memory) (masked by length); scores masked by length before
    `probability_fn(score, previous_alignments)`."""

    def __init__(self, query_layer, memory, probability_fn, memory_sequence_length=None,
                 memory_layer=None, check_inner_dims_defined=True, score_mask_value=None,
                 custom_key_value_fn=None, name=None):
        for what, layer in (("query_layer", query_layer), ("memory_layer", memory_layer)):
            if layer is not None and not callable(layer):
                raise TypeError("%s is not a Layer: %s" % (what, type(layer).__name__))
        self._query_layer, self._memory_layer = query_layer, memory_layer
        self.dtype = memory_layer.dtype
        if not callable(probability_fn):
            raise TypeError("probability_fn must be callable, saw type: %s"
                            % type(probability_fn).__name__)
        if score_mask_value is None:
            score_mask_value = tf.as_dtype(self._memory_layer.dtype).as_numpy_dtype(-np.inf)
        self._probability_fn = lambda score, prev: probability_fn(
            _mask_score(score, memory_sequence_length, score_mask_value), prev)
        with tf.name_scope(name or "BaseAttentionMechanismInit"):
            self._values = _prepare_memory(memory, memory_sequence_length,
                                           check_inner_dims_defined)
            self._keys = self._memory_layer(self._values) if self._memory_layer else self._values
            if custom_key_value_fn is not None:
                self._keys, self._values = custom_key_value_fn(self._keys, self._values)
            self._batch_size = _dim(self._keys, 0)
            self._alignments_size = _dim(self._keys, 1)

    memory_layer = property(lambda self: self._memory_layer)
    query_layer = property(lambda self: self._query_layer)
    values = property(lambda self: self._values)
    keys = property(lambda self: self._keys)
    batch_size = property(lambda self: self._batch_size)
    alignments_size = property(lambda self: self._alignments_size)
    state_size = property(lambda self: self._alignments_size)

    def initial_alignments(self, batch_size, dtype):
        """Zeros [batch_size, max_time]."""
        return _zero_alignments(self._alignments_size, batch_size, dtype)

    def initial_state(self, batch_size, dtype):
        return self.initial_alignments(batch_size, dtype)


def _luong_score(query, keys, scale):
    depth, key_units = query.shape[-1], keys.shape[-1]
    if depth != key_units:
        raise ValueError(
            "Incompatible or unknown inner dimensions between query and keys.  Query (%s) has "
            "units: %s.  Keys (%s) have units: %s.  Perhaps you need to set num_units to the "
            "keys' dimension (%s)?" % (query, depth, keys, key_units, key_units))
    score = tf.squeeze(tf.matmul(tf.expand_dims(query, 1), keys, transpose_b=True), [1])
    if scale:
        g = v1.get_variable("attention_g", dtype=query.dtype, shape=(),
                            initializer=v1.ones_initializer())
        score = g * score
    return score


def _bahdanau_score(processed_query, keys, normalize):
    dtype = processed_query.dtype
    num_units = _dim(keys, 2)
    processed_query = tf.expand_dims(processed_query, 1)
    v = v1.get_variable("attention_v", [num_units], dtype=dtype)
    if not normalize:
        return tf.reduce_sum(v * tf.tanh(keys + processed_query), [2])
    g = v1.get_variable("attention_g", dtype=dtype, shape=(),
                        initializer=v1.constant_initializer(np.sqrt(1.0 / num_units)))
    b = v1.get_variable("attention_b", [num_units], dtype=dtype,
                        initializer=v1.zeros_initializer())
    normed_v = g * v * tf.math.rsqrt(tf.reduce_sum(tf.square(v)))
    return tf.reduce_sum(normed_v * tf.tanh(keys + processed_query + b), [2])


class LuongAttention(_BaseAttentionMechanism):
    """Multiplicative attention: score = query . keys (times a learned `attention_g` with
    `scale`)."""

    def __init__(self, num_units, memory, memory_sequence_length=None, scale=False,
                 probability_fn=None, score_mask_value=None, dtype=None,
                 custom_key_value_fn=None, name="LuongAttention"):
        probability_fn = probability_fn or tf.nn.softmax
        super().__init__(
            query_layer=None, memory_layer=Projection(num_units, "memory_layer", dtype),
            memory=memory, probability_fn=lambda score, _: probability_fn(score),
            memory_sequence_length=memory_sequence_length, score_mask_value=score_mask_value,
            custom_key_value_fn=custom_key_value_fn, name=name)
        self._num_units, self._scale, self._name = num_units, scale, name

    def __call__(self, query, state):
        with v1.variable_scope(None, "luong_attention", [query]):
            score = _luong_score(query, self._keys, self._scale)
        alignments = self._probability_fn(score, state)
        return alignments, alignments


class BahdanauAttention(_BaseAttentionMechanism):
    """Additive attention: score = v . tanh(keys + query_layer(query)) (weight-normalized
    with `normalize`)."""

    def __init__(self, num_units, memory, memory_sequence_length=None, normalize=False,
                 probability_fn=None, score_mask_value=None, dtype=None,
                 custom_key_value_fn=None, name="BahdanauAttention"):
        probability_fn = probability_fn or tf.nn.softmax
        super().__init__(
            query_layer=Projection(num_units, "query_layer", dtype),
            memory_layer=Projection(num_units, "memory_layer", dtype),
            memory=memory, probability_fn=lambda score, _: probability_fn(score),
            memory_sequence_length=memory_sequence_length, score_mask_value=score_mask_value,
            custom_key_value_fn=custom_key_value_fn, name=name)
        self._num_units, self._normalize, self._name = num_units, normalize, name

    def __call__(self, query, state):
        with v1.variable_scope(None, "bahdanau_attention", [query]):
            processed = self.query_layer(query) if self.query_layer else query
            score = _bahdanau_score(processed, self._keys, self._normalize)
        alignments = self._probability_fn(score, state)
        return alignments, alignments


def safe_cumprod(x, *args, **kwargs):
    """cumprod computed as exp(cumsum(log(x))), x clipped to [tiny, 1] (no 0 * inf)."""
    with tf.name_scope("SafeCumprod"):
        x = tf.convert_to_tensor(x, name="x")
        tiny = np.finfo(x.dtype.as_numpy_dtype).tiny
        return tf.exp(tf.cumsum(tf.math.log(tf.clip_by_value(x, tiny, 1)), *args, **kwargs))


def monotonic_attention(p_choose_i, previous_attention, mode):
    """The expected monotonic alignment given choosing probabilities and the previous
    attention; `mode` 'recursive' (tf.scan), 'parallel' (cumprod / cumsum) or 'hard'."""
    p_choose_i = tf.convert_to_tensor(p_choose_i, name="p_choose_i")
    previous_attention = tf.convert_to_tensor(previous_attention, name="previous_attention")
    if mode == "recursive":
        batch_size = _dim(p_choose_i, 0)
        shifted = tf.concat([tf.ones((batch_size, 1), p_choose_i.dtype),
                             1 - p_choose_i[:, :-1]], 1)
        q = tf.scan(lambda x, yz: tf.reshape(yz[0] * x + yz[1], (batch_size,)),
                    [tf.transpose(shifted), tf.transpose(previous_attention)],
                    tf.zeros((batch_size,), p_choose_i.dtype))
        return p_choose_i * tf.transpose(q)
    if mode == "parallel":
        cumprod_1mp = safe_cumprod(1 - p_choose_i, axis=1, exclusive=True)
        return p_choose_i * cumprod_1mp * tf.cumsum(
            previous_attention / tf.clip_by_value(cumprod_1mp, 1e-10, 1.), axis=1)
    if mode == "hard":
        p_choose_i = p_choose_i * tf.cumsum(previous_attention, axis=1)
        return p_choose_i * tf.math.cumprod(1 - p_choose_i, axis=1, exclusive=True)
    raise ValueError("mode must be 'recursive', 'parallel', or 'hard'.")


def _monotonic_probability_fn(score, previous_alignments, sigmoid_noise, mode, seed=None):
    if sigmoid_noise > 0:
        score += sigmoid_noise * v1.random_normal(tf.shape(score), dtype=score.dtype, seed=seed)
    if mode == "hard":
        p_choose_i = tf.cast(score > 0, score.dtype)
    else:
        p_choose_i = tf.sigmoid(score)
    return monotonic_attention(p_choose_i, previous_alignments, mode)


class _BaseMonotonicAttentionMechanism(_BaseAttentionMechanism):
    """Monotonic mechanisms start attending to the first memory entry."""

    def initial_alignments(self, batch_size, dtype):
        return tf.one_hot(tf.zeros((batch_size,), tf.int32), self._alignments_size, dtype=dtype)


class BahdanauMonotonicAttention(_BaseMonotonicAttentionMechanism):
    """Bahdanau scores plus a learned `attention_score_bias`, through monotonic attention."""

    def __init__(self, num_units, memory, memory_sequence_length=None, normalize=False,
                 score_mask_value=None, sigmoid_noise=0., sigmoid_noise_seed=None,
                 score_bias_init=0., mode="parallel", dtype=None,
                 name="BahdanauMonotonicAttention"):
        probability_fn = functools.partial(_monotonic_probability_fn,
                                           sigmoid_noise=sigmoid_noise, mode=mode,
                                           seed=sigmoid_noise_seed)
        super().__init__(
            query_layer=Projection(num_units, "query_layer", dtype),
            memory_layer=Projection(num_units, "memory_layer", dtype),
            memory=memory, probability_fn=probability_fn,
            memory_sequence_length=memory_sequence_length, score_mask_value=score_mask_value,
            name=name)
        self._num_units, self._normalize, self._name = num_units, normalize, name
        self._score_bias_init = score_bias_init

    def __call__(self, query, state):
        with v1.variable_scope(None, "bahdanau_monotonic_attention", [query]):
            processed = self.query_layer(query) if self.query_layer else query
            score = _bahdanau_score(processed, self._keys, self._normalize)
            score += v1.get_variable("attention_score_bias", dtype=processed.dtype,
                                     initializer=self._score_bias_init)
        alignments = self._probability_fn(score, state)
        return alignments, alignments


class LuongMonotonicAttention(_BaseMonotonicAttentionMechanism):
    """Luong scores plus a learned `attention_score_bias`, through monotonic attention."""

    def __init__(self, num_units, memory, memory_sequence_length=None, scale=False,
                 score_mask_value=None, sigmoid_noise=0., sigmoid_noise_seed=None,
                 score_bias_init=0., mode="parallel", dtype=None,
                 name="LuongMonotonicAttention"):
        probability_fn = functools.partial(_monotonic_probability_fn,
                                           sigmoid_noise=sigmoid_noise, mode=mode,
                                           seed=sigmoid_noise_seed)
        super().__init__(
            query_layer=None, memory_layer=Projection(num_units, "memory_layer", dtype),
            memory=memory, probability_fn=probability_fn,
            memory_sequence_length=memory_sequence_length, score_mask_value=score_mask_value,
            name=name)
        self._num_units, self._scale, self._name = num_units, scale, name
        self._score_bias_init = score_bias_init

    def __call__(self, query, state):
        with v1.variable_scope(None, "luong_monotonic_attention", [query]):
            score = _luong_score(query, self._keys, self._scale)
            score += v1.get_variable("attention_score_bias", dtype=query.dtype,
                                     initializer=self._score_bias_init)
        alignments = self._probability_fn(score, state)
        return alignments, alignments


def hardmax(logits, name=None):
    """one_hot(argmax(logits, -1)): a hard probability_fn."""
    with tf.name_scope(name or "Hardmax"):
        logits = tf.convert_to_tensor(logits, name="logits")
        depth = tf.compat.dimension_value(logits.shape[-1])
        if depth is None:
            depth = tf.shape(logits)[-1]
        return tf.one_hot(tf.argmax(logits, -1), depth, dtype=logits.dtype)
