"""Estimator: tf.estimator's façade over the compiled engine (estimator_compat.engine)."""
import contextlib
import copy
import logging

import tensorflow as tf

from estimator_compat import checkpoints, run_config, session_config, warm_start
from estimator_compat.cluster import parameter_servers
from estimator_compat.engine import eval_loop, predict_loop, train_loop
from estimator_compat.eager_calls import eager_entry, eager_generator
from estimator_compat.engine.model_fn_call import call_model_fn, verify_model_fn
from estimator_compat.engine.state import EngineState
from estimator_compat.legacy import layers as compat_layers
from estimator_compat.export import all_modes, saved_model
from estimator_compat.mode_keys import ModeKeys
from estimator_compat.run_config import with_model_dir

logger = logging.getLogger("tensorflow")


class Estimator:
    """Trains, evaluates and predicts with a `model_fn`, keeping state in `model_dir`."""
    _meta_graph_buildable = True  # its model_fn can be built in a TF1 graph (the .meta files)

    @eager_entry
    def __init__(self, model_fn, model_dir=None, config=None, params=None, warm_start_from=None):
        config = with_model_dir(config, model_dir)
        verify_model_fn(model_fn, params)
        session_config.apply(config.session_config)
        compat_layers.use()
        self._model_fn = model_fn
        self._model_dir = config.model_dir
        self._config = config
        self._params = copy.deepcopy(params or {})
        self._warm_start = warm_start.normalise(warm_start_from)
        self._states = {}
        logger.info("Using config: %s", run_config.log_text(config))

    # -- properties ---------------------------------------------------------------------------
    model_dir = property(lambda self: self._model_dir)
    config = property(lambda self: self._config)
    _session_config = property(lambda self: self._config.session_config)  # as TF's, read by
    # tensorflow_hub's LatestModuleExporter

    @property
    def model_fn(self):
        """The model_fn bound to this Estimator's params, as tf.estimator gave it:
        `model_fn(features, labels, mode, config)` returning an EstimatorSpec (tools such as
        tensorflow_hub's exporter build graphs with it)."""
        def public_model_fn(features, labels, mode, config):
            return call_model_fn(self._model_fn, features, labels, mode,
                                 self._params_for_call(mode), config)
        return public_model_fn

    @property
    def params(self):
        return copy.deepcopy(self._params)

    def _params_for_call(self, mode=None):
        """The params model_fn and input_fn get in `mode` (TPUEstimator adds batch_size)."""
        return self._params

    def _input_params_for_call(self, mode=None):
        """The params input_fn gets in `mode` (TPUEstimator's differ from model_fn's)."""
        return self._params_for_call(mode)

    def _state(self, strategy, training=False):
        if parameter_servers.is_parameter_server_strategy(strategy) and not training:
            strategy = None  # evaluate / predict under parameter servers: on this task
        strategy = strategy or tf.distribute.get_strategy()
        key = id(strategy)
        if key not in self._states:
            self._states[key] = EngineState(self, strategy)
        return self._states[key]

    # -- the three modes ----------------------------------------------------------------------
    @eager_entry
    def train(self, input_fn, hooks=None, steps=None, max_steps=None, saving_listeners=None):
        """Trains until `steps` more steps, `max_steps` in all, a hook stops, or input ends.
        On a `ps` or `worker` task of a parameter-server cluster: serves the chief's steps."""
        strategy, failures = self._config.train_distribute, contextlib.nullcontext()
        if parameter_servers.is_parameter_server_cluster(self._config):
            if parameter_servers.serves(self._config):
                parameter_servers.serve(self._config)
                return self
            strategy = parameter_servers.strategy_for(self._config)
            failures = parameter_servers.explained_failures(self._config)
        with failures:
            train_loop.train(self._state(strategy, training=True), input_fn, hooks=hooks,
                             steps=steps, max_steps=max_steps, saving_listeners=saving_listeners)
        return self

    @eager_entry
    def evaluate(self, input_fn, steps=None, hooks=None, checkpoint_path=None, name=None):
        """Evaluates a checkpoint on `input_fn`; returns {metric: value, 'loss', 'global_step'}."""
        state = self._state(self._config.eval_distribute)
        with state.training_variables_kept(checkpoint_path):
            return eval_loop.evaluate(state, input_fn, steps=steps, hooks=hooks,
                                      checkpoint_path=checkpoint_path, name=name)

    @eager_entry
    def predict(self, input_fn, predict_keys=None, hooks=None, checkpoint_path=None,
                yield_single_examples=True):
        """Yields predictions for `input_fn` (a dict per example, by default)."""
        state = self._state(self._config.eval_distribute)
        return eager_generator(_kept_for_training(state, checkpoint_path, predict_loop.predict(
            state, input_fn, predict_keys=predict_keys, hooks=hooks,
            checkpoint_path=checkpoint_path, yield_single_examples=yield_single_examples)),
            chunked=True)

    # -- export -------------------------------------------------------------------------------
    @eager_entry
    def export_saved_model(self, export_dir_base, serving_input_receiver_fn, assets_extra=None,
                           as_text=False, checkpoint_path=None,
                           experimental_mode=ModeKeys.PREDICT):
        """Exports the PREDICT graph with serving signatures; returns the export dir (bytes)."""
        return saved_model.export_saved_model(
            self, export_dir_base, serving_input_receiver_fn, assets_extra=assets_extra,
            as_text=as_text, checkpoint_path=checkpoint_path, experimental_mode=experimental_mode)

    def export_savedmodel(self, export_dir_base, serving_input_receiver_fn, assets_extra=None,
                          as_text=False, checkpoint_path=None, strip_default_attrs=False):
        """The TF1 name of export_saved_model."""
        return self.export_saved_model(export_dir_base, serving_input_receiver_fn,
                                       assets_extra=assets_extra, as_text=as_text,
                                       checkpoint_path=checkpoint_path)

    @eager_entry
    def experimental_export_all_saved_models(self, export_dir_base, input_receiver_fn_map,
                                             assets_extra=None, as_text=False,
                                             checkpoint_path=None):
        """One SavedModel with a MetaGraph per mode of `input_receiver_fn_map` ({mode: fn})."""
        return all_modes.export_all_saved_models(
            self, export_dir_base, input_receiver_fn_map, assets_extra=assets_extra,
            as_text=as_text, checkpoint_path=checkpoint_path)

    # -- checkpoint inspection ----------------------------------------------------------------
    def eval_dir(self, name=None):
        return eval_loop.eval_dir(self._model_dir, name)

    def latest_checkpoint(self):
        return checkpoints.latest_checkpoint(self._model_dir)

    def _require_checkpoint(self):
        path = self.latest_checkpoint()
        if path is None:
            raise ValueError(f"Could not find trained model in model_dir: {self._model_dir}.")
        return path

    def get_variable_names(self):
        return [name for name, _ in tf.train.list_variables(self._require_checkpoint())]

    def get_variable_value(self, name):
        return tf.train.load_checkpoint(self._require_checkpoint()).get_tensor(name)


def _kept_for_training(state, checkpoint_path, predictions):
    """predict()'s generator, the training variables kept while it runs (see EngineState)."""
    with state.training_variables_kept(checkpoint_path):
        yield from predictions
