"""tf.contrib.training's queue-based samplers (`...contrib.training.python.training.
sampling_ops`): `rejection_sample` keeps each example with the probability a function of it
gives, `stratified_sample` keeps each with the probability that turns the labels' distribution
(given, or estimated online in the `class_count` variable) into `target_probs`. Both batch what
they keep with TF1 queues and queue runners (`tf.compat.v1.train.batch` / `maybe_batch`, with
their `fraction_of_N_full` summaries), as TF 1.15 did: run them with
`tf.train.start_queue_runners` or a MonitoredSession."""
import tensorflow as tf

v1 = tf.compat.v1


def _tensor_list(tensors, who):
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{who} takes `tensors` as a list of tensors (TF 1.x's queues batch a "
                        f"list); given {type(tensors).__name__}. Wrap a single tensor in [ ].")
    return [tf.convert_to_tensor(t) for t in tensors]


def rejection_sample(tensors, accept_prob_fn, batch_size, queue_threads=1, enqueue_many=False,
                     prebatch_capacity=16, prebatch_threads=1, runtime_checks=False, name=None):
    """A list of batches of `tensors`, each example kept with probability
    `accept_prob_fn(example tensors)` (a scalar in [0, 1])."""
    with v1.variable_scope(name, "rejection_sample", list(tensors) if isinstance(
            tensors, (list, tuple)) else None):
        tensor_list = _tensor_list(tensors, "rejection_sample")
        if enqueue_many:
            tensor_list = _check_batch_dims(tensor_list)
            single = v1.train.batch(tensor_list, batch_size=1, num_threads=prebatch_threads,
                                    capacity=prebatch_capacity, enqueue_many=True)
            tensor_list = [tf.squeeze(t, [0]) for t in tf.nest.flatten(single)]
        accept_prob = accept_prob_fn(tensor_list)
        if runtime_checks:
            accept_prob = tf.identity(_with_deps(
                [v1.assert_less_equal(0.0, accept_prob), v1.assert_less_equal(accept_prob, 1.0)],
                accept_prob), name="prob_with_checks")
        kept = v1.train.maybe_batch(tensor_list, keep_input=v1.random_uniform([]) < accept_prob,
                                    batch_size=batch_size, num_threads=queue_threads)
        return tf.nest.flatten(kept)


def stratified_sample(tensors, labels, target_probs, batch_size, init_probs=None,
                      enqueue_many=False, queue_capacity=16, threads_per_queue=1, name=None):
    """(list of batches of `tensors`, batch of labels): examples kept so that the batches'
    labels follow `target_probs`; `init_probs` is the input's class distribution, estimated
    from the labels seen so far (counts starting at 10 per class) when None."""
    with tf.name_scope(name or "stratified_sample"):
        tensor_list = _tensor_list(tensors, "stratified_sample")
        labels = tf.convert_to_tensor(labels)
        if not labels.dtype.is_integer:
            raise TypeError(f"stratified_sample's labels are class ids (an integer tensor); "
                            f"given {labels.dtype.name}. Cast them with tf.cast(labels, "
                            f"tf.int32).")
        target_probs = tf.convert_to_tensor(target_probs, tf.float32)
        if not enqueue_many:
            tensor_list = [tf.expand_dims(t, 0) for t in tensor_list]
            labels = tf.expand_dims(labels, 0)
        if init_probs is None:
            if not target_probs.shape.is_fully_defined():
                raise ValueError(f"Shape {target_probs.shape} is not fully defined: "
                                 "stratified_sample needs the number of classes (the length of "
                                 "target_probs) when it estimates init_probs; pass init_probs "
                                 "or target_probs of a static shape.")
            init_probs = _estimate_distribution(labels, target_probs.shape.num_elements())
        else:
            init_probs = tf.convert_to_tensor(init_probs, tf.float32)
        tensor_list, labels, (init_probs, target_probs) = _verify_input(
            tensor_list, labels, [init_probs, target_probs])
        zero_ok = v1.Assert(
            tf.reduce_all(tf.logical_or(tf.not_equal(init_probs, 0), tf.equal(target_probs, 0))),
            ["All classes with zero initial probability must also have zero target "
             "probability: ", init_probs, target_probs])
        init_probs = _with_deps([zero_ok], init_probs)
        accept_probs = _acceptance_probabilities(init_probs, target_probs)
        rejected = tf.reduce_sum((1 - accept_probs) * init_probs)
        accept_probs = tf.cond(
            tf.less(rejected, 0.5), lambda: accept_probs,
            lambda: v1.Print(accept_probs, [accept_probs], first_n=10,
                             message="Proportion of examples rejected by sampler is high."))
        single = v1.train.batch(tensor_list + [labels], batch_size=1,
                                num_threads=threads_per_queue, capacity=queue_capacity,
                                enqueue_many=True)
        examples = [tf.squeeze(t, [0]) for t in single[:-1]]
        label = tf.squeeze(single[-1], [0])
        keep = v1.random_uniform([]) < tf.gather(accept_probs, label)
        kept = v1.train.maybe_batch(examples + [label], keep_input=keep, batch_size=batch_size,
                                    num_threads=threads_per_queue)
        return kept[:-1], kept[-1]


def _with_deps(deps, tensor):
    with tf.control_dependencies(deps):
        return tf.identity(tensor)


def _estimate_distribution(labels, num_classes, smoothing=10):
    """The labels' class frequencies so far, from an int64 count per class that starts at
    `smoothing` (a global, non-trainable `class_count` variable, as TF 1.15 made)."""
    counts = v1.Variable([smoothing] * num_classes, trainable=False, name="class_count",
                         dtype=tf.int64)
    seen = counts.assign_add(tf.reduce_sum(tf.one_hot(labels, num_classes, dtype=tf.int64), 0))
    seen = seen + 0  # a copy: other threads keep adding to the variable
    return tf.cast(tf.truediv(seen, tf.reduce_sum(seen)), tf.float32)


def _check_probabilities(probs):
    """Each probability >= 0 and the sum within 1e-6 of 1 (checked when run); the length."""
    probs.shape.with_rank(1)
    total = tf.reduce_sum(probs)
    checks = [v1.assert_non_negative(probs), v1.assert_less(total, 1.000001),
              v1.assert_less(0.999999, total)]
    return _with_deps(checks, probs), probs.shape[0]


def _verify_input(tensor_list, labels, probs_list):
    checked = [_check_probabilities(p) for p in probs_list]
    probs_list = [p for p, _ in checked]
    lengths = {n for _, n in checked if n is not None}
    if len(lengths) > 1:
        raise ValueError("Probability parameters must have the same length.")
    labels.shape.with_rank(1)
    batch_size = tf.shape(labels)[0]
    for t in tensor_list:
        t.shape.with_rank_at_least(1)
        labels.shape[:1].merge_with(t.shape[:1])
    checks = [v1.assert_positive(batch_size)] + \
        [v1.assert_equal(tf.shape(t)[0], batch_size) for t in tensor_list]
    labels = _with_deps(checks, labels)
    num_classes = tf.cast(tf.shape(probs_list[0])[0], labels.dtype)
    labels = _with_deps([v1.assert_non_negative(labels), v1.assert_less(labels, num_classes)],
                        labels)
    return tensor_list, labels, probs_list


def _acceptance_probabilities(init_probs, target_probs):
    """target / init scaled so the largest is 1 (a class absent from the input gets 0)."""
    ratio = target_probs / init_probs
    ratio = tf.where(tf.math.is_nan(ratio), tf.zeros_like(ratio), ratio)
    return ratio / tf.reduce_max(ratio)


def _check_batch_dims(tensor_list):
    """The tensors of one batch: the same first dimension (statically where known, else when
    run)."""
    first = tf.TensorShape([None])
    for t in tensor_list:
        t.shape.with_rank_at_least(1)
        first = first.merge_with(t.shape[:1])
    size = tf.shape(tensor_list[0])[0]
    checks = [v1.assert_equal(tf.shape(t)[0], size) for t in tensor_list[1:]]
    return [_with_deps(checks, t) for t in tensor_list] if checks else tensor_list
