"""tf.contrib.training's sequence state saver (`...contrib.training.python.training.
sequence_queueing_state_saver`): truncated back-propagation through long sequences.

`SequenceQueueingStateSaver` splits each input sequence into segments of `num_unroll` steps,
keyed `"{i:05d}_of_{n:05d}:{key}"`, in a TF1 barrier (TensorFlow's `Barrier` ops): a segment
is ready, and can be taken into a batch, once its state is there, which is the initial state
for the first segment and, for the others, what `NextQueuedSequenceBatch.save_state` stored
under the previous segment's `next_key` (the last one's is `"STOP:{key}"`). Ready segments
come out by insertion order (all segments of one example share its insertion index). A FIFO
queue of one token per example bounds the examples in flight to `capacity`.
`batch_sequences_with_states` pads the sequences to a multiple of `num_unroll` (`pad=True`),
optionally makes the keys unique, and adds the queue runner and the
`queue/<barrier>/ready_segment_batches_` summary as TF 1.15 did.
"""
import tensorflow as tf

v1 = tf.compat.v1
_TOKEN = 21051976  # the value of each example's token in the capacity queue
# barrier components before the sequences, contexts and states (each sorted by name)
_LENGTH, _TOTAL_LENGTH, _NEXT_KEY, _SEQUENCE, _SEQUENCE_COUNT = range(5)


def _check_rank(tensor, rank, what):
    if tensor.shape.rank is not None and tensor.shape.rank != rank:
        raise ValueError(f"Rank check failed for {what}: Shape {tensor.shape} must have rank "
                         f"{rank}")
    return tensor


class NextQueuedSequenceBatch:
    """The batch of segments a `SequenceQueueingStateSaver` took: keys, lengths, the segments'
    sequences and contexts, the states (`state(name)`) and `save_state(name, value)`, the op
    that stores each segment's new state for its sequence's next segment."""

    def __init__(self, state_saver):
        self._state_saver = state_saver

    @property
    def total_length(self):
        """int32 [batch]: each sequence's `input_length`."""
        return self._state_saver._taken[_TOTAL_LENGTH]

    @property
    def length(self):
        """int32 [batch]: the valid steps of each segment (at most `num_unroll`; the padding
        of a sequence's last segment is not counted)."""
        return self._state_saver._taken[_LENGTH]

    @property
    def next_key(self):
        """string [batch]: the key of each sequence's next segment (`"STOP:{key}"` after the
        last)."""
        return self._state_saver._taken[_NEXT_KEY]

    @property
    def key(self):
        """string [batch]: each segment's key, `"{segment:05d}_of_{count:05d}:{input_key}"`."""
        return self._state_saver._taken_keys

    @property
    def sequence(self):
        """int32 [batch]: each segment's index in its sequence."""
        return self._state_saver._taken[_SEQUENCE]

    @property
    def sequence_count(self):
        """int32 [batch]: the number of segments of each sequence."""
        return self._state_saver._taken[_SEQUENCE_COUNT]

    @property
    def insertion_index(self):
        """int64 [batch]: the barrier's insertion index of each example (its segments share
        it)."""
        return self._state_saver._taken_indices

    @property
    def batch_size(self):
        """int32 scalar: the segments in this batch (fewer than `batch_size` only with
        `allow_small_batch`)."""
        return self._state_saver._taken_batch_size

    @property
    def context(self):
        """{name: [batch, ...]}: the contexts of each segment's sequence."""
        return self._state_saver._taken_dict("context")

    @property
    def sequences(self):
        """{name: [batch, num_unroll, ...]}: the segments of the sequences."""
        return self._state_saver._taken_dict("sequences")

    def state(self, state_name):
        """[batch, ...]: the state `state_name` each segment starts from."""
        return self._state_saver._taken_states[state_name]

    def save_state(self, state_name, value, name=None):
        """The op storing `value` ([batch, ...] like the state) as the state the next segment
        of each sequence starts from (nothing is stored after a sequence's last segment)."""
        saver = self._state_saver
        if state_name not in saver._state_index:
            raise KeyError(f"state was not declared: {state_name}")
        index = saver._state_index[state_name]
        with tf.name_scope(name or f"{saver._base_name}_SaveState"):
            not_last = tf.reshape(tf.where(tf.logical_not(saver._finished)), [-1])
            keys = tf.gather(self.next_key, not_last)
            value = tf.convert_to_tensor(value, saver._component_dtypes[index],
                                         name=f"convert_{state_name}")
            expected = saver._taken_states[state_name]
            _check_rank(value, expected.shape.rank, value.name)
            checked = v1.assert_equal(
                tf.shape(value), tf.shape(expected),
                message=f"Shape of state {state_name} to save does not match the state: ")
            with tf.control_dependencies([checked]):
                value = tf.identity(value, name="shape_checked")
            return tf.raw_ops.BarrierInsertMany(
                handle=saver._barrier, keys=keys, values=tf.gather(value, not_last),
                component_index=index, name=f"BarrierInsertState_{state_name}")


class SequenceQueueingStateSaver:
    """Segments of `num_unroll` steps of each input sequence, batched `batch_size` at a time
    with the states saved for them (see the module docstring). `prefetch_op` inserts one
    example (a queue runner runs it); `next_batch` is the `NextQueuedSequenceBatch`."""

    def __init__(self, batch_size, num_unroll, input_length, input_key, input_sequences,
                 input_context, initial_states, capacity=None, allow_small_batch=False,
                 name=None):
        if not initial_states:
            raise ValueError("initial_states may not be empty: at least one state variable is "
                             "required to properly enqueue split sequences to run in separate "
                             "iterations")
        if not input_sequences:
            raise ValueError("input_sequences must have at least one sequence tensor")
        if not isinstance(num_unroll, int) or num_unroll <= 0:
            raise ValueError(f"num_unroll must be a positive int; given {num_unroll!r}")
        if not isinstance(batch_size, int) or batch_size <= 0:
            raise ValueError(f"batch_size must be a positive int; given {batch_size!r}")
        self._batch_size, self._num_unroll = batch_size, num_unroll
        self._base_name = name or "InputQueueingStateSaver"
        with tf.name_scope(self._base_name) as scope:
            self._name = scope
            key = _check_rank(tf.convert_to_tensor(input_key), 0, "input_key")
            length = _check_rank(tf.convert_to_tensor(input_length), 0, "input_length")
            if key.dtype != tf.string:
                raise TypeError(f"key dtype must be string, but received: {key.dtype!r}")
            if length.dtype != tf.int32:
                raise TypeError(f"length dtype must be int32, but received: {length.dtype!r}")
            self._sequence_names = sorted(input_sequences)
            self._context_names = sorted(input_context)
            self._state_names = sorted(initial_states)
            sequences = {k: tf.convert_to_tensor(input_sequences[k])
                         for k in self._sequence_names}
            contexts = {k: tf.convert_to_tensor(input_context[k]) for k in self._context_names}
            states = {k: tf.convert_to_tensor(initial_states[k]) for k in self._state_names}
            self._setup(key, length, sequences, contexts, states, capacity, allow_small_batch)

    # -- building ------------------------------------------------------------------------
    def _setup(self, key, length, sequences, contexts, states, capacity, allow_small_batch):
        unroll = self._num_unroll
        first = sequences[self._sequence_names[0]]
        static_length = first.shape[0] if first.shape.rank else None
        if static_length is not None and (static_length % unroll or not static_length):
            raise ValueError(f"The length of sequence {self._sequence_names[0]} ("
                             f"{static_length}) must be a nonzero multiple of num_unroll "
                             f"({unroll}); pad it (batch_sequences_with_states(pad=True)).")
        padded_length = tf.shape(first)[0]
        is_multiple = tf.logical_and(tf.equal(padded_length % unroll, 0),
                                     tf.not_equal(padded_length, 0))
        with tf.control_dependencies([v1.Assert(is_multiple, [
                f"Tensor {first.name}'s length should be a nonzero multiple of: {unroll}, but "
                "saw value: ", padded_length, ". Consider setting pad=True."])]):
            padded_length = tf.identity(padded_length, name="multiple_of_checked")
        count = padded_length // unroll
        segments = tf.range(count)
        segment_keys = tf.strings.join(
            [tf.strings.as_string(segments, width=5, fill="0"), "_of_",
             tf.strings.as_string(count, width=5, fill="0"), ":", key],
            name="StringJoinCurrentKeys")
        next_keys = tf.concat([segment_keys[1:], tf.expand_dims(
            tf.strings.join(["STOP:", key], name="StringJoinStop"), 0)], 0,
            name="concat_next_keys")
        ones = tf.ones_like(segments)
        segment_lengths = tf.minimum(unroll, tf.maximum(0, length - unroll * segments))
        per_segment = [segment_lengths, length * ones, next_keys, segments, count * ones]
        shapes = [tf.TensorShape([])] * 4 + [tf.TensorShape([])]
        for name in self._sequence_names:
            seq = _check_rank_at_least(sequences[name], 1, name)
            checked = v1.assert_equal(
                tf.shape(seq)[0], padded_length,
                message=f"Dimension 0 of sequence {name} should equal the others' length: ")
            with tf.control_dependencies([checked]):
                seq = tf.reshape(seq, tf.concat([[count, unroll], tf.shape(seq)[1:]], 0),
                                 name=f"reshape_sequences_{name}")
            per_segment.append(seq)
            shapes.append(tf.TensorShape([unroll]).concatenate(sequences[name].shape[1:]))
        for name in self._context_names:
            ctx = contexts[name]
            per_segment.append(tf.tile(tf.expand_dims(ctx, 0),
                                       tf.concat([[count], tf.ones_like(tf.shape(ctx))], 0),
                                       name=f"tile_context_{name}"))
            shapes.append(ctx.shape)
        for name in self._state_names:
            shapes.append(states[name].shape)
        for what, shape in zip(self._sequence_names + self._context_names + self._state_names,
                               shapes[5:]):
            if not shape.is_fully_defined():
                raise ValueError(f"The shape of {what} must be known when the graph is built "
                                 f"(beyond a sequence's first dimension); given {shape}. Set "
                                 "it with tensor.set_shape(...).")
        values = per_segment + [states[n] for n in self._state_names]
        self._component_dtypes = [t.dtype for t in values]
        self._component_shapes = shapes
        self._state_index = {n: len(per_segment) + i for i, n in enumerate(self._state_names)}
        self._barrier = tf.raw_ops.Barrier(component_types=self._component_dtypes,
                                           shapes=shapes, name="barrier")
        self._barrier_name = self._barrier.op.name
        self._capacity_queue = v1.FIFOQueue(capacity if capacity is not None else -1,
                                            [tf.int32], shapes=[[]], name="fifo_queue")
        # The example's token first: a full capacity queue holds its segments back. Then one
        # insert that creates every segment's key: the barrier gives the keys a call creates
        # one insertion index (the order batches take ready segments in), so all segments of
        # an example share it, whichever of the other inserts the executor runs first.
        token = self._capacity_queue.enqueue(tf.constant(_TOKEN))
        labels = (["Length", "TotalLength", "NextKey", "Sequence", "SequenceCount"] +
                  [f"Sequences_{n}" for n in self._sequence_names] +
                  [f"Context_{n}" for n in self._context_names])
        with tf.control_dependencies([token]):
            inserts = [tf.raw_ops.BarrierInsertMany(
                handle=self._barrier, keys=segment_keys, values=per_segment[0],
                component_index=0, name=f"BarrierInsert{labels[0]}")]
        with tf.control_dependencies(inserts):
            for index, (label, value) in enumerate(zip(labels[1:], per_segment[1:]), 1):
                inserts.append(tf.raw_ops.BarrierInsertMany(
                    handle=self._barrier, keys=segment_keys, values=value,
                    component_index=index, name=f"BarrierInsert{label}"))
            for name in self._state_names:
                inserts.append(tf.raw_ops.BarrierInsertMany(
                    handle=self._barrier, keys=tf.stack([segment_keys[0]]),
                    values=tf.stack([states[name]]), component_index=self._state_index[name],
                    name=f"BarrierInitialInsertState_{name}"))
        self._prefetch_op = tf.group(token, *inserts, name="StateSaverPrefetchGroup")
        self._take(allow_small_batch)

    def _take(self, allow_small_batch):
        indices, keys, values = tf.raw_ops.BarrierTakeMany(
            handle=self._barrier, num_elements=self._batch_size,
            component_types=self._component_dtypes, allow_small_batch=allow_small_batch,
            name="BarrierTakeMany")
        batch = None if allow_small_batch else self._batch_size
        for value, shape in zip(values, self._component_shapes):
            value.set_shape(tf.TensorShape([batch]).concatenate(shape))
        indices.set_shape([batch])
        keys.set_shape([batch])
        self._finished = tf.greater_equal(values[_SEQUENCE] + 1, values[_SEQUENCE_COUNT])
        done = self._capacity_queue.dequeue_many(
            tf.reduce_sum(tf.cast(self._finished, tf.int32)))
        with tf.control_dependencies([done]):
            self._taken_indices = tf.identity(indices)
            self._taken_keys = tf.identity(keys)
            self._taken = [tf.identity(v) for v in values]
            self._taken_batch_size = tf.identity(tf.shape(keys)[0], name="batch_size")
        self._taken_states = {n: self._taken[self._state_index[n]] for n in self._state_names}
        self._next_batch = NextQueuedSequenceBatch(self)

    def _taken_dict(self, part):
        names = self._sequence_names if part == "sequences" else self._context_names
        start = 5 if part == "sequences" else 5 + len(self._sequence_names)
        return {n: self._taken[start + i] for i, n in enumerate(names)}

    # -- public ----------------------------------------------------------------------------
    @property
    def name(self):
        return self._name

    @property
    def barrier(self):
        """The barrier's handle (a ref string tensor)."""
        return self._barrier

    @property
    def batch_size(self):
        return self._batch_size

    @property
    def num_unroll(self):
        return self._num_unroll

    @property
    def prefetch_op(self):
        """Inserts the next input example's segments (what the queue runner runs)."""
        return self._prefetch_op

    @property
    def next_batch(self):
        return self._next_batch

    def close(self, cancel_pending_enqueues=False, name=None):
        """Closes the barrier and the capacity queue."""
        with tf.name_scope(name or "SQSSClose") as scope:
            return tf.group(
                tf.raw_ops.BarrierClose(handle=self._barrier,
                                        cancel_pending_enqueues=cancel_pending_enqueues,
                                        name="BarrierClose"),
                self._capacity_queue.close(cancel_pending_enqueues, name="FIFOClose"),
                name=scope)


def _check_rank_at_least(tensor, rank, name):
    if tensor.shape.rank is not None and tensor.shape.rank < rank:
        raise ValueError(f"Sequence {name} must have rank at least {rank} (its first "
                         f"dimension is time); given shape {tensor.shape}")
    return tensor


def batch_sequences_with_states(input_key, input_sequences, input_context, input_length,
                                initial_states, num_unroll, batch_size, num_threads=3,
                                capacity=1000, allow_small_batch=True, pad=True,
                                make_keys_unique=False, make_keys_unique_seed=None,
                                name=None):
    """A `NextQueuedSequenceBatch` of `batch_size` segments of `num_unroll` steps of the
    input sequences (padded with zeros to a multiple of `num_unroll` when `pad`), run by a
    queue runner of `num_threads` threads; `make_keys_unique` appends a random number to each
    key (the barrier needs a key once per example)."""
    with tf.name_scope(name or "batch_sequences_with_states"):
        if not input_sequences:
            raise ValueError("input_sequences must have at least one sequence tensor")
        key = tf.convert_to_tensor(input_key)
        sequences = {k: _check_rank_at_least(tf.convert_to_tensor(v), 1, k)
                     for k, v in input_sequences.items()}
        names = sorted(sequences)
        first = tf.shape(sequences[names[0]])[0]
        for k in names[1:]:
            length = tf.shape(sequences[k])[0]
            with tf.control_dependencies([v1.Assert(tf.equal(length, first), [
                    "All sequence lengths must match, but received lengths: ", length,
                    first])]):
                sequences[k] = tf.identity(sequences[k])
        if pad:
            padded = first + (num_unroll - first % num_unroll) % num_unroll \
                if isinstance(num_unroll, int) and num_unroll > 0 else first
            for k in names:
                seq = sequences[k]
                padding = tf.zeros(tf.concat([[padded - tf.shape(seq)[0]], tf.shape(seq)[1:]],
                                             0), seq.dtype)
                padded_seq = tf.concat([seq, padding], 0)
                padded_seq.set_shape(tf.TensorShape([None]).concatenate(seq.shape[1:]))
                sequences[k] = padded_seq
        if make_keys_unique:
            if key.dtype != tf.string:
                raise TypeError(f"key dtype must be string, but received: {key.dtype!r}")
            key = tf.strings.join([key, tf.strings.as_string(v1.random_uniform(
                [], 0, 100000000, tf.int32, seed=make_keys_unique_seed))])
        saver = SequenceQueueingStateSaver(
            batch_size=batch_size, num_unroll=num_unroll, input_length=input_length,
            input_key=key, input_sequences=sequences, input_context=input_context,
            initial_states=initial_states, capacity=capacity,
            allow_small_batch=allow_small_batch)
        v1.train.add_queue_runner(v1.train.QueueRunner(
            queue=saver, enqueue_ops=[saver.prefetch_op] * num_threads,
            close_op=saver.close(), cancel_op=saver.close(cancel_pending_enqueues=True)))
        ready = tf.cast(tf.raw_ops.BarrierReadySize(handle=saver.barrier), tf.float32)
        v1.summary.scalar(f"queue/{saver._barrier_name}/ready_segment_batches_", ready)
        return saver.next_batch
