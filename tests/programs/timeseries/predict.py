"""TF 1.15's contrib/timeseries/examples/predict.py style: an ARRegressor trained on a periodic
CSV series (written here: a sine of period 20 plus a trend and noise), evaluated on the whole
series and asked for the next values with predict_continuation_input_fn.

    estimator-compat run predict.py --model_dir DIR [--steps N]

Prints `RESULT {json}`: the evaluation's loss and keys with their shapes, the checkpoint's
variable names and the predictions' shapes."""
import argparse
import json
import os

import numpy as np
import tensorflow as tf


def write_series(path, length=200):
    times = np.arange(length)
    values = (np.sin(2 * np.pi * times / 20) + 0.01 * times
              + np.random.RandomState(0).normal(0, 0.1, length))
    with open(path, "w") as f:
        f.write("".join("%d,%f\n" % (t, v) for t, v in zip(times, values)))


def shapes(value):
    if isinstance(value, tuple):
        return [list(np.shape(x)) for x in value]
    return list(np.shape(value))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_dir", required=True)
    parser.add_argument("--steps", type=int, default=100)
    args = parser.parse_args()
    tf.logging.set_verbosity(tf.logging.ERROR)
    if not os.path.isdir(args.model_dir):
        os.makedirs(args.model_dir)
    csv = os.path.join(args.model_dir, "series.csv")
    write_series(csv)
    ts = tf.contrib.timeseries
    estimator = ts.ARRegressor(
        periodicities=20, input_window_size=30, output_window_size=10, num_features=1,
        loss=ts.ARModel.NORMAL_LIKELIHOOD_LOSS, model_dir=os.path.join(args.model_dir, "m"),
        config=tf.estimator.RunConfig(tf_random_seed=1))
    reader = ts.CSVReader(csv)
    train_input_fn = ts.RandomWindowInputFn(reader, batch_size=4, window_size=40,
                                            num_threads=1, shuffle_seed=1)
    estimator.train(input_fn=train_input_fn, steps=args.steps)
    evaluation = estimator.evaluate(input_fn=ts.WholeDatasetInputFn(reader), steps=1)
    (predictions,) = tuple(estimator.predict(
        input_fn=ts.predict_continuation_input_fn(evaluation, steps=5)))
    names = sorted(n for n, _ in tf.train.list_variables(os.path.join(args.model_dir, "m")))
    result = dict(
        loss=float(evaluation["loss"]), average_loss=float(evaluation["average_loss"]),
        global_step=int(evaluation["global_step"]),
        evaluation={k: shapes(v) for k, v in sorted(evaluation.items())},
        predictions={k: shapes(v) for k, v in sorted(predictions.items())},
        mean=[float(x) for x in np.ravel(predictions["mean"])],
        variables=names)
    print("RESULT " + json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
