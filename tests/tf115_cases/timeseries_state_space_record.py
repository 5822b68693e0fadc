"""Records TF 1.15's StructuralEnsembleRegressor on a small periodic series (checkpoint names
and shapes, evaluate's keys / shapes / dtypes and loss, predict's keys, shapes and means, the
exported signatures and saved_model_utils' outputs), for
tests/test_contrib_timeseries_state_space.py. In the TF 1.15 side venv, from the project root:

    python tests/tf115_cases/timeseries_state_space_record.py \
        > tests/fixtures/tf115_cases/contrib_timeseries_state_space_estimator.json
"""
import json
import os
import tempfile

import numpy as np


def series():
    """50 steps of a period-10 sine on a slope, with noise; one time missing."""
    times = np.delete(np.arange(51), 37)
    noise = np.random.RandomState(0).normal(scale=0.2, size=times.shape)
    values = np.sin(2 * np.pi * times / 10.) * 2 + 0.05 * times + noise
    return {"times": times, "values": values}


def keyed(results):
    return {k: ([[list(np.shape(x)), np.asarray(x).dtype.name] for x in v]
                if isinstance(v, tuple) else [list(np.shape(v)), np.asarray(v).dtype.name])
            for k, v in results.items()}


def main():
    import tensorflow as tf
    tf.logging.set_verbosity(tf.logging.ERROR)
    ts = tf.contrib.timeseries
    directory = tempfile.mkdtemp()
    data = series()
    reader = ts.NumpyReader(data)
    est = ts.StructuralEnsembleRegressor(
        periodicities=10, num_features=1, cycle_num_latent_values=3, moving_average_order=1,
        model_dir=os.path.join(directory, "model"))
    est.train(ts.WholeDatasetInputFn(reader), steps=10)
    out = {"names": {n: s for n, s in tf.train.list_variables(os.path.join(directory, "model"))}}
    evaluation = est.evaluate(ts.WholeDatasetInputFn(reader), steps=1)
    out["eval"] = keyed(evaluation)
    out["eval_loss"] = float(evaluation["loss"])
    (prediction,) = est.predict(ts.predict_continuation_input_fn(evaluation, steps=4))
    out["pred"] = keyed(prediction)
    out["pred_mean"] = prediction["mean"].ravel().tolist()
    export = est.export_saved_model(os.path.join(directory, "export"),
                                    est.build_raw_serving_input_receiver_fn())
    with tf.Graph().as_default(), tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], export)
        out["signatures"] = {
            key: {"method": sig.method_name,
                  "inputs": {k: [v.dtype, [d.size for d in v.tensor_shape.dim]]
                             for k, v in sig.inputs.items()},
                  "outputs": {k: v.dtype for k, v in sig.outputs.items()}}
            for key, sig in meta.signature_def.items()}
        cold = ts.saved_model_utils.cold_start_filter(
            meta, sess, {k: v[:30] for k, v in data.items()})
        out["cold_start_filter"] = keyed(cold)
        served = ts.saved_model_utils.predict_continuation(cold, meta, sess, steps=3)
        out["predict_continuation"] = keyed(served)
    print(json.dumps(out, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
