"""tf.contrib.training in a TF1 graph: train ops, gradient transforms, the evaluation loops over
checkpoints, placement strategies, parse_values and the feeding queue runner."""
import glob
import os
import tempfile

import numpy as np


def _model(tf):
    w = tf.get_variable("w", [2], initializer=tf.constant_initializer([1.0, -2.0]))
    x = tf.constant(np.array([[1.0, 2.0], [3.0, -1.0]], np.float32))
    return w, tf.reduce_sum(tf.square(tf.reduce_sum(x * w, axis=1) - 1.0))


def case_create_train_op(tf):
    w, loss = _model(tf)
    with tf.variable_scope("bn"):
        moving = tf.get_variable("moving", [], initializer=tf.zeros_initializer(),
                                 trainable=False)
    tf.add_to_collection(tf.GraphKeys.UPDATE_OPS, tf.assign_add(moving, 1.0))
    train_op = tf.contrib.training.create_train_op(
        loss, tf.train.GradientDescentOptimizer(0.05), summarize_gradients=True,
        transform_grads_fn=tf.contrib.training.clip_gradient_norms_fn(3.0))
    assert train_op in tf.get_collection(tf.GraphKeys.TRAIN_OP)

    def run(sess):
        losses = [sess.run(train_op) for _ in range(3)]
        return {"losses": losses, "w": sess.run(w), "moving": sess.run(moving),
                "step": sess.run(tf.train.get_global_step())}
    return run


def case_create_train_op_without_global_step(tf):
    w, loss = _model(tf)
    train_op = tf.contrib.training.create_train_op(
        loss, tf.train.MomentumOptimizer(0.01, 0.9), global_step=None, check_numerics=False)

    def run(sess):
        return {"loss": sess.run(train_op), "w": sess.run(w)}
    return run


def case_gradient_transforms(tf):
    w, loss = _model(tf)
    v = tf.get_variable("v", [3], initializer=tf.constant_initializer(1.0))
    emb = tf.nn.embedding_lookup(v, [0, 2])
    grads = tf.train.GradientDescentOptimizer(1.0).compute_gradients(
        loss + tf.reduce_sum(emb * 3.0), [w, v])
    multiplied = tf.contrib.training.multiply_gradients(grads, {w: 0.5, "v": 2.0})
    clipped = tf.contrib.training.clip_gradient_norms(grads, 1.0)
    summaries = tf.contrib.training.add_gradients_summaries(grads)
    return {"multiplied_w": multiplied[0][0], "multiplied_v": multiplied[1][0].values,
            "clipped_w": clipped[0][0], "clipped_v": clipped[1][0].values,
            "n_summaries": len(summaries)}


def case_multiply_gradients_empty_raises(tf):
    w, loss = _model(tf)
    grads = tf.train.GradientDescentOptimizer(1.0).compute_gradients(loss)
    return {"g": tf.contrib.training.multiply_gradients(grads, {})[0][0]}


def _checkpointed(tf, steps=(3,)):
    """A model_dir with checkpoints of w at `steps`."""
    model_dir = tempfile.mkdtemp()
    with tf.Graph().as_default():
        w = tf.get_variable("w", [2], initializer=tf.constant_initializer([1.0, -2.0]))
        step = tf.train.get_or_create_global_step()
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for s in steps:
                sess.run([tf.assign(step, s), tf.assign_add(w, [1.0, 1.0])])
                saver.save(sess, os.path.join(model_dir, "model.ckpt"), global_step=s)
    return model_dir


def case_checkpoints_iterator_and_wait(tf):
    model_dir = _checkpointed(tf, (3, 5))
    found = [os.path.basename(p) for p in
             tf.contrib.training.checkpoints_iterator(model_dir, timeout=0.1)]
    waited = tf.contrib.training.wait_for_new_checkpoint(
        model_dir, os.path.join(model_dir, "model.ckpt-5"), seconds_to_sleep=0.05, timeout=0.1)
    empty = tf.contrib.training.wait_for_new_checkpoint(tempfile.mkdtemp(), timeout=0.05)
    return {"found": found, "waited": waited, "empty": empty}


def case_evaluate_once_and_repeatedly(tf):
    model_dir = _checkpointed(tf, (3,))
    w, loss = _model(tf)
    tf.train.get_or_create_global_step()
    mean, update = tf.metrics.mean(loss)
    logdir = tempfile.mkdtemp()
    tf.summary.scalar("eval_loss", mean)
    once = tf.contrib.training.evaluate_once(
        tf.train.latest_checkpoint(model_dir), eval_ops=update, final_ops={"mean": mean},
        hooks=[tf.contrib.training.StopAfterNEvalsHook(2)])
    repeated = tf.contrib.training.evaluate_repeatedly(
        model_dir, eval_ops=update, final_ops={"mean": mean, "w": w}, eval_interval_secs=0,
        hooks=[tf.contrib.training.StopAfterNEvalsHook(3),
               tf.contrib.training.SummaryAtEndHook(log_dir=logdir)],
        max_number_of_evaluations=1)
    events = glob.glob(os.path.join(logdir, "events.out.tfevents.*"))
    tags = sorted({(e.step, v.tag) for p in events for e in tf.train.summary_iterator(p)
                   for v in e.summary.value})
    eval_step = tf.contrib.training.get_or_create_eval_step()

    def run(sess):
        return {"once": once, "repeated": repeated, "summaries": {tag: step for step, tag in tags},
                "eval_step_name": eval_step.op.name}
    return run


def case_summary_at_end_hook_needs_a_destination_raises(tf):
    tf.contrib.training.SummaryAtEndHook()
    return {}


def case_train(tf):
    w, loss = _model(tf)
    train_op = tf.contrib.training.create_train_op(loss, tf.train.GradientDescentOptimizer(0.05))
    logdir = tempfile.mkdtemp()
    final = tf.contrib.training.train(train_op, logdir,
                                      hooks=[tf.train.StopAtStepHook(last_step=4)],
                                      save_checkpoint_secs=None, save_summaries_steps=None)
    ckpt = tf.train.latest_checkpoint(logdir)

    def run(sess):
        return {"final": final, "checkpoint": os.path.basename(ckpt) if ckpt else None}
    return run


def case_train_without_logdir_raises(tf):
    w, loss = _model(tf)
    train_op = tf.contrib.training.create_train_op(loss, tf.train.GradientDescentOptimizer(0.05))
    return tf.contrib.training.train(train_op, None)


def case_placement_strategies(tf):
    tf.get_variable("a", [10, 10])
    tf.get_variable("b", [100])
    tf.get_variable("c", [3], dtype=tf.float64)
    greedy = tf.contrib.training.GreedyLoadBalancingStrategy(
        2, tf.contrib.training.byte_size_load_fn)
    random = tf.contrib.training.RandomStrategy(5, seed=7)
    ops = [v.op for v in tf.global_variables()]
    return lambda sess: {"greedy": [greedy(op) for op in ops], "random": [random(op) for op in ops],
            "bytes": [tf.contrib.training.byte_size_load_fn(op) for op in ops]}


def case_parse_values(tf):
    parse = tf.contrib.training.parse_values
    return lambda sess: {"plain": parse("a=1,b=[2,3],c=x", {"a": int, "b": int, "c": str}),
            "indexed": {str(k): v for k, v in parse("a[1]=5,a[3]=2", {"a": int})["a"].items()},
            "typed": parse("f=1,g=true,h=[1.5,2]", {"f": float, "g": bool, "h": float}),
            "unknown_ignored": parse("z=1,a=2", {"a": int}, ignore_unknown=True)}


def case_parse_values_twice_raises(tf):
    return tf.contrib.training.parse_values("a=1,a=2", {"a": int})


def case_parse_values_bad_int_raises(tf):
    return tf.contrib.training.parse_values("a=1.5", {"a": int})


def case_hparams(tf):
    hparams = tf.contrib.training.HParams(learning_rate=0.1, layers=[4, 2])
    hparams.parse("learning_rate=0.3,layers=[8,8]")
    return {"lr": hparams.learning_rate, "layers": hparams.layers}


def case_feeding_queue_runner(tf):
    queue = tf.FIFOQueue(10, [tf.float32], shapes=[[]])
    value = tf.placeholder(tf.float32, [])
    enqueue = queue.enqueue([value])
    counter = {"n": 0}

    def feed_fn():
        counter["n"] += 1
        return {value: float(counter["n"])}
    runner = tf.contrib.training.FeedingQueueRunner(queue, [enqueue], feed_fns=[feed_fn])
    tf.train.add_queue_runner(runner)
    dequeued = queue.dequeue_many(4)

    def run(sess):
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        got = sess.run(dequeued)
        coord.request_stop()
        coord.join(threads)
        return {"got": got}
    return run


def case_feeding_queue_runner_mismatched_feed_fns_raises(tf):
    queue = tf.FIFOQueue(10, [tf.float32], shapes=[[]])
    enqueue = queue.enqueue([1.0])
    return tf.contrib.training.FeedingQueueRunner(queue, [enqueue], feed_fns=[None, None])


def _queued(tf, fetch, count):
    """`count` runs of `fetch` with the queue runners started."""
    def run(sess):
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        got = [sess.run(fetch) for _ in range(count)]
        coord.request_stop()
        coord.join(threads)
        return got
    return run


def case_bucket_by_sequence_length(tf):
    # One epoch of 6 lengths fills exactly 3 batches (2 short, 4 long) whatever order the
    # queue threads run in.
    lengths = tf.train.range_input_producer(6, num_epochs=1, shuffle=False).dequeue()
    sequence = tf.fill([lengths + 1], lengths)
    out_lengths, (sequences, given) = tf.contrib.training.bucket_by_sequence_length(
        lengths + 1, [sequence, lengths], batch_size=2, bucket_boundaries=[3],
        dynamic_pad=True)
    assert sequences.shape.as_list() == [2, None]
    run = _queued(tf, [out_lengths, sequences, given], 3)

    def batches(sess):
        return {"%d" % i: {"lengths": l, "sequences": s, "given": g}
                for i, (l, s, g) in enumerate(sorted(
                    run(sess), key=lambda b: (b[0].tolist(), b[2].tolist())))}
    return batches


def case_bucket(tf):
    # One epoch of 8 values fills exactly 3 batches (evens 0,2 and 4,6; odds 1,3,5): each
    # bucket's queue runner is its own thread, so only the whole set is order-free.
    value = tf.train.range_input_producer(8, num_epochs=1, shuffle=False).dequeue()
    bucket_id, batch = tf.contrib.training.bucket(
        {"v": value, "w": tf.cast(value, tf.float32) * 0.5}, value % 2, batch_size=[2, 3],
        num_buckets=2)
    run = _queued(tf, [bucket_id, batch["v"], batch["w"]], 3)

    def batches(sess):
        return {"%d" % i: {"ids": b, "v": v, "w": w}
                for i, (b, v, w) in enumerate(sorted(
                    run(sess), key=lambda x: (x[0].tolist(), x[1].tolist())))}
    return batches
