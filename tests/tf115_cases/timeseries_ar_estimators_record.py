"""Records TF 1.15's ARRegressor / TimeSeriesRegressor on a small series (checkpoint names and
shapes, input statistics after 2 steps, evaluate / predict shapes, the exported signatures
and saved_model_utils' outputs, constructor errors), for
tests/test_contrib_timeseries_ar.py. In the TF 1.15 side venv, from the project root:

    python tests/tf115_cases/timeseries_ar_estimators_record.py \
        > tests/fixtures/tf115_cases/contrib_timeseries_ar_estimators.json
"""
import json, sys, tempfile, os
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
ts = tf.contrib.timeseries
d = tempfile.mkdtemp()
t = np.arange(12) * 2 + 5
data = {"times": t, "values": np.stack([np.sin(t / 3.0), np.cos(t / 5.0) * 2], -1).astype(np.float32),
        "c": (t % 3).astype(np.int64)}
out = {}
col = tf.feature_column.embedding_column(tf.feature_column.categorical_column_with_identity("c", 3), 2)
est = ts.ARRegressor(periodicities=6, input_window_size=8, output_window_size=4, num_features=2,
                     hidden_layer_sizes=[3, 2], exogenous_feature_columns=[col],
                     model_dir=os.path.join(d, "a"))
reader = ts.NumpyReader(data)
est.train(ts.WholeDatasetInputFn(reader), steps=2)
path = os.path.join(d, "a")
out["names"] = {n: s for n, s in tf.train.list_variables(path)}
out["stats"] = {n: tf.train.load_variable(path, n).tolist() for n in out["names"] if n.startswith("input_stat")}
ev = est.evaluate(ts.WholeDatasetInputFn(reader), steps=1)
out["eval"] = {k: (list(np.shape(v)) if not isinstance(v, tuple) else [list(np.shape(x)) for x in v]) for k, v in ev.items()}
pred = list(est.predict(ts.predict_continuation_input_fn(ev, steps=3, exogenous_features={"c": np.array([[0, 1, 2]])})))
out["pred"] = {k: list(np.shape(v)) for k, v in pred[0].items()}
export = est.export_saved_model(os.path.join(d, "export"), est.build_raw_serving_input_receiver_fn())
with tf.Graph().as_default():
    with tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], export)
        out["signatures"] = {
            key: {"method": sig.method_name,
                  "inputs": {k: [v.dtype, [d.size for d in v.tensor_shape.dim]] for k, v in sig.inputs.items()},
                  "outputs": {k: v.dtype for k, v in sig.outputs.items()}}
            for key, sig in meta.signature_def.items()}
        served_data = dict(data, c=data["c"][:, None])  # the exported `c` is [batch, length, 1]
        cold = ts.saved_model_utils.cold_start_filter(meta, sess, {k: v[:9] for k, v in served_data.items()})
        out["cold_start_filter"] = {k: list(np.shape(v)) for k, v in cold.items()}
        more = ts.saved_model_utils.filter_continuation(cold, meta, sess, {k: v[9:] for k, v in served_data.items()})
        out["filter_continuation"] = {k: list(np.shape(v)) for k, v in more.items()}
        served = ts.saved_model_utils.predict_continuation(
            more, meta, sess, steps=3, exogenous_features={"c": np.array([[[0], [1], [2]]])})
        out["predict_continuation"] = {k: list(np.shape(v)) for k, v in served.items()}
est2 = ts.TimeSeriesRegressor(model=ts.ARModel(periodicities=None, input_window_size=3, output_window_size=1, num_features=2,
                                               loss=ts.ARModel.SQUARED_LOSS), model_dir=os.path.join(d, "b"))
est2.train(ts.RandomWindowInputFn(reader, window_size=4, batch_size=2), steps=2)
out["names2"] = sorted(n for n, _ in tf.train.list_variables(os.path.join(d, "b")))
ev = est2.evaluate(ts.WholeDatasetInputFn(reader), steps=1)
out["eval2"] = {k: (list(np.shape(v)) if not isinstance(v, tuple) else [list(np.shape(x)) for x in v]) for k, v in ev.items()}
pred = list(est2.predict(ts.predict_continuation_input_fn(ev, times=[[30, 32]])))
out["pred2"] = {k: list(np.shape(v)) for k, v in pred[0].items()}
one_shot = ts.TimeSeriesRegressor(
    model=ts.ARModel(periodicities=6, input_window_size=4, output_window_size=2, num_features=2),
    head_type=ts.OneShotPredictionHead, model_dir=os.path.join(d, "c"))
one_shot.train(ts.RandomWindowInputFn(ts.NumpyReader({k: data[k] for k in ("times", "values")}),
                                      window_size=6, batch_size=2), steps=2)
ev = one_shot.evaluate(ts.WholeDatasetInputFn(ts.NumpyReader({k: data[k] for k in ("times", "values")})), steps=1)
out["one_shot_eval"] = sorted(ev)
export = one_shot.export_saved_model(os.path.join(d, "export_c"), one_shot.build_one_shot_parsing_serving_input_receiver_fn(
    filtering_length=8, prediction_length=3))
example = tf.train.Example(features=tf.train.Features(feature={
    "times": tf.train.Feature(int64_list=tf.train.Int64List(value=t[:11])),
    "values": tf.train.Feature(float_list=tf.train.FloatList(value=data["values"][:8].ravel()))}))
with tf.Graph().as_default():
    with tf.Session() as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], export)
        sig = meta.signature_def["serving_default"]
        out["one_shot_signature"] = {
            "method": sig.method_name,
            "inputs": {k: [v.dtype, [d.size for d in v.tensor_shape.dim]] for k, v in sig.inputs.items()},
            "outputs": {k: v.dtype for k, v in sig.outputs.items()}}
        got = sess.run({k: v.name for k, v in sig.outputs.items()},
                       {sig.inputs["examples"].name: [example.SerializeToString()] * 2})
        out["one_shot_served"] = {k: list(np.shape(v)) for k, v in got.items()}
for name, kwargs in [("anomaly", dict(anomaly_prior_probability=0.1)), ("dist", dict(anomaly_distribution="gaussian")),
                     ("badloss", dict(loss="nope"))]:
    try:
        ts.ARRegressor(periodicities=6, input_window_size=8, output_window_size=4, num_features=2, **kwargs)
        out[name] = "ok"
    except Exception as e:
        out[name] = type(e).__name__
print(json.dumps(out, sort_keys=True, indent=1))
