"""An evaluate / predict input over an in-memory cache an earlier call filled is read without
tf.data's graph rewrite (`engine/cached_input.py`), with the same results."""
import weakref

import numpy as np
import tensorflow as tf
from helpers import linear_data, linear_model_fn

import estimator_compat as ec
from estimator_compat.engine import cached_input


def _skips_rewrite(dataset):
    options = cached_input.Input(dataset).dataset.options()
    return options.experimental_optimization.apply_default_optimizations is False


def _cached(counter, n=90, batch=30):
    """(features, labels) batches of the linear data, cached in memory; `counter` counts the
    examples the pipeline below the cache produced."""
    x, y = linear_data(n)

    def count(i):
        counter.append(1)
        return i
    ids = tf.data.Dataset.range(n).map(lambda i: tf.py_function(count, [i], tf.int64))
    return ids.map(lambda i: ({"x": tf.gather(x, i)}, tf.gather(y, i))).batch(batch).cache()


def _trained(tmp_path, spe=1):
    est = ec.Estimator(linear_model_fn, config=ec.RunConfig(
        model_dir=str(tmp_path), steps_per_execution=spe), params={"lr": 0.1})
    x, y = linear_data(256)
    est.train(lambda: tf.data.Dataset.from_tensor_slices(({"x": x}, y)).repeat().batch(32),
              steps=20)
    return est


def test_a_filled_cache_is_reread_without_the_rewrite_and_gives_the_same_results(tmp_path):
    est = _trained(tmp_path, spe=2)
    counter = []
    cached = _cached(counter)
    x, y = linear_data(90)
    plain = lambda: tf.data.Dataset.from_tensor_slices(({"x": x}, y)).batch(30)
    expected = est.evaluate(plain)
    expected_predictions = [p["y"] for p in est.predict(lambda: plain().map(lambda f, _: f))]

    assert not _skips_rewrite(cached.prefetch(2))  # not read to its end yet
    first = est.evaluate(lambda: cached.prefetch(2))
    assert len(counter) == 90 and _skips_rewrite(cached.prefetch(2))
    again = [est.evaluate(lambda: cached.prefetch(2)) for _ in range(2)]
    assert len(counter) == 90  # the pipeline below the cache never ran again
    for results in [first] + again:
        assert results["global_step"] == 20
        np.testing.assert_allclose(results["loss"], expected["loss"], rtol=1e-6)
        np.testing.assert_allclose(results["mae"], expected["mae"], rtol=1e-6)
    features = cached.map(lambda f, _: f)  # a map above the cache: rewritten as before
    predictions = [p["y"] for p in est.predict(lambda: features.prefetch(1))]
    np.testing.assert_allclose(predictions, expected_predictions, rtol=1e-6)
    assert not _skips_rewrite(features.prefetch(1))
    assert _skips_rewrite(cached) and _skips_rewrite(cached.prefetch(1).prefetch(2))


def test_only_a_cache_read_to_its_end_in_memory_and_without_user_options_skips_it(tmp_path):
    est = _trained(tmp_path)
    partly = _cached([])
    est.evaluate(lambda: partly.prefetch(2), steps=2)  # 2 of 3 batches: maybe incomplete
    assert not _skips_rewrite(partly.prefetch(2))
    stopped = _cached([]).map(lambda f, _: f).cache()
    for _ in est.predict(lambda: stopped.prefetch(2)):
        break  # the caller stopped reading
    assert not _skips_rewrite(stopped)
    predicted = _cached([]).map(lambda f, _: f).cache()
    assert len(list(est.predict(lambda: predicted))) == 90
    assert _skips_rewrite(predicted)

    on_disk = _cached([]).unbatch().batch(30).cache(str(tmp_path / "cache"))
    est.evaluate(lambda: on_disk)
    assert not _skips_rewrite(on_disk)
    options = tf.data.Options()
    options.deterministic = False
    chosen = _cached([])
    est.evaluate(lambda: chosen.with_options(options))
    est.evaluate(lambda: chosen)
    assert _skips_rewrite(chosen) and not _skips_rewrite(chosen.with_options(options))


def test_batched_slices_skip_the_rewrite_with_a_prefetch_and_the_same_results(tmp_path):
    est = _trained(tmp_path)
    x, y = linear_data(90)
    slices = lambda: tf.data.Dataset.from_tensor_slices(({"x": x}, y))
    assert _skips_rewrite(slices().batch(30)) and _skips_rewrite(slices().batch(30).take(2))
    read = cached_input.Input(slices().batch(30)).dataset
    assert "Prefetch" in type(read._inputs()[0]).__name__
    assert not _skips_rewrite(slices().map(lambda f, l: (f, l)).batch(30))  # a map: rewritten
    options = tf.data.Options()
    options.deterministic = False
    assert not _skips_rewrite(slices().batch(30).with_options(options))  # the user's options
    mapped = est.evaluate(lambda: slices().batch(30).map(lambda f, l: (f, l)))
    plain = est.evaluate(lambda: slices().batch(30))
    assert plain["global_step"] == 20
    np.testing.assert_allclose(plain["loss"], mapped["loss"], rtol=1e-6)
    np.testing.assert_allclose(plain["mae"], mapped["mae"], rtol=1e-6)


def test_a_dataset_returned_again_is_read_as_the_first_time_without_remaking_it(tmp_path):
    """`lambda: dataset` (one dataset built outside the input_fn): the second call reads the
    very dataset the first call made for it (no new prefetch / options), with the same
    results; a cache not yet filled is looked at again next time."""
    est = _trained(tmp_path)
    x, y = linear_data(90)
    built_once = tf.data.Dataset.from_tensor_slices(({"x": x}, y)).batch(30)
    first, second = cached_input.Input(built_once), cached_input.Input(built_once)
    assert second.dataset is not first.dataset  # seen once: nothing kept on it
    again = cached_input.Input(built_once)
    assert again.dataset is second.dataset and again.length == first.length == 3
    per_call = tf.data.Dataset.from_tensor_slices(({"x": x}, y)).batch(30)
    cached_input.Input(per_call)
    freed = weakref.ref(per_call)
    del per_call
    assert freed() is None  # a dataset returned once goes with its call (no cycle)
    results = [est.evaluate(lambda: built_once) for _ in range(2)]
    np.testing.assert_allclose(results[0]["loss"], results[1]["loss"], rtol=1e-6)
    features = built_once.map(lambda f, _: f)  # rewritten as before, nothing to remember
    assert cached_input.Input(features).dataset is features
    cached = _cached([])
    assert cached_input.Input(cached).dataset is cached  # not filled: the rewrite, for now
    est.evaluate(lambda: cached)
    assert _skips_rewrite(cached)
    cached_input.Input(cached)
    assert cached_input.Input(cached).dataset is cached_input.Input(cached).dataset
