"""The sampling helpers a `BasicDecoder` asks what to feed next (TF 1.15's
`tf.contrib.seq2seq.*Helper`): teacher forcing (`TrainingHelper`), scheduled sampling of ids
or outputs, greedy / sampled embedding lookups for inference, and user functions
(`InferenceHelper`, `CustomHelper`)."""
import abc

import tensorflow as tf

v1 = tf.compat.v1


def _embedding_fn(embedding):
    if callable(embedding):
        return embedding
    params = tf.convert_to_tensor(embedding, name="embedding")
    return lambda ids: tf.nn.embedding_lookup(params, ids)


def _time_major_arrays(inputs):
    """[batch, time, ...] nest -> TensorArrays over time (already time major: as given)."""
    return tf.nest.map_structure(
        lambda x: tf.TensorArray(x.dtype, size=tf.shape(x)[0],
                                 element_shape=x.shape[1:]).unstack(x), inputs)


def _to_time_major(x):
    x = tf.convert_to_tensor(x, name="inputs")
    rank = x.shape.rank
    if rank is not None and rank < 2:
        raise ValueError("Expected inputs of rank >= 2 ([batch, time, ...]), saw shape %s"
                         % x.shape)
    perm = [1, 0] + list(range(2, rank)) if rank is not None else \
        tf.concat([[1, 0], tf.range(2, tf.rank(x))], 0)
    return tf.transpose(x, perm)


def _uniform_bool(batch_size, value):
    return tf.tile([value], [batch_size])


class Helper(abc.ABC):
    """The interface `BasicDecoder` uses: `initialize()`, `sample(time, outputs, state)` and
    `next_inputs(time, outputs, state, sample_ids)` -> (finished, next_inputs, next_state)."""

    @property
    @abc.abstractmethod
    def batch_size(self):
        raise NotImplementedError

    @property
    @abc.abstractmethod
    def sample_ids_shape(self):
        raise NotImplementedError

    @property
    @abc.abstractmethod
    def sample_ids_dtype(self):
        raise NotImplementedError

    @abc.abstractmethod
    def initialize(self, name=None):
        raise NotImplementedError

    @abc.abstractmethod
    def sample(self, time, outputs, state, name=None):
        raise NotImplementedError

    @abc.abstractmethod
    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        raise NotImplementedError


class CustomHelper(Helper):
    """A helper from three functions: `initialize_fn()` -> (finished, inputs),
    `sample_fn(time, outputs, state)` and `next_inputs_fn(time, outputs, state, sample_ids)`."""

    def __init__(self, initialize_fn, sample_fn, next_inputs_fn, sample_ids_shape=None,
                 sample_ids_dtype=None):
        self._initialize_fn, self._sample_fn = initialize_fn, sample_fn
        self._next_inputs_fn = next_inputs_fn
        self._batch_size = None
        self._sample_ids_shape = tf.TensorShape(sample_ids_shape or [])
        self._sample_ids_dtype = sample_ids_dtype or tf.int32

    @property
    def batch_size(self):
        if self._batch_size is None:
            raise ValueError("batch_size accessed before initialize was called")
        return self._batch_size

    sample_ids_shape = property(lambda self: self._sample_ids_shape)
    sample_ids_dtype = property(lambda self: self._sample_ids_dtype)

    def initialize(self, name=None):
        with tf.name_scope(name or "CustomHelperInitialize"):
            finished, next_inputs = self._initialize_fn()
            if self._batch_size is None:
                self._batch_size = tf.size(finished)
        return finished, next_inputs

    def sample(self, time, outputs, state, name=None):
        with tf.name_scope(name or "CustomHelperSample"):
            return self._sample_fn(time=time, outputs=outputs, state=state)

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        with tf.name_scope(name or "CustomHelperNextInputs"):
            return self._next_inputs_fn(time=time, outputs=outputs, state=state,
                                        sample_ids=sample_ids)


class TrainingHelper(Helper):
    """Teacher forcing: step t reads `inputs[:, t]`; an entry finishes at its
    `sequence_length`. Sample ids are the argmax of the outputs."""

    def __init__(self, inputs, sequence_length, time_major=False, name=None):
        with tf.name_scope(name or "TrainingHelper"):
            inputs = tf.nest.map_structure(lambda x: tf.convert_to_tensor(x, name="inputs"),
                                           inputs)
            if not time_major:
                inputs = tf.nest.map_structure(_to_time_major, inputs)
            self._input_tas = _time_major_arrays(inputs)
            self._sequence_length = tf.convert_to_tensor(sequence_length,
                                                         name="sequence_length")
            if self._sequence_length.shape.rank != 1:
                raise ValueError("Expected sequence_length to be a vector, but received shape: "
                                 "%s" % self._sequence_length.shape)
            self._zero_inputs = tf.nest.map_structure(lambda x: tf.zeros_like(x[0, :]), inputs)
            self._batch_size = tf.size(self._sequence_length)

    @property
    def inputs(self):
        return self._input_tas

    @property
    def sequence_length(self):
        return self._sequence_length

    batch_size = property(lambda self: self._batch_size)
    sample_ids_shape = property(lambda self: tf.TensorShape([]))
    sample_ids_dtype = property(lambda self: tf.int32)

    def _read(self, time, all_finished):
        return tf.cond(all_finished, lambda: self._zero_inputs,
                       lambda: tf.nest.map_structure(lambda ta: ta.read(time), self._input_tas))

    def initialize(self, name=None):
        with tf.name_scope(name or "TrainingHelperInitialize"):
            finished = tf.equal(0, self._sequence_length)
            return finished, self._read(0, tf.reduce_all(finished))

    def sample(self, time, outputs, state, name=None):
        with tf.name_scope(name or "TrainingHelperSample"):
            return tf.cast(tf.argmax(outputs, axis=-1), tf.int32)

    def next_inputs(self, time, outputs, state, name=None, **unused_kwargs):
        with tf.name_scope(name or "TrainingHelperNextInputs"):
            next_time = time + 1
            finished = next_time >= self._sequence_length
            return finished, self._read(next_time, tf.reduce_all(finished)), state


def _check_sampling_probability(probability):
    probability = tf.convert_to_tensor(probability, name="sampling_probability")
    if probability.shape.rank not in (0, 1):
        raise ValueError("sampling_probability must be either a scalar or a vector. saw shape: "
                         "%s" % probability.shape)
    return probability


class ScheduledEmbeddingTrainingHelper(TrainingHelper):
    """Teacher forcing, except that with `sampling_probability` an entry's next input is the
    embedding of an id sampled from its logits (sample id -1 where the true input is fed)."""

    def __init__(self, inputs, sequence_length, embedding, sampling_probability,
                 time_major=False, seed=None, scheduling_seed=None, name=None):
        with tf.name_scope(name or "ScheduledEmbeddingSamplingWrapper"):
            self._embedding_fn = _embedding_fn(embedding)
            self._sampling_probability = _check_sampling_probability(sampling_probability)
            self._seed, self._scheduling_seed = seed, scheduling_seed
            super().__init__(inputs, sequence_length, time_major=time_major)

    def initialize(self, name=None):
        return super().initialize(name=name or "ScheduledEmbeddingTrainingHelperInitialize")

    def sample(self, time, outputs, state, name=None):
        with tf.name_scope(name or "ScheduledEmbeddingTrainingHelperSample"):
            noise = v1.random_uniform([self.batch_size], seed=self._scheduling_seed)
            use_sample = self._sampling_probability > noise
            sampled = tf.cast(v1.multinomial(outputs, 1, seed=self._seed)[:, 0], tf.int32)
            return v1.where(use_sample, sampled, tf.fill([self.batch_size], -1))

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        with tf.name_scope(name or "ScheduledEmbeddingTrainingHelperNextInputs"):
            finished, base_next_inputs, state = super().next_inputs(time, outputs, state)

            def mix():
                sampling = tf.cast(tf.where(sample_ids > -1), tf.int32)
                not_sampling = tf.cast(tf.where(sample_ids <= -1), tf.int32)
                embedded = self._embedding_fn(tf.gather_nd(sample_ids, sampling))
                kept = tf.gather_nd(base_next_inputs, not_sampling)
                shape = tf.shape(base_next_inputs)
                return (tf.scatter_nd(sampling, embedded, shape) +
                        tf.scatter_nd(not_sampling, kept, shape))
            next_inputs = tf.cond(tf.reduce_all(finished), lambda: base_next_inputs, mix)
            return finished, next_inputs, state


class ScheduledOutputTrainingHelper(TrainingHelper):
    """Teacher forcing, except that with `sampling_probability` an entry's next input is its
    own output (through `next_inputs_fn`), `auxiliary_inputs` concatenated to either; sample
    ids are booleans: True where the output was fed."""

    def __init__(self, inputs, sequence_length, sampling_probability, time_major=False,
                 seed=None, next_inputs_fn=None, auxiliary_inputs=None, name=None):
        with tf.name_scope(name or "ScheduledOutputTrainingHelper"):
            self._sampling_probability = _check_sampling_probability(sampling_probability)
            if auxiliary_inputs is None:
                fed = inputs
            else:
                inputs = tf.nest.map_structure(tf.convert_to_tensor, inputs)
                auxiliary_inputs = tf.nest.map_structure(tf.convert_to_tensor, auxiliary_inputs)
                fed = tf.nest.map_structure(lambda x, y: tf.concat((x, y), -1), inputs,
                                            auxiliary_inputs)
                if not time_major:
                    auxiliary_inputs = tf.nest.map_structure(_to_time_major, auxiliary_inputs)
            self._auxiliary_input_tas = (None if auxiliary_inputs is None
                                         else _time_major_arrays(auxiliary_inputs))
            self._seed = seed
            self._next_inputs_fn = next_inputs_fn
            super().__init__(fed, sequence_length, time_major=time_major)

    sample_ids_dtype = property(lambda self: tf.bool)

    def initialize(self, name=None):
        return super().initialize(name=name or "ScheduledOutputTrainingHelperInitialize")

    def sample(self, time, outputs, state, name=None):
        with tf.name_scope(name or "ScheduledOutputTrainingHelperSample"):
            noise = v1.random_uniform([self.batch_size], seed=self._seed)
            return noise < self._sampling_probability

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        with tf.name_scope(name or "ScheduledOutputTrainingHelperNextInputs"):
            finished, base_next_inputs, state = super().next_inputs(time, outputs, state)
            sample_ids = tf.cast(sample_ids, tf.bool)

            def with_auxiliary(values, indices=None):
                if self._auxiliary_input_tas is None:
                    return values
                auxiliary = tf.nest.map_structure(lambda ta: ta.read(time + 1),
                                                  self._auxiliary_input_tas)
                if indices is not None:
                    auxiliary = tf.nest.map_structure(lambda a: tf.gather_nd(a, indices),
                                                      auxiliary)
                return tf.nest.map_structure(lambda x, y: tf.concat((x, y), -1), values,
                                             auxiliary)

            def mix():
                sampling = tf.cast(tf.where(sample_ids), tf.int32)
                not_sampling = tf.cast(tf.where(tf.logical_not(sample_ids)), tf.int32)
                fed_outputs = tf.gather_nd(outputs, sampling)
                if self._next_inputs_fn is not None:
                    fed_outputs = self._next_inputs_fn(fed_outputs)
                fed_outputs = with_auxiliary(fed_outputs, sampling)
                kept = tf.gather_nd(base_next_inputs, not_sampling)
                shape = tf.shape(base_next_inputs)
                return (tf.scatter_nd(sampling, fed_outputs, shape) +
                        tf.scatter_nd(not_sampling, kept, shape))
            skip = tf.logical_or(tf.reduce_all(finished),
                                 tf.logical_not(tf.reduce_any(sample_ids)))
            next_inputs = tf.cond(skip, lambda: base_next_inputs, mix)
            return finished, next_inputs, state


class GreedyEmbeddingHelper(Helper):
    """Inference: the next input is the embedding of the argmax id; an entry finishes when it
    emits `end_token`."""

    def __init__(self, embedding, start_tokens, end_token):
        self._embedding_fn = _embedding_fn(embedding)
        self._start_tokens = tf.convert_to_tensor(start_tokens, tf.int32, name="start_tokens")
        self._end_token = tf.convert_to_tensor(end_token, tf.int32, name="end_token")
        if self._start_tokens.shape.rank != 1:
            raise ValueError("start_tokens must be a vector")
        self._batch_size = tf.size(start_tokens)
        if self._end_token.shape.rank != 0:
            raise ValueError("end_token must be a scalar")
        self._start_inputs = self._embedding_fn(self._start_tokens)

    batch_size = property(lambda self: self._batch_size)
    sample_ids_shape = property(lambda self: tf.TensorShape([]))
    sample_ids_dtype = property(lambda self: tf.int32)

    def initialize(self, name=None):
        return _uniform_bool(self._batch_size, False), self._start_inputs

    def _pick(self, outputs):
        return tf.argmax(outputs, axis=-1, output_type=tf.int32)

    def sample(self, time, outputs, state, name=None):
        if not tf.is_tensor(outputs):
            raise TypeError("Expected outputs to be a single Tensor, got: %s" % type(outputs))
        return self._pick(outputs)

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        finished = tf.equal(sample_ids, self._end_token)
        next_inputs = tf.cond(tf.reduce_all(finished), lambda: self._start_inputs,
                              lambda: self._embedding_fn(sample_ids))
        return finished, next_inputs, state


class SampleEmbeddingHelper(GreedyEmbeddingHelper):
    """Inference: the next id is sampled from softmax(outputs / softmax_temperature)."""

    def __init__(self, embedding, start_tokens, end_token, softmax_temperature=None,
                 seed=None):
        super().__init__(embedding, start_tokens, end_token)
        self._softmax_temperature = softmax_temperature
        self._seed = seed

    def _pick(self, outputs):
        logits = outputs if self._softmax_temperature is None else \
            outputs / self._softmax_temperature
        return tf.cast(v1.multinomial(logits, 1, seed=self._seed)[:, 0], tf.int32)


class InferenceHelper(Helper):
    """Inference on outputs, not ids: `sample_fn(outputs)` gives the sample, the next input is
    it (or `next_inputs_fn(sample)`), and `end_fn(sample)` says which entries finished."""

    def __init__(self, sample_fn, sample_shape, sample_dtype, start_inputs, end_fn,
                 next_inputs_fn=None):
        self._sample_fn, self._end_fn = sample_fn, end_fn
        self._sample_shape = tf.TensorShape(sample_shape)
        self._sample_dtype = sample_dtype
        self._next_inputs_fn = next_inputs_fn
        self._batch_size = tf.shape(start_inputs)[0]
        self._start_inputs = tf.convert_to_tensor(start_inputs, name="start_inputs")

    batch_size = property(lambda self: self._batch_size)
    sample_ids_shape = property(lambda self: self._sample_shape)
    sample_ids_dtype = property(lambda self: self._sample_dtype)

    def initialize(self, name=None):
        return _uniform_bool(self._batch_size, False), self._start_inputs

    def sample(self, time, outputs, state, name=None):
        return self._sample_fn(outputs)

    def next_inputs(self, time, outputs, state, sample_ids, name=None):
        next_inputs = sample_ids if self._next_inputs_fn is None else \
            self._next_inputs_fn(sample_ids)
        return self._end_fn(sample_ids), next_inputs, state
