"""TF 1.x cases of tf.contrib.learn's heads' options (centered bias, loss_fn, metric_class_ids,
thresholds, label_keys) and their errors, recorded in TF 1.15.5. Python 3.7 syntax.

Logits come from a constant-initialized variable `w` (features times `w`), trained a couple of
steps by plain gradient descent, so centered bias's own Adagrad step, the predictions, losses,
metrics and summaries are compared by value. Errors' messages are recorded as values.

Where the model's optimizer runs in the same step as the centered bias's own (the cases with
`train_model`, multi_head, the estimator), TF 1.15's executor read the bias before or after
its update by chance: its own recordings of those cases differ by up to ~3% (here the model's
step always reads it before), so they are compared within `RACY` tolerance; names, shapes,
keys and collections exactly."""
import functools
import shutil
import tempfile

import numpy as np

X = np.array([[1.0, 0.5], [-0.5, 1.0], [0.25, -1.0], [2.0, 0.0]], np.float32)
WEIGHTS = np.array([1.0, 2.0, 0.5, 1.0], np.float32)


def _linear_logits(tf, dimension):
    init = np.arange(2 * dimension, dtype=np.float32).reshape(2, dimension) / 10.0 - 0.2
    w = tf.get_variable("w", initializer=tf.constant(init))
    return tf.matmul(tf.constant(X), w)


def _train_op_fn(tf):
    """Gradient descent on the model's `w` alone: an optimizer also training the centered bias
    would race its own step for it (TF 1.15's results then vary from run to run)."""
    def train_op_fn(loss):
        return tf.train.GradientDescentOptimizer(0.1).minimize(
            loss, global_step=tf.train.get_or_create_global_step(),
            var_list=tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope="model"))
    return train_op_fn


def _summaries(tf, sess):
    """{tag: value} of every scalar summary in the graph."""
    merged = tf.summary.merge_all()
    summary = tf.Summary.FromString(sess.run(merged))
    return {v.tag: float(v.simple_value) for v in summary.value}


def _trained_head_case(tf, make_head, labels, weighted=False, steps=2, train_model=False):
    """The head's TRAIN, EVAL and INFER ops on one model; `steps` training steps (of the
    centered bias alone, or with `train_model` of `w` too), then the summaries, the EVAL
    loss, metrics, predictions and every variable's value."""
    L = tf.contrib.learn
    head = make_head(L)
    weights = WEIGHTS if weighted is True else weighted
    features = {"w8": tf.constant(weights)} if weighted is not False else {}
    labels = labels(tf) if callable(labels) else tf.constant(labels)
    with tf.variable_scope("model"):
        logits = _linear_logits(tf, head.logits_dimension)
    train = head.create_model_fn_ops(
        features, L.ModeKeys.TRAIN, labels=labels, logits=logits,
        train_op_fn=_train_op_fn(tf) if train_model else L.no_op_train_fn)
    ops = head.create_model_fn_ops(features, L.ModeKeys.EVAL, labels=labels, logits=logits,
                                   train_op_fn=L.no_op_train_fn)
    infer = head.create_model_fn_ops(features, L.ModeKeys.INFER, logits=logits)
    names = {"loss_name": ops.loss.name, "train_loss_name": train.loss.name,
             "train_op": train.train_op.name,
             "metric_names": sorted(ops.eval_metric_ops),
             "prediction_names": sorted(ops.predictions),
             "prediction_tensors": sorted(v.name for v in infer.predictions.values()),
             "alternatives": ["%s %s %s" % (k, v[0], sorted(v[1]))
                              for k, v in infer.output_alternatives.items()]}

    def run(sess):
        summaries = _summaries(tf, sess)
        for _ in range(steps):
            sess.run(train.train_op)
        sess.run({k: v[1] for k, v in ops.eval_metric_ops.items()})
        values = sess.run({"metrics": {k: v[0] for k, v in ops.eval_metric_ops.items()},
                           "loss": ops.loss, "train_loss": train.loss,
                           "predictions": infer.predictions,
                           "variables": {v.op.name: v for v in tf.global_variables()}})
        values["summaries_before"] = summaries
        values["summaries_after"] = _summaries(tf, sess)
        values.update(names)
        return values
    return run


RACY = {"rtol": 0.05, "atol": 0.02}
LABELS_1 = [[1.0], [2.0], [0.0], [3.0]]
LABELS_2 = [[1.0, 0.0], [2.0, 1.0], [0.0, -1.0], [3.0, 2.0]]
BINARY = [[1], [0], [0], [1]]
CLASSES = [[1], [2], [0], [2]]
MULTI_HOT = [[1, 0, 1], [0, 1, 0], [0, 0, 1], [1, 1, 0]]


# -- centered bias -----------------------------------------------------------------------------

def case_centered_bias_regression(tf):
    return _trained_head_case(tf, lambda L: L.regression_head(enable_centered_bias=True),
                              LABELS_1)


def case_centered_bias_regression_model_trained(tf):
    return _trained_head_case(tf, lambda L: L.regression_head(enable_centered_bias=True),
                              LABELS_1, train_model=True)


case_centered_bias_regression_model_trained.tolerance = RACY


def case_centered_bias_regression_2d_weighted(tf):
    return _trained_head_case(tf, lambda L: L.regression_head(
        label_dimension=2, weight_column_name="w8", enable_centered_bias=True),
        LABELS_2, weighted=True)


def case_centered_bias_poisson(tf):
    return _trained_head_case(tf, lambda L: L.poisson_regression_head(
        enable_centered_bias=True), LABELS_1)


def case_centered_bias_binary(tf):
    return _trained_head_case(tf, lambda L: L.multi_class_head(2, enable_centered_bias=True),
                              BINARY)


def case_centered_bias_binary_weighted_named(tf):
    return _trained_head_case(tf, lambda L: L.multi_class_head(
        2, enable_centered_bias=True, weight_column_name="w8", head_name="bin"),
        BINARY, weighted=True)


def case_centered_bias_multi_class(tf):
    return _trained_head_case(tf, lambda L: L.multi_class_head(3, enable_centered_bias=True),
                              CLASSES)


def case_centered_bias_multi_label(tf):
    return _trained_head_case(tf, lambda L: L.multi_label_head(3, enable_centered_bias=True),
                              MULTI_HOT)


def case_centered_bias_multi_head(tf):
    def make(L):
        return L.multi_head([
            L.multi_class_head(3, enable_centered_bias=True, head_name="cls",
                               label_name="cls"),
            L.regression_head(enable_centered_bias=True, head_name="reg",
                              label_name="reg")], [1.0, 0.5])
    L = tf.contrib.learn
    head = make(L)
    labels = {"cls": tf.constant(CLASSES), "reg": tf.constant(LABELS_1)}
    with tf.variable_scope("model"):
        logits = _linear_logits(tf, head.logits_dimension)
    train = head.create_model_fn_ops({}, L.ModeKeys.TRAIN, labels=labels,
                                     train_op_fn=_train_op_fn(tf), logits=logits)
    ops = head.create_model_fn_ops({}, L.ModeKeys.EVAL, labels=labels, logits=logits,
                                   train_op_fn=L.no_op_train_fn)

    def run(sess):
        before = _summaries(tf, sess)
        for _ in range(2):
            sess.run(train.train_op)
        sess.run({k: v[1] for k, v in ops.eval_metric_ops.items()})
        values = sess.run({"metrics": {k: v[0] for k, v in ops.eval_metric_ops.items()},
                           "loss": ops.loss,
                           "variables": {v.op.name: v for v in tf.global_variables()}})
        values["summaries_before"] = before
        values["train_op"] = train.train_op.name
        return values
    return run


case_centered_bias_multi_head.tolerance = RACY


def case_centered_bias_logits_input(tf):
    """The head's own `logits` layer (logits_input=), then the centered bias."""
    L = tf.contrib.learn
    head = L.multi_class_head(3, enable_centered_bias=True)
    ops = head.create_model_fn_ops({}, L.ModeKeys.INFER,
                                   logits_input=tf.constant(X))
    return {"predictions": sorted(ops.predictions)}


# -- loss_fn -----------------------------------------------------------------------------------

def _sparse_softmax_loss(tf):
    def loss_fn(labels, logits, weights=None):
        return tf.losses.sparse_softmax_cross_entropy(
            labels, logits, weights=1.0 if weights is None else weights)
    return loss_fn


def _sigmoid_loss(tf):
    def loss_fn(labels, logits, weights=None):
        return tf.losses.sigmoid_cross_entropy(
            labels, logits, weights=1.0 if weights is None else weights)
    return loss_fn


def _recording_loss(tf, seen):
    """A squared-error loss_fn that records the shapes of its arguments."""
    def loss_fn(labels, logits, weights=None):
        seen.append([labels.shape.as_list(), logits.shape.as_list(),
                     None if weights is None else weights.shape.as_list()])
        labels = tf.cast(labels, tf.float32)
        return tf.reduce_mean(tf.square(labels - tf.nn.softmax(logits)))
    return loss_fn


def case_loss_fn_multi_class(tf):
    return _trained_head_case(tf, lambda L: L.multi_class_head(
        3, loss_fn=_sparse_softmax_loss(tf)), CLASSES)


def case_loss_fn_multi_class_weighted_centered(tf):
    return _trained_head_case(tf, lambda L: L.multi_class_head(
        3, loss_fn=_sparse_softmax_loss(tf), weight_column_name="w8",
        enable_centered_bias=True), CLASSES, weighted=True)


def case_loss_fn_binary(tf):
    return _trained_head_case(tf, lambda L: L.multi_class_head(
        2, loss_fn=_sigmoid_loss(tf)), BINARY)


def case_loss_fn_binary_weighted(tf):
    return _trained_head_case(tf, lambda L: L.multi_class_head(
        2, loss_fn=_sigmoid_loss(tf), weight_column_name="w8", head_name="b"), BINARY,
        weighted=True)


def case_loss_fn_multi_label(tf):
    return _trained_head_case(tf, lambda L: L.multi_label_head(
        3, loss_fn=_sigmoid_loss(tf)), MULTI_HOT)


def case_loss_fn_multi_label_weighted_centered(tf):
    return _trained_head_case(tf, lambda L: L.multi_label_head(
        3, loss_fn=_sigmoid_loss(tf), weight_column_name="w8", enable_centered_bias=True),
        MULTI_HOT, weighted=True)


def case_loss_fn_arguments_seen(tf):
    """What a loss_fn is called with: the labels as given, weights only with a weight column
    (rank 1 made [batch, 1]); a partial and a callable object are accepted."""
    L = tf.contrib.learn
    seen = []
    logits = tf.constant(X[:, :1].repeat(3, axis=1))
    for weighted in (False, True):
        features = {"w8": tf.constant(WEIGHTS)} if weighted else {}
        head = L.multi_class_head(3, loss_fn=_recording_loss(tf, seen),
                                  weight_column_name="w8" if weighted else None)
        head.create_model_fn_ops(features, L.ModeKeys.EVAL, labels=tf.constant(CLASSES),
                                 logits=logits)

    class Loss(object):
        def __call__(self, labels, logits, weights=None):
            return tf.reduce_mean(logits)

    def loss(scale, labels, logits, weights=None):
        return scale * tf.reduce_mean(logits)
    made = []
    for fn in (Loss(), functools.partial(loss, 2.0)):
        ops = L.multi_label_head(3, loss_fn=fn).create_model_fn_ops(
            {}, L.ModeKeys.EVAL, labels=tf.constant(MULTI_HOT), logits=logits)
        made.append(ops.loss)
    return {"seen": [str(s) for s in seen], "losses": made}


def _message(make):
    try:
        make()
    except Exception as error:  # noqa: BLE001 - the message is what is compared
        return "%s: %s" % (type(error).__name__, error)
    return "no error"


def case_errors(tf):
    L = tf.contrib.learn

    def two(labels, logits):
        return logits

    def no_labels(target, logits, weights=None):
        return logits

    def keyword_only(labels, logits, *, weights=None):
        return logits
    return {
        "loss_fn_no_weights": _message(lambda: L.multi_class_head(3, loss_fn=two)),
        "loss_fn_no_weights_binary": _message(lambda: L.multi_class_head(2, loss_fn=two)),
        "loss_fn_no_weights_label": _message(lambda: L.multi_label_head(3, loss_fn=two)),
        "loss_fn_no_labels": _message(lambda: L.multi_class_head(3, loss_fn=no_labels)),
        "loss_fn_keyword_only": _message(lambda: L.multi_label_head(3, loss_fn=keyword_only)),
        "loss_fn_lambda": _message(lambda: L.multi_class_head(
            3, loss_fn=lambda labels, logits: logits)),
        "tf_losses_sigmoid": _message(lambda: L.multi_label_head(
            3, loss_fn=tf.losses.sigmoid_cross_entropy)),
        "tf_losses_sparse_softmax": _message(lambda: L.multi_class_head(
            3, loss_fn=tf.losses.sparse_softmax_cross_entropy)),
        "binary_label_keys": _message(lambda: L.multi_class_head(2, label_keys=["a", "b"])),
        "binary_metric_class_ids": _message(lambda: L.multi_class_head(
            2, metric_class_ids=[0])),
        "binary_both": _message(lambda: L.multi_class_head(
            2, metric_class_ids=[1], label_keys=["a", "b"])),
        "class_id_high": _message(lambda: L.multi_class_head(3, metric_class_ids=[0, 3])),
        "class_id_negative": _message(lambda: L.multi_class_head(3, metric_class_ids=[-1])),
        "label_class_id_high": _message(lambda: L.multi_label_head(4, metric_class_ids=[4])),
        "label_keys_length": _message(lambda: L.multi_class_head(3, label_keys=["a", "b"])),
        "multi_label_one_class": _message(lambda: L.multi_label_head(1)),
        "multi_class_one_class": _message(lambda: L.multi_class_head(1)),
    }


# -- metric_class_ids and thresholds -----------------------------------------------------------

def _eval_case(tf, make_head, labels, weighted=False):
    L = tf.contrib.learn
    head = make_head(L)
    features = {"w8": tf.constant(WEIGHTS)} if weighted else {}
    with tf.variable_scope("model"):
        logits = _linear_logits(tf, head.logits_dimension)
    ops = head.create_model_fn_ops(features, L.ModeKeys.EVAL, labels=tf.constant(labels),
                                   logits=logits, train_op_fn=L.no_op_train_fn)

    def run(sess):
        sess.run({k: v[1] for k, v in ops.eval_metric_ops.items()})
        values = sess.run({"metrics": {k: v[0] for k, v in ops.eval_metric_ops.items()},
                           "loss": ops.loss})
        values["metric_tensors"] = {k: v[0].name for k, v in ops.eval_metric_ops.items()}
        return values
    return run


def case_metric_class_ids_multi_class(tf):
    return _eval_case(tf, lambda L: L.multi_class_head(3, metric_class_ids=[0, 2]), CLASSES)


def case_metric_class_ids_multi_class_weighted_named(tf):
    return _eval_case(tf, lambda L: L.multi_class_head(
        3, metric_class_ids=[1], weight_column_name="w8", head_name="mc",
        thresholds=[0.3, 0.7]), CLASSES, weighted=True)


def case_metric_class_ids_with_label_keys(tf):
    """With label_keys, TF 1.15 added no per-class metric."""
    return _eval_case(tf, lambda L: L.multi_class_head(
        3, metric_class_ids=[0], label_keys=["a", "b", "c"]),
        [[b"b"], [b"c"], [b"a"], [b"c"]])


def case_metric_class_ids_multi_label(tf):
    return _eval_case(tf, lambda L: L.multi_label_head(3, metric_class_ids=[0, 2]), MULTI_HOT)


def case_thresholds_metric_class_ids_multi_label_weighted(tf):
    return _eval_case(tf, lambda L: L.multi_label_head(
        3, thresholds=[0.25, 0.75], metric_class_ids=[1], weight_column_name="w8",
        head_name="ml"), MULTI_HOT, weighted=True)


def case_thresholds_binary(tf):
    return _eval_case(tf, lambda L: L.multi_class_head(2, thresholds=[0.25, 0.5, 0.75]),
                      BINARY)


# -- a whole estimator -------------------------------------------------------------------------

def case_linear_estimator_centered_bias_metric_class_ids(tf):
    L = tf.contrib.learn
    rng = np.random.RandomState(0)
    x = rng.randn(40, 2).astype(np.float32)
    y = ((x[:, 0] > 0).astype(np.int64) + (x[:, 1] > 0).astype(np.int64)).reshape(-1, 1)
    model_dir = tempfile.mkdtemp(prefix="contrib_learn_heads_case_")
    est = L.LinearEstimator(
        feature_columns=[tf.contrib.layers.real_valued_column("x", dimension=2)],
        head=L.multi_class_head(3, enable_centered_bias=True, metric_class_ids=[0]),
        model_dir=model_dir)

    def input_fn():
        return {"x": tf.constant(x)}, tf.constant(y)
    est.fit(input_fn=input_fn, steps=5)
    metrics = est.evaluate(input_fn=input_fn, steps=1)
    predicted = list(est.predict(input_fn=input_fn))[:2]
    checkpoint = [[name, shape] for name, shape in tf.train.list_variables(model_dir)]
    bias = {name: tf.train.load_variable(model_dir, name).tolist()
            for name, _ in checkpoint if "centered_bias_weight" in name}
    shutil.rmtree(model_dir)
    out = {"metrics": {k: float(v) for k, v in metrics.items()},
           "predicted": [{k: np.asarray(v).tolist() for k, v in p.items()}
                         for p in predicted],
           "checkpoint": checkpoint, "centered_bias": bias}
    return lambda sess: out


case_linear_estimator_centered_bias_metric_class_ids.tolerance = RACY


# -- SparseTensor labels, weights per label ----------------------------------------------------

def _sparse_multi_hot(tf):
    """MULTI_HOT as a SparseTensor of class ids (as a tf.parse_example VarLenFeature gives)."""
    return tf.SparseTensor(indices=[[0, 0], [0, 1], [1, 0], [2, 0], [3, 0], [3, 1]],
                           values=tf.constant([0, 2, 1, 2, 0, 1], tf.int64),
                           dense_shape=[4, 2])


def case_multi_label_sparse_labels(tf):
    return _trained_head_case(tf, lambda L: L.multi_label_head(
        3, enable_centered_bias=True, weight_column_name="w8"), _sparse_multi_hot,
        weighted=True)


def case_sparse_labels_refused(tf):
    """Heads other than multi_label_head refuse SparseTensor labels."""
    L = tf.contrib.learn

    def build(head):
        return lambda: head.create_model_fn_ops(
            {}, L.ModeKeys.TRAIN, labels=_sparse_multi_hot(tf), train_op_fn=L.no_op_train_fn,
            logits=tf.constant(np.ones([4, head.logits_dimension], np.float32)))

    def message(head):  # (ours adds how to mend it, in parentheses)
        return _message(build(head)).split(" (")[0]
    return {"multi_class": message(L.multi_class_head(3)),
            "binary": message(L.multi_class_head(2)),
            "regression": message(L.regression_head()),
            "label_keys": message(L.multi_class_head(3, label_keys=["a", "b", "c"]))}


PER_LABEL = np.array([[1.0, 0.5], [2.0, 0.0], [0.5, 1.0], [1.0, 3.0]], np.float32)
PER_CLASS = np.array([[1.0, 0.5, 2.0], [2.0, 0.0, 1.0], [0.5, 1.0, 1.0], [1.0, 3.0, 0.25]],
                     np.float32)


def case_regression_weights_per_label(tf):
    return _trained_head_case(tf, lambda L: L.regression_head(
        label_dimension=2, weight_column_name="w8", enable_centered_bias=True),
        LABELS_2, weighted=PER_LABEL)


def case_multi_label_weights_per_class(tf):
    return _trained_head_case(tf, lambda L: L.multi_label_head(
        3, weight_column_name="w8", enable_centered_bias=True), MULTI_HOT, weighted=PER_CLASS)


def case_loss_metric_over_batches(tf):
    """The `loss` metric over two batches of different sizes and weights: TF 1.15's is the
    mean of each batch's weighted average loss (not the weighted mean over all examples)."""
    L = tf.contrib.learn
    x = tf.placeholder(tf.float32, [None, 2])
    y = tf.placeholder(tf.float32, [None, 1])
    w = tf.placeholder(tf.float32, [None])
    out = {}
    for name, head in (("regression", L.regression_head(weight_column_name="w8")),
                       ("binary", L.multi_class_head(2, weight_column_name="w8")),
                       ("multi_label", L.multi_label_head(2, weight_column_name="w8"))):
        with tf.variable_scope(name):
            logits = tf.matmul(x, tf.constant([[0.5, -1.0], [1.5, 0.25]])[:, :head.logits_dimension])
            labels = y if name != "multi_label" else tf.concat([y, 1.0 - y], 1)
            ops = head.create_model_fn_ops({"w8": w}, L.ModeKeys.EVAL, labels=labels,
                                           logits=logits, train_op_fn=L.no_op_train_fn)
            out[name] = ops.eval_metric_ops["loss"]

    def run(sess):
        sess.run(tf.local_variables_initializer())
        for rows, weights in (([0, 1, 2], [1.0, 2.0, 0.5]), ([3], [4.0])):
            sess.run({k: v[1] for k, v in out.items()},
                     {x: X[rows], y: np.array(BINARY, np.float32)[rows], w: weights})
        return sess.run({k: v[0] for k, v in out.items()})
    return run
