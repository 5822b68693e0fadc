"""tf.contrib.timeseries cases (TF 1.x style; Python 3.7 syntax: they also run in TF 1.15.5).

The feature keys, the readers (`NumpyReader`, `CSVReader`: `read` through queues, `read_full`
whole), the input fns (`WholeDatasetInputFn`, `RandomWindowInputFn` with one thread and a
shuffle seed, compared by what is deterministic: shapes, dtypes, consecutive windows) and
`predict_continuation_input_fn`, and the errors of misuse.
"""
import os
import tempfile

import numpy as np

SERIES = {"times": np.arange(10, dtype=np.int64) * 2 + 1,
          "values": np.arange(10, dtype=np.float32) / 4.0}


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


def _csv(text):
    directory = tempfile.mkdtemp()
    path = os.path.join(directory, "series.csv")
    with open(path, "w") as f:
        f.write(text)
    return path


CSV = "time,a,b,x\n" + "".join("%d,%s,%s,%d\n" % (t, t * 0.5, -t * 1.5, t % 3)
                               for t in range(1, 8))


def case_feature_keys(tf):
    ts = tf.contrib.timeseries
    return {"times": ts.TrainEvalFeatures.TIMES, "values": ts.TrainEvalFeatures.VALUES,
            "state": ts.FilteringResults.STATE_TUPLE, "filter_times": ts.FilteringResults.TIMES}


def case_numpy_reader_read_wraps(tf):
    reader = tf.contrib.timeseries.NumpyReader(SERIES, read_num_records_hint=4)
    features = reader.read()
    shapes = {k: v.shape.as_list() for k, v in features.items()}
    run = _queued(tf, features, 4)
    return lambda sess: {"batches": run(sess), "static": shapes,
                         "dtypes": {k: v.dtype.name for k, v in features.items()}}


def case_numpy_reader_read_full_multivariate(tf):
    data = {"times": np.array([3, 4, 7]), "values": np.array([[1., 2.], [3., 4.], [5., 6.]]),
            "exogenous": np.array([[[1]], [[2]], [[3]]], dtype=np.int32)}
    features = tf.contrib.timeseries.NumpyReader(data).read_full()
    run = _queued(tf, features, 2)
    return lambda sess: {"full": run(sess),
                         "static": {k: v.shape.as_list() for k, v in features.items()},
                         "dtypes": {k: v.dtype.name for k, v in features.items()}}


def case_whole_dataset_input_fn_numpy(tf):
    input_fn = tf.contrib.timeseries.WholeDatasetInputFn(
        tf.contrib.timeseries.NumpyReader(SERIES))
    features, labels = input_fn()
    run = _queued(tf, features, 1)
    return lambda sess: {"features": run(sess), "labels": labels is None,
                         "static": {k: v.shape.as_list() for k, v in features.items()}}


def case_csv_reader_read_full(tf):
    reader = tf.contrib.timeseries.CSVReader(
        _csv(CSV), column_names=("times", "values", "values", "x"), skip_header_lines=1,
        column_dtypes=(tf.int64, tf.float32, tf.float32, tf.int32))
    features = reader.read_full()
    run = _queued(tf, features, 2)
    return lambda sess: {"full": run(sess),
                         "static": {k: v.shape.as_list() for k, v in features.items()},
                         "dtypes": {k: v.dtype.name for k, v in features.items()}}


def case_csv_reader_read_two_files(tf):
    first = _csv("1,1.5\n2,2.5\n3,3.5\n")
    second = _csv("4,4.5\n5,5.5\n")
    reader = tf.contrib.timeseries.CSVReader([first, second], read_num_records_hint=2)
    features = reader.read()
    run = _queued(tf, features, 4)
    return lambda sess: {"chunks": run(sess),
                         "dtypes": {k: v.dtype.name for k, v in features.items()}}


def case_whole_dataset_input_fn_csv(tf):
    input_fn = tf.contrib.timeseries.WholeDatasetInputFn(
        tf.contrib.timeseries.CSVReader(_csv("1,1.5\n2,2.5\n3,3.5\n")))
    features, _ = input_fn()
    return _queued(tf, features, 1)  # TF 1.15's epoch limiter raced a second full read


def case_random_window_input_fn(tf):
    series = {"times": np.arange(40, dtype=np.int64),
              "values": np.arange(80, dtype=np.float32).reshape(40, 2)}
    input_fn = tf.contrib.timeseries.RandomWindowInputFn(
        tf.contrib.timeseries.NumpyReader(series), window_size=5, batch_size=3,
        num_threads=1, shuffle_seed=3)
    features, labels = input_fn()
    static = {k: v.shape.as_list() for k, v in features.items()}
    dtypes = {k: v.dtype.name for k, v in features.items()}

    def run(sess):
        batches = _queued(tf, features, 5)(sess)
        windows = []
        for batch in batches:
            times, values = batch["times"], batch["values"]
            windows.append({"times_shape": list(times.shape),
                            "values_shape": list(values.shape),
                            "consecutive": bool((np.diff(times, axis=1) == 1).all()),
                            "values_match": bool((values[..., 0] == 2 * times).all())})
        return {"windows": windows, "static": static, "dtypes": dtypes,
                "labels": labels is None}
    return run


def case_random_window_input_fn_csv_no_jitter(tf):
    path = _csv("".join("%d,%d\n" % (t, t) for t in range(30)))
    input_fn = tf.contrib.timeseries.RandomWindowInputFn(
        tf.contrib.timeseries.CSVReader(path, read_num_records_hint=7), window_size=4,
        batch_size=2, jitter=False, num_threads=1, shuffle_seed=1)
    features, _ = input_fn()

    def run(sess):
        batches = _queued(tf, features, 6)(sess)
        return {"static": {k: v.shape.as_list() for k, v in features.items()},
                "ordered": [bool((np.diff(b["times"], axis=1) > 0).all()) for b in batches],
                "start_mod_4": sorted(set(int(s) % 4 for b in batches
                                          for s in b["times"][:, 0]))}
    return run


def case_predict_continuation_input_fn_steps(tf):
    evaluation = {"times": np.array([[3, 4, 5]]), "start_tuple": (
        np.array([[5]]), np.array([[[1.5]]]), np.array([[[0.5, 0.25]]])), "loss": 0.1}
    input_fn = tf.contrib.timeseries.predict_continuation_input_fn(evaluation, steps=4)
    features, labels = input_fn()

    def run(sess):
        got = sess.run(features)
        try:
            sess.run(features)
            second = "no error"
        except tf.errors.OutOfRangeError:
            second = "OutOfRangeError"
        state = got.pop("start_tuple")
        return {"features": got, "state": {str(i): part for i, part in enumerate(state)},
                "labels": labels is None, "second": second}
    return run


def case_predict_continuation_input_fn_times_and_exogenous(tf):
    evaluation = {"times": np.array([[1, 2], [3, 4]]), "start_tuple": np.array([[1.], [2.]])}
    input_fn = tf.contrib.timeseries.predict_continuation_input_fn(
        evaluation, times=[[6, 8], [9, 10]], exogenous_features={"x": np.ones([2, 2, 3])})
    features, _ = input_fn()
    return {k: v for k, v in features.items()}


def case_predict_continuation_both_steps_and_times_raises(tf):
    return tf.contrib.timeseries.predict_continuation_input_fn(
        {"times": np.array([[1]]), "start_tuple": ()}, steps=2, times=[[3, 4]])


def case_predict_continuation_times_before_evaluation_raises(tf):
    return tf.contrib.timeseries.predict_continuation_input_fn(
        {"times": np.array([[1, 5]]), "start_tuple": ()}, times=[[3, 6]])


def case_numpy_reader_without_values_raises(tf):
    return tf.contrib.timeseries.NumpyReader({"times": np.arange(3)})


def case_numpy_reader_batch_raises(tf):
    return tf.contrib.timeseries.NumpyReader({"times": np.zeros([2, 3]),
                                              "values": np.zeros([2, 3])})


def case_window_larger_than_series_raises(tf):
    return tf.contrib.timeseries.RandomWindowInputFn(
        tf.contrib.timeseries.NumpyReader(SERIES), window_size=11, batch_size=2)


def case_csv_reader_two_times_columns_raises(tf):
    return tf.contrib.timeseries.CSVReader("f.csv", column_names=("times", "times", "values"))


def case_csv_reader_mixed_value_dtypes_raises(tf):
    reader = tf.contrib.timeseries.CSVReader(
        _csv(CSV), column_names=("times", "values", "values", "x"), skip_header_lines=1,
        column_dtypes=(tf.int64, tf.float32, tf.float64, tf.int32))
    return reader.read_full()


def case_csv_reader_column_dtypes_length_raises(tf):
    return tf.contrib.timeseries.CSVReader("f.csv", column_dtypes=(tf.int64,))

