"""MirroredStrategy over 2 logical CPU devices: same results as one device. (A subprocess: the
logical devices must be set before TensorFlow initialises.)"""
import json
import os
import subprocess
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCRIPT = textwrap.dedent("""
    import json, sys
    sys.path[:0] = [ROOT, ROOT + "/tests"]
    import tensorflow as tf
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    import numpy as np
    import estimator_compat as ec
    from helpers import linear_data, linear_input_fn, linear_model_fn

    out = {}
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    seen = []

    def per_replica_input_fn(input_context=None):
        seen.append(None if input_context is None else
                    (input_context.num_replicas_in_sync, input_context.get_per_replica_batch_size(32)))
        x, y = linear_data()
        batch = input_context.get_per_replica_batch_size(32) if input_context else 32
        return tf.data.Dataset.from_tensor_slices(({"x": x}, y)).repeat().batch(batch)

    cfg = ec.RunConfig(model_dir=sys.argv[1], train_distribute=strategy, eval_distribute=strategy)
    est = ec.Estimator(linear_model_fn, config=cfg, params={"lr": 0.1})
    est.train(per_replica_input_fn, steps=40)
    state = est._state(strategy)
    out["mirrored"] = type(state.store.get("linear/w")).__name__
    out["global_step"] = int(est.get_variable_value("global_step"))
    out["input_context"] = seen
    out["eval"] = {k: float(v) for k, v in est.evaluate(linear_input_fn(batch=64, repeat=False)).items()}
    # the metric variables (sync-on-read, one per replica) are zeroed again for the next call
    out["eval_1"] = {k: float(v) for k, v in est.evaluate(linear_input_fn(batch=64, repeat=False), steps=1).items()}
    single = ec.Estimator(linear_model_fn, model_dir=sys.argv[1], params={"lr": 0.1})
    out["single_eval_1"] = {k: float(v) for k, v in single.evaluate(linear_input_fn(batch=64, repeat=False), steps=1).items()}
    out["single_eval"] = {k: float(v) for k, v in single.evaluate(linear_input_fn(batch=64, repeat=False)).items()}
    out["n_predictions"] = len(list(est.predict(linear_input_fn(batch=64, repeat=False))))
    out["w"] = est.get_variable_value("linear/w").ravel().tolist()

    # a model_fn that builds its train_op in every mode: evaluation must not run it
    def eager_train_op_model_fn(features, labels, mode, params):
        v1 = tf.compat.v1
        pred = tf.matmul(features["x"], v1.get_variable("linear/w", [3, 1])) + \
            v1.get_variable("linear/b", [1])
        loss = tf.reduce_mean(tf.square(pred - labels))
        train_op = v1.train.GradientDescentOptimizer(0.1).minimize(
            loss, global_step=v1.train.get_or_create_global_step())
        if mode == "train":
            return ec.EstimatorSpec(mode, loss=loss, train_op=train_op)
        return ec.EstimatorSpec(mode, loss=loss, eval_metric_ops={
            "mae": v1.metrics.mean_absolute_error(labels, pred)})
    both = ec.Estimator(eager_train_op_model_fn, config=cfg)
    out["eval_with_train_op"] = float(both.evaluate(linear_input_fn(batch=64, repeat=False))["mae"])
    x, y = linear_data()
    w, b = est.get_variable_value("linear/w"), est.get_variable_value("linear/b")
    out["expected_mae"] = float(np.mean(np.abs(x @ w + b - y)))

    # canned estimators, compat.v1 optimizers with slots (made in a merge call): the same
    # training as on one device (the mean loss is divided by the replicas, as tf.estimator did)
    cols = [tf.feature_column.numeric_column("x", shape=(3,))]
    labels = lambda: tf.data.Dataset.from_tensor_slices(  # noqa: E731
        ({"x": linear_data()[0]}, (linear_data()[1][:, 0] > 0.3).astype(np.int64))).batch(32)
    for name, make in [("dnn_adagrad", lambda c: ec.DNNClassifier([4], cols, config=c,
                                                                  optimizer="Adagrad")),
                       ("linear_sgd", lambda c: ec.LinearClassifier(cols, optimizer="SGD",
                                                                    config=c))]:
        for where, strat in (("mirrored", strategy), ("single", None)):
            c = ec.RunConfig(model_dir=sys.argv[1] + "/" + name + where, tf_random_seed=0,
                             train_distribute=strat, eval_distribute=strat)
            canned = make(c)
            canned.train(lambda: labels().repeat(), steps=30)
            out[name + "_" + where] = {k: float(v) for k, v in canned.evaluate(labels).items()}
        out[name + "_slots"] = [n for n in canned.get_variable_names() if "Adagrad" in n]

    # steps_per_execution: several train steps per call; evaluation and prediction the same
    for spe in (1, 3):
        c = ec.RunConfig(model_dir=sys.argv[1] + f"/spe{spe}", tf_random_seed=1,
                         train_distribute=strategy, eval_distribute=strategy,
                         steps_per_execution=spe)
        e = ec.Estimator(linear_model_fn, config=c, params={"lr": 0.1})
        e.train(linear_input_fn(), steps=10)
        out[f"spe{spe}"] = {
            "eval": {k: float(v) for k, v in e.evaluate(linear_input_fn(batch=40, repeat=False)).items()},
            "predict": [float(p["y"][0]) for p in e.predict(linear_input_fn(batch=40, repeat=False))]}
    print("RESULT" + json.dumps(out))
""").replace("ROOT", repr(ROOT))


def test_mirrored_strategy_on_two_cpu_devices(tmp_path):
    proc = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    out = json.loads(proc.stdout.split("RESULT")[1])
    assert out["mirrored"] == "MirroredVariable"
    assert out["global_step"] == 40  # once per step, not per replica
    assert out["input_context"] == [[2, 16]]  # the input_fn built the per-replica pipeline
    for key in ("loss", "mae", "global_step"):  # aggregated over replicas = one device's numbers
        assert abs(out["eval"][key] - out["single_eval"][key]) < 1e-5, (key, out)
        assert abs(out["eval_1"][key] - out["single_eval_1"][key]) < 1e-5, (key, out)
    assert out["eval_1"]["mae"] != out["eval"]["mae"]
    assert out["n_predictions"] == 256
    assert abs(out["eval_with_train_op"] - out["expected_mae"]) < 1e-5, out
    assert abs(out["w"][0] - 1.0) < 0.15 and abs(out["w"][1] + 2.0) < 0.15
    for name in ("dnn_adagrad", "linear_sgd"):
        for key in ("loss", "accuracy", "auc", "auc_precision_recall"):
            assert abs(out[name + "_mirrored"][key] - out[name + "_single"][key]) < 2e-4, out
    assert "training/Adagrad/dnn/logits/kernel/accumulator" in out["dnn_adagrad_slots"]  # 2.15's
    assert out["spe3"]["eval"]["global_step"] == 10
    for key in ("loss", "mae"):
        assert abs(out["spe3"]["eval"][key] - out["spe1"]["eval"][key]) < 1e-5, out
    assert len(out["spe3"]["predict"]) == 256
    assert max(abs(a - b) for a, b in zip(out["spe3"]["predict"], out["spe1"]["predict"])) < 1e-5
