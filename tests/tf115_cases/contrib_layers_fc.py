"""TF 1.15 cases for tf.contrib.layers' feature columns: input_from_feature_columns and
weighted_sum_from_feature_columns (values on constant weights, variable names, collections),
crossed_column's hashed ids, and the parsing specs."""
import numpy as np


def _features(tf):
    return {
        "age": tf.constant([[25.0], [40.0], [61.0]]),
        "xy": tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
        "color": tf.SparseTensor(indices=[[0, 0], [1, 0], [1, 1], [2, 0]],
                                 values=["red", "blue", "green", "purple"],
                                 dense_shape=[3, 2]),
        "word": tf.SparseTensor(indices=[[0, 0], [1, 0], [2, 0], [2, 1]],
                                values=["a", "bb", "ccc", "a"], dense_shape=[3, 2]),
        "code": tf.SparseTensor(indices=[[0, 0], [1, 0], [2, 0]],
                                values=tf.constant([3, 7, 12], tf.int64), dense_shape=[3, 1]),
        "code_w": tf.SparseTensor(indices=[[0, 0], [1, 0], [2, 0]],
                                  values=[0.5, 2.0, 1.5], dense_shape=[3, 1]),
    }


def _columns(tf):
    layers = tf.contrib.layers
    age = layers.real_valued_column("age")
    xy = layers.real_valued_column("xy", dimension=2)
    color = layers.sparse_column_with_keys("color", keys=["red", "green", "blue"])
    word = layers.sparse_column_with_hash_bucket("word", hash_bucket_size=10)
    code = layers.sparse_column_with_integerized_feature("code", bucket_size=5)
    return age, xy, color, word, code


def _assign_all(tf, sess):
    """Gives every global variable deterministic values (a ramp), so outputs are comparable."""
    for v in tf.global_variables():
        shape = v.get_shape().as_list()
        size = int(np.prod(shape)) if shape else 1
        value = (np.arange(size, dtype=np.float32) * 0.1 + 0.05).reshape(shape)
        sess.run(v.assign(value))


def case_input_from_feature_columns(tf):
    layers = tf.contrib.layers
    age, xy, color, word, code = _columns(tf)
    columns = [
        age, xy,
        layers.bucketized_column(age, boundaries=[30.0, 50.0]),
        layers.one_hot_column(color),
        layers.embedding_column(word, dimension=3,
                                initializer=tf.constant_initializer(0.25)),
        layers.embedding_column(code, dimension=2, combiner="sum"),
        layers.embedding_column(layers.weighted_sparse_column(code, "code_w"), dimension=2,
                                combiner="sqrtn"),
    ]
    out = layers.input_from_feature_columns(_features(tf), columns)

    def run(sess):
        _assign_all(tf, sess)
        return {"out": sess.run(out), "shape": out.get_shape().as_list()}
    return run


def case_input_from_feature_columns_scope(tf):
    layers = tf.contrib.layers
    age, _, color, word, _ = _columns(tf)
    columns = [age, layers.embedding_column(word, dimension=2,
                                            initializer=tf.constant_initializer(0.5))]
    out = layers.input_from_feature_columns(
        _features(tf), columns, weight_collections=["my_weights"], scope="deep")
    return {"out": out, "mine": [v.name for v in tf.get_collection("my_weights")]}


def case_weighted_sum_from_feature_columns(tf):
    layers = tf.contrib.layers
    age, xy, color, word, code = _columns(tf)
    columns = [age, xy, layers.bucketized_column(xy, boundaries=[2.5, 4.5]), color, word,
               code, layers.weighted_sparse_column(code, "code_w")]
    logits, col_vars, bias = layers.weighted_sum_from_feature_columns(
        _features(tf), columns, num_outputs=2)

    def run(sess):
        _assign_all(tf, sess)
        names = sorted((c.name, [v.name for v in vs]) for c, vs in col_vars.items())
        return {"logits": sess.run(logits), "bias": bias.name, "col_vars": names}
    return run


def case_crossed_column(tf):
    layers = tf.contrib.layers
    age, xy, color, word, code = _columns(tf)
    cross = layers.crossed_column([color, word], hash_bucket_size=50)
    cross3 = layers.crossed_column(
        [layers.bucketized_column(age, boundaries=[30.0, 50.0]), color, code],
        hash_bucket_size=1000, hash_key=12345)
    logits, col_vars, _ = layers.weighted_sum_from_feature_columns(
        _features(tf), [cross, cross3], num_outputs=1, scope="lin")
    ids = layers.transform_features(_features(tf), [cross, cross3])

    def run(sess):
        _assign_all(tf, sess)
        out = {"logits": sess.run(logits), "name": cross.name, "name3": cross3.name}
        out.update(_split("ids", sess.run(ids[cross])))
        out.update(_split("ids3", sess.run(ids[cross3])))
        return out
    return run


def _split(name, value):
    """A sparse value as three entries (the harness compares arrays, not ragged lists)."""
    if not hasattr(value, "indices"):
        return {name: value}
    return {name + ".indices": value.indices, name + ".values": value.values,
            name + ".dense_shape": value.dense_shape}


def _spec_text(spec):
    out = []
    for key, value in spec.items():
        out.append("%s %s %s %s %s" % (
            key, type(value).__name__, value.dtype.name,
            list(getattr(value, "shape", []) or []), getattr(value, "default_value", None)))
    return sorted(out)


def case_feature_spec_and_parsing(tf):
    layers = tf.contrib.layers
    age, xy, color, word, code = _columns(tf)
    columns = [age, xy, layers.bucketized_column(age, boundaries=[30.0]),
               layers.embedding_column(word, dimension=2), color,
               layers.weighted_sparse_column(code, "code_w"),
               layers.real_valued_column("opt", default_value=7.0)]
    spec = layers.create_feature_spec_for_parsing(columns)
    ex = tf.train.Example(features=tf.train.Features(feature={
        "age": tf.train.Feature(float_list=tf.train.FloatList(value=[33.0])),
        "opt": tf.train.Feature(float_list=tf.train.FloatList(value=[1.5])),
        "xy": tf.train.Feature(float_list=tf.train.FloatList(value=[1.0, 2.0])),
        "word": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"a", b"b"])),
        "color": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"red"])),
        "code": tf.train.Feature(int64_list=tf.train.Int64List(value=[2])),
        "code_w": tf.train.Feature(float_list=tf.train.FloatList(value=[0.5]))}))
    ex2 = tf.train.Example(features=tf.train.Features(feature={
        "age": tf.train.Feature(float_list=tf.train.FloatList(value=[50.0])),
        "xy": tf.train.Feature(float_list=tf.train.FloatList(value=[3.0, 4.0])),
        "word": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"c"])),
        "color": tf.train.Feature(bytes_list=tf.train.BytesList(value=[])),
        "code": tf.train.Feature(int64_list=tf.train.Int64List(value=[1, 4])),
        "code_w": tf.train.Feature(float_list=tf.train.FloatList(value=[1.0, 2.0]))}))
    serialized = tf.constant([ex.SerializeToString(), ex2.SerializeToString()])
    parsed = layers.parse_feature_columns_from_examples(serialized, columns)
    holders = layers.make_place_holder_tensors_for_base_features(columns)
    fetch = {}
    for k, v in parsed.items():
        if isinstance(k, str) or k.name == "age_bucketized":
            fetch.update(_split("parsed_" + (k if isinstance(k, str) else k.name), v))
    fetch["parsed_keys"] = sorted(k if isinstance(k, str) else k.name for k in parsed)
    fetch.update(spec=_spec_text(spec),
                 holders=sorted("%s %s %s" % (k, "SparseTensor" if isinstance(v, tf.SparseTensor)
                                                else "Tensor", v.dtype.name)
                                for k, v in holders.items()),
                 checked=str(layers.check_feature_columns(columns)))
    return fetch


def case_shared_embedding_columns(tf):
    layers = tf.contrib.layers
    w = layers.sparse_column_with_hash_bucket("word", 10)
    c = layers.sparse_column_with_hash_bucket("color", 10)
    shared = layers.shared_embedding_columns([w, c], 3)
    named = layers.shared_embedding_columns(
        [w, c], 2, shared_embedding_name="mine", combiner="sum")
    out = layers.input_from_feature_columns(
        _features(tf), list(shared) + list(named) + [layers.real_valued_column("age")])

    def run(sess):
        _assign_all(tf, sess)
        return {"out": sess.run(out), "names": [s.name for s in shared + named],
                "shared": [s.shared_embedding_name for s in shared + named]}
    return run


def case_joint_weighted_sum_from_feature_columns(tf):
    layers = tf.contrib.layers
    age, xy, color, word, code = _columns(tf)
    columns = [color, word, code]
    logits, variables, bias = layers.joint_weighted_sum_from_feature_columns(
        _features(tf), columns, num_outputs=2)

    def run(sess):
        _assign_all(tf, sess)
        return {"logits": sess.run(logits), "vars": [v.name for v in variables],
                "bias": bias.name}
    return run


def case_joint_weighted_sum_real_valued_raises(tf):
    layers = tf.contrib.layers
    layers.joint_weighted_sum_from_feature_columns(
        _features(tf), [layers.real_valued_column("age")], num_outputs=1)


def case_infer_real_valued_columns(tf):
    layers = tf.contrib.layers
    found = layers.infer_real_valued_columns(tf.zeros([4, 3]))
    found += layers.infer_real_valued_columns(
        {"z": tf.zeros([4, 2, 2], tf.int32), "b": tf.zeros([4]),
         "d": tf.zeros([4, 2], tf.float64)})
    return {"columns": ["%s %d %s" % (c.name, c.dimension, c.dtype.name) for c in found]}


def case_dense_inputs_to_sparse_columns(tf):
    layers = tf.contrib.layers
    n = layers.sparse_column_with_hash_bucket("n", 7, dtype=tf.int64)
    color = layers.sparse_column_with_keys("color", keys=["red", "green", "blue"])
    vocab = layers.sparse_column_with_integerized_feature("k", 4, combiner="mean")
    features = {"n": tf.constant([[1], [5], [-1]], tf.int64),
                "color": tf.constant([["red", ""], ["", ""], ["blue", "green"]]),
                "k": tf.constant([2, 3, 9], tf.int64)}
    logits, _, _ = layers.weighted_sum_from_feature_columns(
        features, [n, color, vocab], num_outputs=1)
    dnn = layers.input_from_feature_columns(
        features, [layers.one_hot_column(color), layers.embedding_column(n, 2)])

    def run(sess):
        _assign_all(tf, sess)
        return {"logits": sess.run(logits), "dnn": sess.run(dnn)}
    return run


def case_multi_hash_and_crossed_of_crossed(tf):
    """sparse_column_with_hash_bucket(hash_keys=...): one id per key pair for each value
    (StringToHashBucketStrong), concatenated; a crossed_column of a crossed column crosses the
    inner cross's hashed ids. Their ids, and a linear model's output over them."""
    layers = tf.contrib.layers
    features = _features(tf)
    age, xy, color, word, code = _columns(tf)
    multi = layers.sparse_column_with_hash_bucket("word", 50, hash_keys=[[1, 2], [30, 40]])
    inner = layers.crossed_column([color, word], hash_bucket_size=100)
    outer = layers.crossed_column([inner, code], hash_bucket_size=70)
    keyed = layers.crossed_column([inner, layers.bucketized_column(age, [30.0, 50.0])],
                                  hash_bucket_size=60, hash_key=7)
    transformed = layers.transform_features(features, [multi, inner, outer, keyed])
    logits, _, _ = layers.weighted_sum_from_feature_columns(features, [multi, outer, keyed], 1)
    errors = {}
    for name, make in (("bad_keys", lambda: layers.sparse_column_with_hash_bucket(
                           "w", 5, hash_keys=[[1, 2, 3]])),
                       ("empty_keys", lambda: layers.sparse_column_with_hash_bucket(
                           "w", 5, hash_keys=[])),
                       ("var_len_real", lambda: layers.real_valued_column("r", dimension=None)),
                       ("float_dimension", lambda: layers.real_valued_column("r", 2.0)),
                       ("zero_dimension", lambda: layers.real_valued_column("r", 0))):
        try:
            make()
            errors[name] = "no error"
        except Exception as e:  # noqa: BLE001 - the message is what is compared
            errors[name] = "%s: %s" % (type(e).__name__, e)

    def run(sess):
        _assign_all(tf, sess)
        out = {"logits": sess.run(logits), "errors": errors}
        for column, t in transformed.items():
            out.update(_split(column.name, sess.run(t)))
        return out
    return run
