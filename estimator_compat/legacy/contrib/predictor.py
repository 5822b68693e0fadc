"""`tf.contrib.predictor`: call a model on a dict of numpy inputs from a Python process
(`predictor.from_saved_model(path)({"x": batch})`), each predictor a TF1 session over its own
graph, as TF 1.15's `SavedModelPredictor` / `CoreEstimatorPredictor` /
`ContribEstimatorPredictor` were. The Estimator ones export the latest checkpoint to a
temporary directory and load that (TF 1.15 rebuilt the same graph from the model_fn).
TensorFlow 2: `tf.saved_model.load(path).signatures["serving_default"]`."""
import shutil
import tempfile

import tensorflow as tf

from estimator_compat.legacy.namespaces import namespace

v1 = tf.compat.v1
DEFAULT_KEY = tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY


class Predictor:
    """`feed_tensors` / `fetch_tensors` ({key: tensor}), `graph`, `session`; called with a dict
    of inputs, returns the dict of fetched numpy values."""

    feed_tensors = property(lambda self: self._feed_tensors)
    fetch_tensors = property(lambda self: self._fetch_tensors)
    graph = property(lambda self: self._graph)
    session = property(lambda self: self._session)

    def __call__(self, input_dict):
        unexpected = set(input_dict) - set(self._feed_tensors)
        if unexpected:
            raise ValueError(f"Got unexpected keys in input_dict: {unexpected}")
        feed = {self._feed_tensors[key]: value for key, value in input_dict.items()}
        return self._session.run(self._fetch_tensors, feed_dict=feed)

    def __repr__(self):
        return (f"{type(self).__name__} with feed tensors {self._feed_tensors} and fetch "
                f"tensors {self._fetch_tensors}")


class SavedModelPredictor(Predictor):
    """A SavedModel's signature (`signature_def_key`, default `serving_default`), or the
    tensors named by `input_names` / `output_names` ({key: tensor name})."""

    def __init__(self, export_dir, signature_def_key=None, signature_def=None,
                 input_names=None, output_names=None, tags=None, graph=None, config=None):
        if (input_names is None) != (output_names is None):
            raise ValueError("input_names and output_names must both be given or both be None")
        self._graph = graph or tf.Graph()
        self._session = v1.Session(graph=self._graph, config=config)
        with self._graph.as_default():
            meta = v1.saved_model.loader.load(self._session, tags or [tf.saved_model.SERVING],
                                              export_dir)
            if input_names is None:
                if signature_def is None:
                    key = signature_def_key or DEFAULT_KEY
                    if key not in meta.signature_def:
                        raise ValueError(f"Could not find signature def {key!r} in the "
                                         f"SavedModel at {export_dir}; it has "
                                         f"{sorted(meta.signature_def)}.")
                    signature_def = meta.signature_def[key]
                input_names = {k: v.name for k, v in signature_def.inputs.items()}
                output_names = {k: v.name for k, v in signature_def.outputs.items()}
            self._feed_tensors = {k: self._graph.get_tensor_by_name(n)
                                  for k, n in input_names.items()}
            self._fetch_tensors = {k: self._graph.get_tensor_by_name(n)
                                   for k, n in output_names.items()}


def _from_export(export, signature_def_key, graph, config):
    directory = tempfile.mkdtemp(prefix="predictor-")
    try:
        path = export(directory)
        path = path.decode() if isinstance(path, bytes) else path
        return SavedModelPredictor(path, signature_def_key=signature_def_key, graph=graph,
                                   config=config)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


class CoreEstimatorPredictor(SavedModelPredictor):
    """A tf.estimator Estimator's latest checkpoint over `serving_input_receiver_fn`; fetches
    the export output `output_key` (default `serving_default`)."""

    def __init__(self, estimator, serving_input_receiver_fn, output_key=None, graph=None,
                 config=None):
        made = _from_export(lambda d: estimator.export_saved_model(d, serving_input_receiver_fn),
                            output_key, graph, config)
        self.__dict__.update(made.__dict__)


class ContribEstimatorPredictor(SavedModelPredictor):
    """A tf.contrib.learn Estimator's latest checkpoint over `prediction_input_fn` (an
    InputFnOps function); fetches the signature of the given input and output alternatives."""

    def __init__(self, estimator, prediction_input_fn, input_alternative_key=None,
                 output_alternative_key=None, graph=None, config=None):
        key = DEFAULT_KEY
        if input_alternative_key or output_alternative_key:
            key = f"{input_alternative_key or 'default_input_alternative'}:" \
                  f"{output_alternative_key}"
        made = _from_export(lambda d: estimator.export_savedmodel(d, prediction_input_fn),
                            key, graph, config)
        self.__dict__.update(made.__dict__)


def from_saved_model(export_dir, signature_def_key=None, signature_def=None, input_names=None,
                     output_names=None, tags=None, graph=None, config=None):
    return SavedModelPredictor(export_dir, signature_def_key, signature_def, input_names,
                               output_names, tags, graph, config)


def from_estimator(estimator, serving_input_receiver_fn, output_key=None, graph=None,
                   config=None):
    return CoreEstimatorPredictor(estimator, serving_input_receiver_fn, output_key, graph,
                                  config)


def from_contrib_estimator(estimator, prediction_input_fn, input_alternative_key=None,
                           output_alternative_key=None, graph=None, config=None):
    return ContribEstimatorPredictor(estimator, prediction_input_fn, input_alternative_key,
                                     output_alternative_key, graph, config)


def build():
    return namespace("tensorflow.contrib.predictor", __doc__, __served_whole__=True,
                     from_saved_model=from_saved_model, from_estimator=from_estimator,
                     from_contrib_estimator=from_contrib_estimator)
