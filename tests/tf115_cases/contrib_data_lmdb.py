"""tf.contrib.data.LMDBDataset in a TF1 graph: the records of tests/fixtures/lmdb/data.mdb (ten
keys "0".."9" with values "A".."J", written by the lmdb package), file after file, and its
errors."""
import os

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures",
                    "lmdb", "data.mdb")


def _read_all(tf, dataset):
    element = tf.data.make_one_shot_iterator(dataset).get_next()

    def run(sess):
        records = []
        while True:
            try:
                records.append(sess.run(element))
            except tf.errors.OutOfRangeError:
                break
        return {"keys": [k for k, _ in records], "values": [v for _, v in records],
                "types": [t.name for t in tf.data.get_output_types(dataset)],
                "shapes": [str(s.as_list()) for s in tf.data.get_output_shapes(dataset)]}
    return run


def case_lmdb_two_files(tf):
    return _read_all(tf, tf.contrib.data.LMDBDataset([DATA, DATA]))


def case_lmdb_one_file_then_map(tf):
    dataset = tf.contrib.data.LMDBDataset(DATA).map(
        lambda key, value: (tf.strings.to_number(key, tf.int32) * 2,
                            tf.strings.join([value, value])))
    element = tf.data.make_one_shot_iterator(dataset.batch(4)).get_next()
    return {"first_batch": element}


def case_lmdb_file_tensor(tf):
    name = tf.placeholder(tf.string, [None])
    element = tf.data.make_initializable_iterator(tf.contrib.data.LMDBDataset(name))

    def run(sess):
        sess.run(element.initializer, {name: [DATA]})
        return {"first": sess.run(element.get_next())}
    return run


def case_lmdb_missing_file(tf):
    return _read_all(tf, tf.contrib.data.LMDBDataset(DATA + ".missing"))


def case_lmdb_int_filenames(tf):
    tf.contrib.data.LMDBDataset(3)
    return {}
