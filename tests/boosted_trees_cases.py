"""The boosted trees configurations compared with tf.estimator 2.8, shared by the fixture
writer (run under TF 2.8: tests/fixtures/make_tf28_boosted_trees.py) and
tests/test_boosted_trees.py, so both build the same data, columns and estimators from the
`tf.estimator`-like module they are given."""
import numpy as np

CASES = {
    # in-memory, bias centering, numeric (quantiles) + bucketized + indicator columns
    "binary_in_memory": dict(task="binary", cols=["x1", "x2b", "ind"], mem=True,
                             center_bias=True),
    # batches accumulated per layer (an epoch each), quantiles over 3 batches, bias centering
    "regression_batches": dict(task="regress", cols=["x1", "x2", "ind"], batch=200, nb=3,
                               center_bias=True, trees=4, steps=400),
    # pre-pruning, equality splits on a categorical column
    "binary_pre_pruning": dict(task="binary", cols=["x1", "x2b", "ind", "cat"], batch=200,
                               nb=3, pruning_mode="pre", tree_complexity=0.001, trees=4,
                               depth=4),
    # post-pruning in memory (cached nodes remapped after pruning)
    "regression_post_pruning": dict(task="regress", cols=["x1", "x2b", "ind"], mem=True,
                                    pruning_mode="post", tree_complexity=0.02, trees=4,
                                    depth=4),
    # three classes: full hessians
    "multiclass": dict(task="multi", cols=["x1", "x2b", "ind"], batch=150, nb=4, trees=3),
    # a weight column (weighted quantiles, gradients through the head), l1 / l2 / min weight
    "binary_weighted": dict(task="binary", cols=["x1", "x2", "ind"], batch=120, nb=5,
                            weights=True, l2_regularization=0.1, l1_regularization=0.01,
                            min_node_weight=0.01),
}
VOCABULARY = ["a", "b", "c", "d"]


def data(n=600, seed=0, task="binary"):
    rng = np.random.RandomState(seed)
    x1 = rng.rand(n).astype(np.float32)
    x2 = rng.randn(n).astype(np.float32) * 2
    cat = rng.randint(0, 4, n)
    weights = (rng.rand(n) + 0.5).astype(np.float32)
    ids = rng.randint(0, 5, n)
    score = x1 + 0.3 * x2 * (cat == 1) + 0.4 * (ids == 3) + 0.2 * rng.randn(n)
    features = {"x1": x1, "x2": x2, "c": np.array(VOCABULARY)[cat], "id": ids.astype(np.int64),
                "w": weights}
    if task == "binary":
        labels = (score > 0.7).astype(np.int64)
    elif task == "multi":
        labels = np.digitize(score, [0.4, 0.9]).astype(np.int64)
    else:
        labels = score.astype(np.float32)
    return features, labels


def columns(fc, names):
    made = {"x1": fc.numeric_column("x1"),
            "x2": fc.numeric_column("x2"),
            "x2b": fc.bucketized_column(fc.numeric_column("x2"), [-2., -1., 0., 1., 2.]),
            "ind": fc.indicator_column(fc.categorical_column_with_vocabulary_list("c",
                                                                                  VOCABULARY)),
            "cat": fc.categorical_column_with_identity("id", 5)}
    return [made[n] for n in names]


def estimator(tf, api, case, model_dir):
    """The case's estimator from `api` (tf.estimator, or estimator_compat) and its train
    input_fn."""
    features, labels = data(task=case["task"])
    kw = dict(n_batches_per_layer=case.get("nb", 1), n_trees=case.get("trees", 3),
              max_depth=case.get("depth", 3), model_dir=model_dir)
    for key in ("center_bias", "pruning_mode", "tree_complexity", "l1_regularization",
                "l2_regularization", "min_node_weight"):
        if key in case:
            kw[key] = case[key]
    if case.get("mem"):
        kw["train_in_memory"] = True
    if case.get("weights"):
        kw["weight_column"] = "w"
    cols = columns(tf.feature_column, case["cols"])
    if case["task"] == "regress":
        est = api.BoostedTreesRegressor(cols, **kw)
    else:
        est = api.BoostedTreesClassifier(cols, n_classes=3 if case["task"] == "multi" else 2,
                                         **kw)

    def train_input_fn():
        if case.get("mem"):  # the whole data as one batch of tensors (tf.estimator 2.8's
            return ({k: tf.constant(v) for k, v in features.items()},  # in-memory training
                    tf.constant(labels))  # could not read a Dataset)
        return tf.data.Dataset.from_tensor_slices((features, labels)).batch(
            case["batch"]).repeat()
    return est, train_input_fn


def eval_input_fn(tf, case):
    features, labels = data(task=case["task"])
    return lambda: tf.data.Dataset.from_tensor_slices((features, labels)).batch(200)


def predict_input_fn(tf, case, batch=50):
    features, _ = data(task=case["task"])
    return lambda: tf.data.Dataset.from_tensor_slices(features).batch(batch)
