"""tf.contrib.data's names, as TF 1.x input pipelines applied them (values from numpy inputs)."""
import os
import sqlite3
import tempfile

import numpy as np


def _all(tf, dataset):
    """Every element of `dataset`, read in the session (a function of sess): {index: value}
    (a dict, so that elements of different shapes compare one by one)."""
    get_next = dataset.make_one_shot_iterator().get_next()

    def run(sess):
        out = {}
        while True:
            try:
                out["%02d" % len(out)] = sess.run(get_next)
            except tf.errors.OutOfRangeError:
                return out
    return run


def case_batch_and_drop_remainder(tf):
    ds = tf.data.Dataset.range(7).apply(tf.contrib.data.batch_and_drop_remainder(3))
    assert ds.output_shapes.as_list() == [3]
    return _all(tf, ds)


def case_padded_batch_and_drop_remainder(tf):
    ds = tf.data.Dataset.range(1, 6).map(lambda n: tf.fill([n], n)).apply(
        tf.contrib.data.padded_batch_and_drop_remainder(2, [None]))
    return _all(tf, ds)


def case_sliding_window_batch(tf):
    ds = tf.data.Dataset.range(8).apply(tf.contrib.data.sliding_window_batch(3, window_shift=2))
    assert ds.output_shapes.as_list() == [None]
    return _all(tf, ds)


def case_sliding_window_batch_structure_and_stride(tf):
    ds = tf.data.Dataset.from_tensor_slices(
        ({"a": np.arange(9)}, np.arange(9) * 10)).apply(
        tf.contrib.data.sliding_window_batch(2, stride=3, window_stride=2))
    return _all(tf, ds)


def case_sliding_window_batch_both_shifts_raise(tf):
    return tf.data.Dataset.range(3).apply(
        tf.contrib.data.sliding_window_batch(2, stride=1, window_shift=1))


def case_shuffle_and_repeat_map_and_batch(tf):
    ds = tf.data.Dataset.range(6).apply(tf.contrib.data.shuffle_and_repeat(6, count=2, seed=3))
    ds = ds.apply(tf.contrib.data.map_and_batch(lambda x: x * 2, 4, drop_remainder=True))
    ds = ds.prefetch(tf.contrib.data.AUTOTUNE)
    run = _all(tf, ds)
    return lambda sess: sorted(np.concatenate(list(run(sess).values())).tolist())


def case_assert_element_shape(tf):
    ds = tf.data.Dataset.from_tensor_slices((np.ones([3, 2], np.float32), np.arange(3)))
    ds = ds.map(lambda x, y: (tf.reshape(x, [-1, 1])[:, 0], y))
    ds = ds.apply(tf.contrib.data.assert_element_shape(([2], [])))
    assert ds.output_shapes[0].as_list() == [2]
    return _all(tf, ds.map(lambda x, y: {"x": x, "y": y}))


def case_assert_element_shape_static_mismatch_raises(tf):
    ds = tf.data.Dataset.from_tensor_slices(np.ones([3, 2], np.float32))
    return ds.apply(tf.contrib.data.assert_element_shape(tf.TensorShape([3])))


def case_assert_element_shape_runtime_mismatch_raises(tf):
    ds = tf.data.Dataset.from_tensor_slices(np.ones([3, 2], np.float32))
    ds = ds.map(lambda x: tf.boolean_mask(x, x > 0))
    ds = ds.apply(tf.contrib.data.assert_element_shape(tf.TensorShape([3])))
    return _all(tf, ds)


def case_reduce_dataset(tf):
    reducer = tf.contrib.data.Reducer(lambda key: (tf.constant(0, tf.int64),
                                                   tf.constant(1, tf.int64)),
                                      lambda state, x: (state[0] + x, state[1] * (x + 1)),
                                      lambda total, prod: (total, prod))
    return tf.contrib.data.reduce_dataset(tf.data.Dataset.range(5), reducer)


def case_group_by_window_and_unbatch(tf):
    ds = tf.data.Dataset.range(10).apply(tf.contrib.data.group_by_window(
        lambda x: x % 2, lambda key, window: window.batch(5), window_size=5))
    ds = ds.apply(tf.contrib.data.unbatch())
    return _all(tf, ds)


def case_scan_unique_enumerate(tf):
    ds = tf.data.Dataset.from_tensor_slices(np.array([1, 1, 2, 3, 2], np.int64))
    ds = ds.apply(tf.contrib.data.unique()).apply(
        tf.contrib.data.scan(np.int64(0), lambda s, x: (s + x, s + x)))
    return _all(tf, ds.apply(tf.contrib.data.enumerate_dataset(start=5)))


def case_bucket_by_sequence_length(tf):
    ds = tf.data.Dataset.range(1, 7).map(lambda n: tf.fill([n], n))
    ds = ds.apply(tf.contrib.data.bucket_by_sequence_length(
        lambda x: tf.shape(x)[0], [3], [2, 2]))
    return _all(tf, ds)


def case_counter_choose_and_single_element(tf):
    counter = tf.contrib.data.Counter(start=2, step=3).take(3)
    chosen = tf.contrib.data.choose_from_datasets(
        [tf.data.Dataset.from_tensors(np.int64(7)).repeat(),
         tf.data.Dataset.from_tensors(np.int64(9)).repeat()],
        tf.data.Dataset.from_tensor_slices(np.array([0, 1, 1, 0], np.int64)))
    return {"counter": tf.contrib.data.get_single_element(counter.batch(3)),
            "chosen": tf.contrib.data.get_single_element(chosen.batch(4))}


def case_ignore_errors(tf):
    ds = tf.data.Dataset.from_tensor_slices(np.array([1.0, 0.0, 2.0], np.float32))
    ds = ds.map(lambda x: tf.debugging.check_numerics(1.0 / x, "inf")).apply(
        tf.contrib.data.ignore_errors())
    return _all(tf, ds)


def _csv(tf):
    path = os.path.join(tempfile.mkdtemp(), "rows.csv")
    with open(path, "w") as f:
        f.write("a,b,label\n1,2.5,0\n3,,1\n5,6.5,1\n")
    return path


def case_csv_dataset(tf):
    ds = tf.contrib.data.CsvDataset(_csv(tf), [tf.int32, tf.constant(-1.0)], header=True,
                                    select_cols=[0, 1])
    return _all(tf, ds)


def case_make_csv_dataset(tf):
    ds = tf.contrib.data.make_csv_dataset(_csv(tf), batch_size=3, label_name="label",
                                          shuffle=False, num_epochs=1,
                                          column_defaults=[0, 0.0, 0])
    return _all(tf, ds)


def _records(tf):
    path = os.path.join(tempfile.mkdtemp(), "ex.tfrecords")
    with tf.python_io.TFRecordWriter(path) as writer:
        for i in range(5):
            example = tf.train.Example(features=tf.train.Features(feature={
                "x": tf.train.Feature(float_list=tf.train.FloatList(value=[i * 1.5])),
                "y": tf.train.Feature(int64_list=tf.train.Int64List(value=[i]))}))
            writer.write(example.SerializeToString())
    return path


def _features(tf):
    return {"x": tf.FixedLenFeature([1], tf.float32), "y": tf.FixedLenFeature([], tf.int64)}


def case_make_batched_features_dataset(tf):
    ds = tf.contrib.data.make_batched_features_dataset(
        _records(tf), 2, _features(tf), label_key="y", num_epochs=1, shuffle=False)
    return _all(tf, ds)


def case_read_batch_features(tf):
    batch = tf.contrib.data.read_batch_features(_records(tf), 5, _features(tf),
                                                randomize_input=False, num_epochs=1)
    return {"batch": batch}


def case_parse_example_dataset_and_tfrecord_writer(tf):
    path = _records(tf)
    copy = path + ".copy"
    write = tf.contrib.data.TFRecordWriter(copy).write(tf.data.TFRecordDataset(path))
    parsed = tf.data.TFRecordDataset(copy).batch(5).apply(
        tf.contrib.data.parse_example_dataset(_features(tf)))
    get_next = parsed.make_one_shot_iterator().get_next()

    def run(sess):
        sess.run(write)
        return sess.run(get_next)
    return run


def case_sample_from_datasets_and_rejection_resample(tf):
    sampled = tf.contrib.data.sample_from_datasets(
        [tf.data.Dataset.from_tensors(np.int64(0)).repeat(6),
         tf.data.Dataset.from_tensors(np.int64(1)).repeat(6)], seed=1)
    resampled = tf.data.Dataset.from_tensor_slices(np.array([0, 0, 0, 1] * 20, np.int64)).apply(
        tf.contrib.data.rejection_resample(lambda x: tf.cast(x, tf.int32), [0.5, 0.5], seed=2))
    run_a, run_b = _all(tf, sampled), _all(tf, resampled.take(10))
    return lambda sess: {"sampled": sorted(v.tolist() for v in run_a(sess).values()),
                         "resampled_pairs": len(run_b(sess))}


def case_optional(tf):
    it = tf.data.Dataset.range(2).make_initializable_iterator()
    opt = tf.contrib.data.get_next_as_optional(it)
    assert isinstance(opt, tf.contrib.data.Optional)

    def run(sess):
        sess.run(it.initializer)
        return [sess.run([opt.has_value()]) for _ in range(3)]
    return run


def case_random_dataset_and_saveable(tf):
    ds = tf.contrib.data.RandomDataset(seed=4).take(3)
    it = ds.make_initializable_iterator()
    saveable = tf.contrib.data.make_saveable_from_iterator(it)
    tf.add_to_collection(tf.GraphKeys.SAVEABLE_OBJECTS, saveable)
    get_next = it.get_next()

    def run(sess):
        sess.run(it.initializer)
        return {"n": len([sess.run(get_next) for _ in range(3)])}
    return run


def case_prefetch_copy_and_interleave(tf):
    ds = tf.data.Dataset.range(3).apply(tf.contrib.data.parallel_interleave(
        lambda x: tf.data.Dataset.from_tensors(x).repeat(2), cycle_length=2))
    ds = ds.apply(tf.contrib.data.sloppy_interleave(
        lambda x: tf.data.Dataset.from_tensors(x + 10), cycle_length=1))
    ds = ds.apply(tf.contrib.data.dense_to_sparse_batch(2, [1]))
    ds = ds.map(lambda sp: tf.sparse.to_dense(sp))
    assert callable(tf.contrib.data.copy_to_device(("/cpu:0")))
    assert callable(tf.contrib.data.prefetch_to_device("/cpu:0"))
    run = _all(tf, ds)
    return lambda sess: sorted(np.concatenate(list(run(sess).values())).ravel().tolist())


def case_group_by_reducer_and_sql(tf):
    reducer = tf.contrib.data.Reducer(lambda key: np.int64(0), lambda s, x: s + x, lambda s: s)
    ds = tf.data.Dataset.range(6).apply(tf.contrib.data.group_by_reducer(lambda x: x % 3,
                                                                         reducer))
    path = os.path.join(tempfile.mkdtemp(), "rows.sqlite")
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE t (a TEXT, b INTEGER)")
    db.execute("INSERT INTO t VALUES ('x', 1), ('y', 2)")
    db.commit()
    sql = tf.contrib.data.SqlDataset("sqlite", path, "SELECT a, b FROM t ORDER BY b",
                                     (tf.string, tf.int32))
    run, rows = _all(tf, ds), _all(tf, sql.map(lambda a, b: {"a": a, "b": b}))
    return lambda sess: {"groups": sorted(int(v) for v in run(sess).values()),
                         "sql": rows(sess)}
