"""Every form of input_fn a legacy script uses, and the arguments it may ask for."""
import numpy as np
import pytest
import tensorflow as tf

import estimator_compat as ec
from estimator_compat.legacy.contrib import lookup as contrib_lookup
from helpers import linear_data, linear_model_fn


def make(tmp_path):
    return ec.Estimator(linear_model_fn, model_dir=str(tmp_path), params={"lr": 0.1})


def test_one_shot_iterator_get_next_with_ops_after_it(tmp_path):
    x, y = linear_data()

    def input_fn():
        ds = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(64).repeat().batch(32)
        it = tf.compat.v1.data.make_one_shot_iterator(ds)
        xs, ys = it.get_next()
        return {"x": tf.reshape(xs, [-1, 3]) * 1.0}, ys
    est = make(tmp_path)
    est.train(input_fn, steps=150)
    np.testing.assert_allclose(est.get_variable_value("linear/w")[:, 0], [1, -2, 0.5], atol=0.1)


def test_one_shot_iterator_exhausts(tmp_path):
    x, y = linear_data(64)

    def input_fn():
        ds = tf.data.Dataset.from_tensor_slices(({"x": x}, y)).batch(16)
        return tf.compat.v1.data.make_one_shot_iterator(ds).get_next()
    est = make(tmp_path)
    est.train(input_fn, steps=100)
    assert est.get_variable_value("global_step") == 4


@pytest.mark.parametrize("method", ["make_one_shot_iterator", "make_initializable_iterator"])
def test_tf1_dataset_iterator_methods(tmp_path, method):
    """TF 1.x's `dataset.make_one_shot_iterator()` (a method of the V1 dataset classes), and an
    initializable iterator whose initializer the input_fn puts in TABLE_INITIALIZERS."""
    x, y = linear_data(64)

    def input_fn():
        ds = tf.compat.v1.data.Dataset.from_tensor_slices(({"x": x}, y)).batch(16)
        iterator = getattr(ds.map(lambda f, l: (f, l * 1.0)), method)()
        if method == "make_initializable_iterator":
            tf.compat.v1.add_to_collection(tf.compat.v1.GraphKeys.TABLE_INITIALIZERS,
                                           iterator.initializer)
        return iterator.get_next()
    est = make(tmp_path)
    est.train(input_fn, steps=100)
    assert est.get_variable_value("global_step") == 4


def test_tensors_tuple_and_features_only_dataset(tmp_path):
    x, y = linear_data(32)
    est = make(tmp_path)
    est.train(lambda: ({"x": tf.constant(x)}, tf.constant(y)), steps=3)
    assert est.get_variable_value("global_step") == 3
    preds = list(est.predict(lambda: tf.data.Dataset.from_tensor_slices({"x": x}).batch(8)))
    assert len(preds) == 32


def test_input_fn_receives_params_mode_config(tmp_path):
    seen = []

    def input_fn(params, mode, config):
        seen.append((params["lr"], mode, config.model_dir))
        x, y = linear_data(32)
        return tf.data.Dataset.from_tensor_slices(({"x": x}, y)).batch(8)
    est = make(tmp_path)
    est.train(input_fn, steps=1)
    est.evaluate(input_fn)
    assert seen == [(0.1, "train", str(tmp_path)), (0.1, "eval", str(tmp_path))]


@pytest.mark.parametrize("bad", [lambda: 3, lambda: "data", lambda: (1, 2, 3)])
def test_unusable_input_fn_result(tmp_path, bad):
    with pytest.raises(ValueError, match="input_fn"):
        make(tmp_path).train(bad, steps=1)


def test_three_tuple_dataset_is_rejected(tmp_path):
    x, y = linear_data(8)
    ds = lambda: tf.data.Dataset.from_tensor_slices(({"x": x}, y, y)).batch(4)  # noqa: E731
    with pytest.raises(ValueError, match="len 2 tuple"):
        make(tmp_path).train(ds, steps=1)


def test_the_users_dataset_runs_as_written():
    """No stage is appended (TensorFlow injects the prefetch itself when the iterator is made;
    an explicit one cost 7% of a small evaluate call)."""
    from estimator_compat.engine.input_pipeline import dataset_from_input_fn
    ds = tf.data.Dataset.range(8).batch(2)
    assert dataset_from_input_fn(lambda: ds, "eval", {}, None) is ds
    assert tf.data.Options().experimental_optimization.inject_prefetch in (None, True)


class IteratorInitializerHook(tf.compat.v1.train.SessionRunHook):
    """TF-Ranking's and many tutorials' hook: feeds the input_fn's placeholders."""

    def __init__(self):
        self.iterator_initializer_fn = None
        self.calls = 0

    def after_create_session(self, session, coord):
        self.calls += 1
        self.iterator_initializer_fn(session)


def fed_input_fn(x, y, batch, repeat):
    hook = IteratorInitializerHook()

    def input_fn():
        xs = tf.compat.v1.placeholder(x.dtype, x.shape)
        ys = tf.compat.v1.placeholder(y.dtype, y.shape)
        ds = tf.data.Dataset.from_tensor_slices(({"x": xs}, ys))
        ds = (ds.repeat() if repeat else ds).batch(batch)
        iterator = tf.compat.v1.data.make_initializable_iterator(ds)
        hook.iterator_initializer_fn = lambda sess: sess.run(iterator.initializer,
                                                             feed_dict={xs: x, ys: y})
        return iterator.get_next()
    return input_fn, hook


def test_placeholders_fed_by_a_hook_in_after_create_session(tmp_path):
    """The input_fn's graph runs in a TF1 session of its own; the hook's session.run(feed_dict)
    reaches it, and it is re-fed on every call, as each TF1 call made a new session."""
    x, y = linear_data(64)
    train_fn, train_hook = fed_input_fn(x, y, 16, repeat=True)
    eval_fn, eval_hook = fed_input_fn(x, y, 16, repeat=False)
    est = make(tmp_path)
    est.train(train_fn, hooks=[train_hook], steps=120)
    first = est.evaluate(eval_fn, hooks=[eval_hook])
    assert first["global_step"] == 120 and first["mae"] < 0.15
    assert est.evaluate(eval_fn, hooks=[eval_hook]) == first  # the arrays fed again
    assert (train_hook.calls, eval_hook.calls) == (1, 2)


def test_iterator_never_initialized_names_the_fix(tmp_path):
    x, y = linear_data(64)
    train_fn, _ = fed_input_fn(x, y, 16, repeat=True)
    with pytest.raises(tf.errors.OpError, match="not initialized: run .iterator.initializer. "
                       "from a hook.s after_create_session"):
        make(tmp_path).train(train_fn, steps=1)


def test_get_next_dict_is_the_callers(tmp_path):
    """`features = it.get_next(); label = features.pop("y")` (TF-Ranking's tfrecord example)."""
    x, y = linear_data(64)

    def input_fn():
        ds = tf.data.Dataset.from_tensor_slices({"x": x, "y": y}).repeat().batch(16)
        features = tf.compat.v1.data.make_one_shot_iterator(ds).get_next()
        label = features.pop("y")
        return features, label * 1.0
    est = make(tmp_path)
    est.train(input_fn, steps=100)
    np.testing.assert_allclose(est.get_variable_value("linear/w")[:, 0], [1, -2, 0.5], atol=0.1)


def test_queue_runner_input_ends_with_its_epochs(tmp_path):
    """TF 1.x's queue pipeline (match_filenames_once, string_input_producer with num_epochs,
    TextLineReader.read_up_to, decode_csv, tf.train.batch with enqueue_many and a smaller last
    batch, a lookup table) runs in its own session; the end of num_epochs ends training."""
    x, y = linear_data(60)
    path = tmp_path / "rows.csv"
    path.write_text("".join(f"{a},{b},{c},{'pos' if t > 0.3 else 'neg'},{t}\n"
                            for (a, b, c), (t,) in zip(x, y)))
    v1 = tf.compat.v1

    def input_fn(epochs):
        def fn():
            files = v1.train.match_filenames_once(str(tmp_path / "*.csv"))
            queue = v1.train.string_input_producer(files, num_epochs=epochs, shuffle=False)
            _, rows = v1.TextLineReader().read_up_to(queue, num_records=16)
            a, b, c, sign, target = v1.decode_csv(tf.expand_dims(rows, -1),
                                                  [[0.0], [0.0], [0.0], [""], [0.0]])
            batch = v1.train.batch({"x": tf.concat([a, b, c], 1), "y": target,
                                    "sign": sign}, 16, enqueue_many=True,
                                   allow_smaller_final_batch=True)
            table = contrib_lookup.index_table_from_tensor(tf.constant(["neg", "pos"]))
            batch["positive"] = table.lookup(batch.pop("sign"))
            return batch, batch.pop("y")
        return fn
    est = make(tmp_path / "model")
    est.train(input_fn(epochs=3), steps=1000)
    assert est.get_variable_value("global_step") == 12  # ceil(60 * 3 / 16)
    result = est.evaluate(input_fn(epochs=1))
    assert result["global_step"] == 12 and result["mae"] < 1.0


def test_limit_epochs_ends_the_input(tmp_path):
    """`tf.compat.v1.train.limit_epochs` raises the end of input after its epochs in a TF1
    session: an input_fn returning it predicts its one batch and stops (TF 1.15: one
    example), where an eager call would have counted once and yielded it forever."""
    x, _ = linear_data(5)

    def input_fn():
        return {"x": tf.compat.v1.train.limit_epochs(x, num_epochs=2)}
    predictions = list(make(tmp_path).predict(input_fn))
    assert len(predictions) == 10
    np.testing.assert_allclose(predictions[0]["y"], [0.0])
