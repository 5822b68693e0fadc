"""tf.contrib.training's samplers in a TF1 graph: rejection_sample / stratified_sample on queues
(outputs, queue runners, the queues' summaries, the class_count variable, the sampled label
distributions) and resample_at_rate / weighted_resample (Poisson counts per row, the moving
average of the weights). Sampled values come from op-level seeds that differ between TF 1.15
and here, so those cases compare statistics (with a tolerance) rather than draws."""
import numpy as np


def _queued(tf, fetch, count):
    """`count` runs of `fetch` with the queue runners started."""
    def run(sess):
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        got = [sess.run(fetch) for _ in range(count)]
        coord.request_stop()
        coord.join(threads, stop_grace_period_secs=10)
        return got
    return run


def _shape(tensor):
    """A static shape as text, "?" for an unknown dimension (TensorShape's own text differs
    between TensorFlow versions)."""
    if tensor.shape.ndims is None:
        return "unknown"
    return "[%s]" % ", ".join("?" if d is None else str(d) for d in tensor.shape.as_list())


def _graph_facts(tf, outputs):
    return {"queue_runners": [q.name for q in tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)],
            "shapes": [_shape(t) for t in outputs],
            "dtypes": [t.dtype.name for t in outputs]}


def case_rejection_sample_keeps_odd(tf):
    value = tf.train.range_input_producer(1000, shuffle=False).dequeue()
    batch = tf.contrib.training.rejection_sample(
        [value, tf.cast(value, tf.float32) * 0.5],
        lambda tensors: tf.cast(tensors[0] % 2, tf.float32), batch_size=4)
    facts = _graph_facts(tf, batch)
    run = _queued(tf, batch, 3)

    def batches(sess):
        return dict(facts, batches=[[a, b] for a, b in run(sess)])
    return batches


def case_rejection_sample_enqueue_many(tf):
    rows = tf.constant(np.arange(12).reshape(6, 2), tf.int32)
    batch = tf.contrib.training.rejection_sample(
        [rows, tf.range(6)], lambda tensors: tf.cast(tf.equal(tensors[1] % 3, 0), tf.float32),
        batch_size=4, enqueue_many=True, runtime_checks=True, prebatch_capacity=8)
    facts = _graph_facts(tf, batch)
    run = _queued(tf, batch, 2)

    def batches(sess):
        got = run(sess)
        return dict(facts, rows=[a for a, _ in got], ids=[b for _, b in got])
    return batches


def case_rejection_sample_rate(tf):
    value = tf.train.range_input_producer(100000, shuffle=False).dequeue()
    batch = tf.contrib.training.rejection_sample([value, value], lambda _: 0.3, batch_size=50)
    run = _queued(tf, batch[0], 8)

    def rate(sess):
        kept = np.concatenate(run(sess))
        return {"accepted_fraction": len(kept) / float(kept.max() + 1)}
    return rate
case_rejection_sample_rate.tolerance = {"atol": 0.05}


def _label_fractions(labels, classes):
    labels = np.concatenate(labels)
    return [float(np.mean(labels == c)) for c in range(classes)]


def case_stratified_sample_estimated(tf):
    value = tf.train.range_input_producer(100000, shuffle=False).dequeue()
    data, labels = tf.contrib.training.stratified_sample(
        [value, tf.cast(value, tf.float32)], value % 3, [0.6, 0.2, 0.2], batch_size=20)
    facts = _graph_facts(tf, data + [labels])
    run = _queued(tf, [data, labels], 20)

    def stats(sess):
        got = run(sess)
        consistent = all(np.array_equal(d[0] % 3, l) and np.array_equal(d[0], d[1])
                         for d, l in got)
        return dict(facts, consistent=consistent,
                    fractions=_label_fractions([l for _, l in got], 3))
    return stats
case_stratified_sample_estimated.tolerance = {"atol": 0.1}


def case_stratified_sample_given_init(tf):
    features = tf.constant(np.arange(16, dtype=np.float32).reshape(8, 2))
    labels = tf.constant([0, 0, 0, 0, 0, 0, 1, 1])
    data, label_batch = tf.contrib.training.stratified_sample(
        [features], labels, [0.5, 0.5], batch_size=16, init_probs=[0.75, 0.25],
        enqueue_many=True, queue_capacity=8, threads_per_queue=2, name="strat")
    facts = _graph_facts(tf, data + [label_batch])
    run = _queued(tf, [data, label_batch], 15)

    def stats(sess):
        got = run(sess)
        consistent = all(np.array_equal((d[0][:, 0] >= 12).astype(np.int32), l)
                         for d, l in got)
        return dict(facts, consistent=consistent,
                    fractions=_label_fractions([l for _, l in got], 2))
    return stats
case_stratified_sample_given_init.tolerance = {"atol": 0.15}


def case_stratified_sample_probs_rank(tf):
    tf.contrib.training.stratified_sample([tf.constant(1)], tf.constant(0), [[0.5, 0.5]], 2)
    return {}


def case_stratified_sample_probs_lengths(tf):
    tf.contrib.training.stratified_sample([tf.constant(1)], tf.constant(0), [0.5, 0.5], 2,
                                          init_probs=[0.2, 0.3, 0.5])
    return {}


def case_stratified_sample_batch_mismatch(tf):
    tf.contrib.training.stratified_sample([tf.constant([1, 2])], tf.constant([0]), [0.5, 0.5],
                                          2, enqueue_many=True)
    return {}


def case_stratified_sample_unknown_classes(tf):
    tf.contrib.training.stratified_sample([tf.constant(1)], tf.constant(0),
                                          tf.placeholder(tf.float32, [None]), 2)
    return {}


def case_stratified_sample_float_labels(tf):
    tf.contrib.training.stratified_sample([tf.constant(1)], tf.constant(0.0), [0.5, 0.5], 2)
    return {}


def case_stratified_sample_negative_probs(tf):
    tf.contrib.training.stratified_sample([tf.constant(1)], tf.constant(0), [1.5, -0.5], 2)
    return {}


def case_stratified_sample_zero_init_probability(tf):
    data, labels = tf.contrib.training.stratified_sample(
        [tf.constant([1, 2])], tf.constant([0, 1]), [0.5, 0.5], 2, init_probs=[1.0, 0.0],
        enqueue_many=True)

    def run(sess):
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        try:
            sess.run(labels)
        except tf.errors.OutOfRangeError:
            pass  # the queue closed when its runner failed
        coord.join(threads, stop_grace_period_secs=10)  # raises the runner's error
        return {}
    return run


def case_resample_at_rate_counts(tf):
    rows = tf.constant([10, 20, 30])
    pairs = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    picked, picked_pairs = tf.contrib.training.resample_at_rate(
        [rows, pairs], tf.constant([0.5, 2.0, 4.0]), seed=3)

    def counts(sess):
        totals = np.zeros(3)
        aligned = True
        for _ in range(400):
            got, got_pairs = sess.run([picked, picked_pairs])
            totals += [np.sum(got == v) for v in (10, 20, 30)]
            aligned = aligned and np.array_equal(got_pairs[:, 0], (got / 10) * 2 - 1)
        return {"mean_counts": totals / 400, "aligned": aligned, "dtype": picked.dtype.name,
                "pairs_dtype": picked_pairs.dtype.name}
    return counts
case_resample_at_rate_counts.tolerance = {"atol": 0.3}


def case_weighted_resample(tf):
    weights = tf.placeholder(tf.float32, [None])
    rows = tf.placeholder(tf.int32, [None])
    (picked,), rates = tf.contrib.training.weighted_resample([rows], weights, 2.0,
                                                             mean_decay=0.5, seed=1)
    mean = tf.local_variables()[0]

    def run(sess):
        means, consistent = [], True
        for w in ([1.0, 2.0, 3.0], [4.0, 4.0, 4.0], [1.0, 1.0, 10.0]):
            got, got_rates, got_mean = sess.run([picked, rates, mean],
                                                {weights: w, rows: [0, 1, 2]})
            means.append(got_mean)
            expected = np.array(w)[got] * 2.0 / got_mean
            consistent = consistent and np.allclose(got_rates, expected, rtol=1e-5)
        counts = np.zeros(2)
        for _ in range(300):
            got = sess.run(picked, {weights: [1.0, 3.0], rows: [0, 1]})
            counts += [np.sum(got == 0), np.sum(got == 1)]
        return {"means": means, "consistent": consistent, "mean_name": mean.op.name,
                "mean_counts": counts / 300, "dtype": rates.dtype.name}
    return run
case_weighted_resample.tolerance = {"atol": 0.3}


def case_weighted_resample_int_weights(tf):
    tf.contrib.training.weighted_resample([tf.constant([1, 2])], tf.constant([1, 2]), 1.0)
    return {}


def _int64_offsets(values):
    """int64 insertion indices (from the int64 minimum) as small ints, exact in JSON."""
    return (np.asarray(values, np.int64) - np.iinfo(np.int64).min).tolist()


def case_batch_sequences_with_states(tf):
    index = tf.train.range_input_producer(1000, shuffle=False).dequeue()
    length = tf.gather(tf.constant([5, 3, 7]), index % 3)
    sequence = tf.cast(tf.range(length), tf.float32) + 100.0 * tf.cast(index, tf.float32)
    pairs = tf.tile(tf.reshape(tf.cast(tf.range(length), tf.int64), [-1, 1]), [1, 2])
    batch = tf.contrib.training.batch_sequences_with_states(
        input_key=tf.strings.join(["k", tf.as_string(index)]),
        input_sequences={"s": sequence, "t": pairs}, input_context={"ctx": index * 10},
        input_length=length, initial_states={"st": tf.zeros([2]), "n": tf.constant(0)},
        num_unroll=2, batch_size=2, num_threads=1, capacity=10)
    state = batch.state("st")
    lengths = tf.cast(tf.reshape(batch.length, [-1, 1]), tf.float32)
    saves = [batch.save_state("st", state + 1.0 + lengths),
             batch.save_state("n", batch.state("n") + batch.length)]
    fetch = {"key": batch.key, "next_key": batch.next_key, "sequence": batch.sequence,
             "count": batch.sequence_count, "length": batch.length,
             "total": batch.total_length, "index": batch.insertion_index,
             "s": batch.sequences["s"], "t": batch.sequences["t"],
             "ctx": batch.context["ctx"], "st": state, "n": batch.state("n"),
             "size": batch.batch_size, "saved": saves}
    facts = {"queue_runners": [q.name for q in tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)],
             "shapes": {k: _shape(v) for k, v in sorted(fetch.items()) if k != "saved"},
             "sequence_names": sorted(batch.sequences), "context_names": sorted(batch.context)}

    def run(sess):
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        got = []
        for _ in range(6):
            step = sess.run(fetch)
            del step["saved"]
            step["index"] = _int64_offsets(step["index"])
            got.append(step)
        coord.request_stop()
        coord.join(threads, stop_grace_period_secs=10)
        return dict(facts, steps=got)
    return run


def case_sequence_queueing_state_saver(tf):
    key = tf.placeholder(tf.string, [])
    length = tf.placeholder(tf.int32, [])
    values = tf.placeholder(tf.float32, [None, 3])
    saver = tf.contrib.training.SequenceQueueingStateSaver(
        batch_size=2, num_unroll=2, input_length=length, input_key=key,
        input_sequences={"x": values}, input_context={"c": tf.constant([1.0, 2.0])},
        initial_states={"h": tf.ones([4])}, capacity=4, name="saver")
    batch = saver.next_batch
    save = batch.save_state("h", batch.state("h") * 2.0, name="save_h")
    facts = {"name": saver.name, "batch_size": saver.batch_size,
             "num_unroll": saver.num_unroll,
             "shapes": [_shape(t) for t in (batch.key, batch.length, batch.sequences["x"],
                                                batch.context["c"], batch.state("h"))]}

    def run(sess):
        for k, n in (("p", 4), ("q", 2), ("r", 6)):
            sess.run(saver.prefetch_op, {key: k, length: n - 1,
                                         values: np.arange(n * 3).reshape(n, 3)})
        steps = []
        for _ in range(2):
            got = sess.run({"key": batch.key, "length": batch.length, "h": batch.state("h"),
                            "x": batch.sequences["x"], "c": batch.context["c"],
                            "size": batch.batch_size, "save": save})
            del got["save"]
            steps.append(got)
        sess.run(saver.close())  # r's last segments wait for their state: no take now
        return dict(facts, steps=steps)
    return run


def _state_saver_inputs(tf, **overrides):
    args = dict(input_key=tf.constant("a"), input_sequences={"x": tf.zeros([4])},
                input_context={}, input_length=tf.constant(4),
                initial_states={"h": tf.zeros([2])}, num_unroll=2, batch_size=2)
    args.update(overrides)
    return args


def case_state_saver_int_key(tf):
    tf.contrib.training.batch_sequences_with_states(
        **_state_saver_inputs(tf, input_key=tf.constant(1)))
    return {}


def case_state_saver_int64_length(tf):
    tf.contrib.training.batch_sequences_with_states(
        **_state_saver_inputs(tf, input_length=tf.constant(4, tf.int64)))
    return {}


def case_state_saver_key_vector(tf):
    tf.contrib.training.batch_sequences_with_states(
        **_state_saver_inputs(tf, input_key=tf.constant(["a"])))
    return {}


def case_state_saver_no_states(tf):
    tf.contrib.training.batch_sequences_with_states(
        **_state_saver_inputs(tf, initial_states={}))
    return {}


def case_state_saver_no_sequences(tf):
    tf.contrib.training.batch_sequences_with_states(
        **_state_saver_inputs(tf, input_sequences={}))
    return {}


def case_state_saver_save_unknown_state(tf):
    batch = tf.contrib.training.batch_sequences_with_states(**_state_saver_inputs(tf))
    batch.save_state("nope", tf.zeros([2, 2]))
    return {}


def case_state_saver_unknown_state(tf):
    batch = tf.contrib.training.batch_sequences_with_states(**_state_saver_inputs(tf))
    batch.state("nope")
    return {}


def case_state_saver_unpadded_length(tf):
    tf.contrib.training.batch_sequences_with_states(
        **_state_saver_inputs(tf, input_sequences={"x": tf.zeros([5])},
                              input_length=tf.constant(5), pad=False))
    return {}


def case_state_saver_unique_keys(tf):
    batch = tf.contrib.training.batch_sequences_with_states(
        **_state_saver_inputs(tf, make_keys_unique=True, make_keys_unique_seed=5,
                              num_threads=1))
    save = batch.save_state("h", batch.state("h") + 1.0)
    run = _queued(tf, [batch.key, batch.next_key, save], 2)

    def keys(sess):
        got = run(sess)
        return {"keys": [k.tolist() for k, _, _ in got],
                "next_keys": [n.tolist() for _, n, _ in got]}
    return keys
