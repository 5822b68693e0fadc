"""Records TF 1.15's ARRegressor with an anomaly mixture (TF 1.15's
`contrib/timeseries/examples/known_anomaly.py` style: a periodic series with three spikes,
`anomaly_prior_probability=0.001`, Gaussian anomalies; 200 steps of RandomWindowInputFn, then
evaluate on the whole series and predict 4 steps) for tests/test_contrib_timeseries_anomaly.py:
checkpoint names and shapes, the evaluation loss of 4 runs for each of graph seeds 1 to 5
(initial weights differ between TF 1.15 and here, and RandomWindowInputFn's reader threads
make each run differ: the spread says how close to expect), the learned anomaly scale, evaluate / predict keys and
shapes, and the eval event file's tags (kind, dtype, shape).
In the TF 1.15 side venv, from the project root:

    python tests/tf115_cases/timeseries_anomaly_record.py \
        > tests/fixtures/tf115_cases/contrib_timeseries_anomaly_estimator.json
"""
import glob
import json
import os
import tempfile

import numpy as np
import tensorflow as tf

RUNS_PER_SEED = 4  # the reader threads make runs of one seed differ as much as seeds do


def series():
    t = np.arange(200)
    rng = np.random.RandomState(0)
    v = (np.sin(2 * np.pi * t / 12) + 0.1 * rng.randn(200)).astype(np.float32)
    v[[37, 90, 151]] += 6.0
    return {"times": t, "values": v[:, None]}


def shapes(results):
    return {k: ([list(np.shape(x)) for x in v] if isinstance(v, tuple) else list(np.shape(v)))
            for k, v in results.items()}


def event_tags(eval_dir):
    """{tag: [kind, dtype or None, shape or None]} of the eval event files' values."""
    out = {}
    for path in glob.glob(os.path.join(eval_dir, "events.out.tfevents.*")):
        for event in tf.compat.v1.train.summary_iterator(path):
            for value in event.summary.value:
                kind = value.WhichOneof("value")
                if kind == "tensor":
                    array = tf.make_ndarray(value.tensor)
                    out[value.tag] = [kind, array.dtype.name, list(array.shape)]
                else:
                    out[value.tag] = [kind, None, None]
    return out


def run(ts, run_config, seed, steps=200):
    """(model_dir, evaluation, first prediction) of the program with graph seed `seed`."""
    model_dir = tempfile.mkdtemp()
    est = ts.ARRegressor(periodicities=12, input_window_size=12, output_window_size=4,
                         num_features=1, anomaly_prior_probability=0.001,
                         anomaly_distribution="gaussian", model_dir=model_dir,
                         config=run_config(tf_random_seed=seed))
    reader = ts.NumpyReader(series())
    est.train(ts.RandomWindowInputFn(reader, window_size=16, batch_size=16), steps=steps)
    evaluation = est.evaluate(ts.WholeDatasetInputFn(reader), steps=1)
    (prediction,) = list(est.predict(ts.predict_continuation_input_fn(evaluation, steps=4)))
    return model_dir, evaluation, prediction


def main():
    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.ERROR)
    out = {"loss": {}}
    for seed in (1, 2, 3, 4, 5):
        for _ in range(RUNS_PER_SEED):
            model_dir, evaluation, prediction = run(tf.contrib.timeseries,
                                                    tf.estimator.RunConfig, seed)
            out["loss"].setdefault(str(seed), []).append(float(evaluation["loss"]))
    out["names"] = {n: s for n, s in tf.train.list_variables(model_dir)}
    out["anomaly_log_param"] = float(tf.train.load_variable(model_dir,
                                                            "model/anomaly_log_param"))
    out["eval"] = shapes(evaluation)
    out["pred"] = shapes(prediction)
    out["events"] = event_tags(os.path.join(model_dir, "eval"))
    json.dump(out, __import__("sys").stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
