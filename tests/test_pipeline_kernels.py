"""engine/pipeline_kernels.py: while a call builds its input pipeline, dataset ops run as plain
kernels (TensorFlow would instantiate a one-op function for each, every call), the pipelines
are the same, and ops run as functions again once no thread is building one."""
import os
import subprocess
import sys
import threading
import textwrap

import numpy as np
import pytest
import tensorflow as tf
from tensorflow.python.eager import context

from estimator_compat.engine import pipeline_kernels

# rare dataset ops, so the one-op functions TensorFlow names after them are new in this process
_RARE = {
    "UniqueDataset": lambda ds: ds.unique(),
    "WindowDataset": lambda ds: ds.window(2),
    "ShardDataset": lambda ds: ds.shard(2, 0),
    "IgnoreErrorsDataset": lambda ds: ds.ignore_errors(),
    "AssertCardinalityDataset": lambda ds: ds.apply(tf.data.experimental.assert_cardinality(6)),
}


def _ran_as_function(op):
    return any(name.startswith(f"__wrapped__{op}_")
               for name in context.context().list_function_names())


def _fresh_ops(n):
    fresh = [op for op in _RARE if not _ran_as_function(op)]
    assert len(fresh) >= n, f"every rare dataset op already ran in this process: {_RARE}"
    return fresh[:n]


def test_dataset_ops_built_inside_run_as_plain_kernels_and_as_functions_after():
    (op,) = _fresh_ops(1)
    with pipeline_kernels.building():
        inside = _RARE[op](tf.data.Dataset.range(6))
    assert not _ran_as_function(op)
    outside = _RARE[op](tf.data.Dataset.range(6))
    assert _ran_as_function(op)  # TensorFlow's way again once the block ends
    as_lists = [[e.numpy().tolist() if isinstance(e, tf.Tensor) else
                 [x.numpy().tolist() for x in e] for e in ds] for ds in (inside, outside)]
    assert as_lists[0] == as_lists[1]


def test_the_switch_stays_while_any_thread_still_builds():
    first, second = _fresh_ops(2)
    entered, left = threading.Event(), threading.Event()

    def other_thread():
        with pipeline_kernels.building():
            entered.set()
            left.wait(30)

    with pipeline_kernels.building():
        thread = threading.Thread(target=other_thread)
        thread.start()
        assert entered.wait(30)
    _RARE[first](tf.data.Dataset.range(6))  # the other thread is still building
    assert not _ran_as_function(first)
    left.set()
    thread.join(30)
    _RARE[second](tf.data.Dataset.range(6))
    assert _ran_as_function(second)


def test_an_error_while_building_puts_the_switch_back():
    (op,) = _fresh_ops(1)
    with pytest.raises(ValueError):
        with pipeline_kernels.building():
            raise ValueError("input_fn failed")
    _RARE[op](tf.data.Dataset.range(6))
    assert _ran_as_function(op)


def test_estimator_calls_build_their_pipelines_as_plain_kernels(tmp_path):
    """A fresh process: train, evaluate and predict with a numpy input_fn leave no one-op
    function of the ops their pipelines are made of, and the model still learns."""
    script = textwrap.dedent("""
        import sys, numpy as np, tensorflow as tf
        import estimator_compat
        estimator_compat.install()
        from tensorflow.python.eager import context
        rng = np.random.RandomState(0)
        x = rng.normal(size=(512, 4)).astype(np.float32)
        y = (x[:, 0] > 0).astype(np.int32)
        def input_fn(train):
            def fn():
                ds = tf.data.Dataset.from_tensor_slices(({"x": x}, y))
                return (ds.repeat().shuffle(64) if train else ds).batch(32)
            return fn
        est = tf.estimator.LinearClassifier([tf.feature_column.numeric_column("x", (4,))],
                                            model_dir=sys.argv[1])
        est.train(input_fn(True), steps=200)
        accuracy = est.evaluate(input_fn(False))["accuracy"]
        n = sum(1 for _ in est.predict(lambda: tf.data.Dataset.from_tensor_slices(
            {"x": x}).batch(32)))
        ops = ("TensorSliceDataset", "BatchDatasetV2", "RepeatDataset", "ShuffleDatasetV3",
               "PrefetchDataset", "OptionsDataset")
        wrapped = [op for op in ops if any(name.startswith("__wrapped__" + op + "_")
                                           for name in context.context().list_function_names())]
        print("RESULT", accuracy, n, wrapped)
    """)
    proc = subprocess.run([sys.executable, "-c", script, str(tmp_path / "m")],
                          capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT")]
    assert line, proc.stderr[-3000:]
    _, accuracy, n, wrapped = line[0].split(" ", 3)
    assert float(accuracy) > 0.9 and int(n) == 512
    assert wrapped == "[]"
