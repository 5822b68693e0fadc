"""Unrolled steps (evaluate / predict at steps_per_execution > 1) overlap where they share no
state, and keep their order where they do (engine/step_order.py)."""
import numpy as np
import tensorflow as tf

import estimator_compat as ec
from estimator_compat.engine.step_order import OrderedStep

v1 = tf.compat.v1


def _unrolled(step, steps=3):
    """An outer function running `steps` of `step` after one another, as steps.py's `exact`."""
    @tf.function(autograph=False)
    def outer(xs):
        done, outs = tf.constant(0.0), []
        for i in range(steps):
            out, done = step.after(xs[i], done)
            outs.append(out)
        return outs
    return outer


def _calls(graph):
    return [op for op in graph.get_operations() if op.type == "StatefulPartitionedCall"]


def test_steps_with_shared_state_keep_its_order_and_overlap_their_forward_passes():
    weight = tf.Variable(2.0)
    total = tf.Variable(1.0)

    def on_element(x):
        forward = tf.reduce_sum(x * weight)  # reads a variable no step writes
        total.assign(total * 3.0 + forward)  # not commutative: the order shows in the value
        tf.print("step", forward)
        return forward

    step = OrderedStep(on_element)
    outer = _unrolled(step)
    xs = tf.constant([[1.0], [2.0], [3.0]])
    outer(xs)
    expected = 1.0
    for x in (1.0, 2.0, 3.0):
        expected = expected * 3.0 + 2.0 * x
    assert total.numpy() == expected  # 1 -> 5 -> 19 -> 63

    calls = _calls(outer.get_concrete_function(xs).graph)
    assert len(calls) == 3
    for call in calls:  # no call waits on another as a whole: only the token links them
        assert not set(call.control_inputs) & set(calls)
    assert calls[1].inputs[1].op is calls[0]  # step 2's token is step 1's `done`

    inner = step._fn.get_concrete_function(tf.TensorSpec([1]), tf.TensorSpec([]))
    gate = inner.graph.get_operation_by_name("estimator_compat_after_previous_step")
    ops = inner.graph.get_operations()
    waiting = {op.type for op in ops if gate in op.control_inputs}
    assert {"AssignVariableOp", "PrintV2"} <= waiting  # the write, a stateful op of no resource
    assert {"Mul", "Sum"}.isdisjoint(waiting)  # the forward pass does not wait
    mul = [op for op in ops if op.type == "Mul"][0]
    weight_read = [t.op for t in mul.inputs if t.op.type == "ReadVariableOp"][0]
    assert gate not in weight_read.control_inputs  # nor its read of the weight


def test_a_step_alone_waits_for_nothing():
    total = tf.Variable(0.0)
    step = OrderedStep(lambda x: total.assign_add(tf.reduce_sum(x)))
    assert float(tf.function(lambda x: step(x), autograph=False)(tf.constant([4.0]))) == 4.0


def test_a_write_inside_a_cond_keeps_its_order():
    total = tf.Variable(1.0)

    def on_element(x):
        return v1.cond(tf.reduce_sum(x) > 0, lambda: total.assign(total * 3.0 + x[0]),
                       lambda: total.read_value())

    step = OrderedStep(on_element)
    outer = _unrolled(step)
    outer(tf.constant([[1.0], [2.0], [3.0]]))
    assert total.numpy() == ((1.0 * 3 + 1) * 3 + 2) * 3 + 3
    inner = step._fn.get_concrete_function(tf.TensorSpec([1]), tf.TensorSpec([]))
    gate = inner.graph.get_operation_by_name("estimator_compat_after_previous_step")
    assert [op.type for op in inner.graph.get_operations() if gate in op.control_inputs] == ["If"]


def _order_sensitive_model_fn(features, labels, mode):
    logits = v1.layers.dense(features["x"], 3)
    if mode == "infer":
        return ec.EstimatorSpec(mode, predictions={"logits": logits,
                                                   "classes": tf.argmax(logits, 1)})
    loss = v1.losses.sparse_softmax_cross_entropy(labels, logits)
    if mode == "train":
        return ec.EstimatorSpec(mode, loss=loss, train_op=v1.train.GradientDescentOptimizer(
            0.1).minimize(loss, global_step=v1.train.get_global_step()))
    running = v1.get_local_variable("running", [], initializer=v1.zeros_initializer())
    update = running.assign(running * 0.5 + tf.reduce_mean(logits))  # order-dependent
    return ec.EstimatorSpec(mode, loss=loss, eval_metric_ops={
        "running": (tf.identity(running.read_value()), update),
        "accuracy": v1.metrics.accuracy(labels, tf.argmax(logits, 1))})


def test_evaluate_at_steps_per_execution_gives_the_metrics_of_one_step_a_call(tmp_path):
    rng = np.random.RandomState(0)
    x, y = rng.normal(size=(240, 5)).astype(np.float32), rng.randint(0, 3, 240)

    def input_fn():
        return tf.data.Dataset.from_tensor_slices(({"x": x}, y)).batch(16)

    results = []
    for spe in (1, 5):
        est = ec.Estimator(_order_sensitive_model_fn, config=ec.RunConfig(
            model_dir=str(tmp_path), tf_random_seed=1, steps_per_execution=spe))
        if spe == 1:
            est.train(input_fn, steps=10)
        results.append(est.evaluate(input_fn))
    assert results[0] == results[1]


def _unknown_length(dataset):
    """The same elements, of unknown length (as a TFRecord file's): the loop form."""
    return dataset.filter(lambda *_: True)


def test_unknown_length_input_evaluates_and_predicts_as_one_step_a_call(tmp_path):
    """53 batches of unknown length (the loop form: the last call runs 3 steps, the one
    after none), and a limited evaluate (25 steps: a call of 5)."""
    rng = np.random.RandomState(1)
    x, y = rng.normal(size=(16 * 53 - 5, 5)).astype(np.float32), rng.randint(0, 3, 16 * 53 - 5)

    def input_fn(labels=True):
        data = ({"x": x}, y) if labels else {"x": x}
        return lambda: _unknown_length(tf.data.Dataset.from_tensor_slices(data).batch(16))

    got = []
    for spe in (1, 10):
        est = ec.Estimator(_order_sensitive_model_fn, config=ec.RunConfig(
            model_dir=str(tmp_path), tf_random_seed=1, steps_per_execution=spe))
        if spe == 1:
            est.train(input_fn(), steps=10)
        predictions = list(est.predict(input_fn(False), yield_single_examples=False))
        got.append((est.evaluate(input_fn()), est.evaluate(input_fn(), steps=25),
                    [len(p["classes"]) for p in predictions],
                    list(est.predict(input_fn(False)))))
    (full, limited, sizes, examples), (full10, limited10, sizes10, examples10) = got
    assert full == full10 and limited == limited10
    assert sizes == sizes10 == [16] * 52 + [11]
    assert len(examples10) == len(x)
    for a, b in zip(examples, examples10):
        assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def _traces(est, mode):
    """How often `mode`'s unrolled form was traced."""
    return est._state(None).step(mode)._functions()[1].exact.experimental_get_tracing_count()


def test_more_steps_per_execution_than_tf_data_unrolls_run_the_loop(tmp_path):
    """TPUEstimator programs pass iterations_per_loop=100 (BERT: 1000). Unrolled, a call of
    40 steps made 40 `next` calls in one trace, which tf.data refuses ("An unusually high
    number of `tf.data.Iterator.get_next()` calls"), and a thousand would give the runtime
    a thousand copies of the step to optimise: past 32 steps (or 20,000 of the step's ops)
    the call's steps run in the loop, with the same results."""
    rng = np.random.RandomState(2)
    x, y = rng.normal(size=(16 * 45, 5)).astype(np.float32), rng.randint(0, 3, 16 * 45)

    def input_fn():
        return tf.data.Dataset.from_tensor_slices(({"x": x}, y)).batch(16)  # known: 45

    results = []
    for spe in (1, 40, 8):
        est = ec.Estimator(_order_sensitive_model_fn, config=ec.RunConfig(
            model_dir=str(tmp_path), tf_random_seed=1, steps_per_execution=spe))
        if spe == 1:
            est.train(input_fn, steps=3)
        results.append(est.evaluate(input_fn))
        if spe > 1:
            assert _traces(est, "eval") == (1 if spe == 8 else 0)
    assert results[0] == results[1] == results[2]
