"""What one Estimator keeps under one tf.distribute strategy: variables, checkpoint I/O, steps."""
import contextlib
import logging

import tensorflow as tf

from estimator_compat import checkpoints, meta_graph, summaries, warm_start
from estimator_compat.cluster import parameter_servers
from estimator_compat.engine import (batched_slices, cached_input, coordinated, input_pipeline,
                                     iterator_reaper, keras_model_fn_slots, pipeline_kernels,
                                     seeding, session_input, strategies)
from estimator_compat.engine.steps import ModeStep
from estimator_compat.fn_args import fn_args
from estimator_compat.mode_keys import ModeKeys
from estimator_compat.variables import VariableStore

logger = logging.getLogger("tensorflow")


class EngineState:
    def __init__(self, estimator, strategy):
        config = estimator.config
        self.estimator = estimator
        self.strategy = strategy = strategies.check(strategy)
        self.coordinator = None  # parameter servers: the chief schedules steps on workers
        if parameter_servers.is_parameter_server_strategy(strategy):
            self.coordinator = coordinated.coordinator_for(strategy)
        self.store = VariableStore()
        with strategy.scope():
            self.global_step = self.store.create_global_step()
        self.io = checkpoints.CheckpointIO(
            estimator.model_dir, self.store, config.keep_checkpoint_max,
            config.keep_checkpoint_every_n_hours,
            fill_missing=keras_model_fn_slots.compose(  # a Keras optimizer: 2.15's names
                getattr(estimator, "_fill_missing_variables", None)))
        self._steps = {}
        self.graph_written = None  # the train graph last written to graph.pbtxt
        self.meta_graphs = meta_graph.MetaGraphs(estimator)
        self._seeded = False  # tf_random_seed set once (seeding.graph_seed)
        self.training = False  # a train call is running (train_loop sets it)

    @contextlib.contextmanager
    def training_variables_kept(self, checkpoint_path=None):
        """An evaluate / predict called while this state trains (from a hook) restores its
        checkpoint into the variables training uses: their values are put back when it ends,
        as TF1's evaluation in a graph of its own left them. (Not needed, so not copied, where
        the variables hold that checkpoint: a saving listener's evaluation after a save.)"""
        path = None
        if self.training:
            path = (checkpoints.resolve(checkpoint_path) if checkpoint_path else
                    checkpoints.latest_checkpoint(self.estimator.model_dir))
        if not self.training or self.io.holds(path):
            yield
            return
        saved = {name: var.read_value() for name, var in self.store.saveable().items()}
        try:
            yield
        finally:
            variables = self.store.saveable()
            for name, value in saved.items():
                variables[name].assign(value)
            self.io.forget()

    def step(self, mode):
        if mode not in self._steps:
            est = self.estimator
            chief = est.config.is_chief  # other workers write no event files
            writer = summaries.writer_for(est.model_dir) if mode == "train" and chief else None
            self._steps[mode] = ModeStep(
                mode=mode, model_fn=est._model_fn, params=est._params_for_call(mode),
                config=est.config, store=self.store, strategy=self.strategy,
                summary_writer=writer, save_summary_steps=est.config.save_summary_steps,
                steps_per_execution=(getattr(est, "_train_steps_per_execution", None)
                                     if mode == "train" else None)
                or est.config.steps_per_execution,
                jit_compile=est.config.jit_compile and not getattr(est, "_host_calls", False),
                coordinator=self.coordinator if mode == "train" else None)
        return self._steps[mode]

    def forget_step(self, mode):
        """The next call in `mode` traces the model_fn anew (it changed)."""
        self._steps.pop(mode, None)

    def prepare(self, mode, input_fn, runner):
        """Dataset iterator, the traced step for `mode` (variables exist after this) and, for
        evaluate / predict, the `cached_input.Input` read (its length, where tf.data knows
        it); `runner`'s hooks have begun (inside the trace when the call has
        SessionRunHooks)."""
        est = self.estimator
        seed = est.config.tf_random_seed
        with self.strategy.scope():
            if seed is not None:
                seeding.graph_seed(seed, first_call=not self._seeded)
                self._seeded = True
            with pipeline_kernels.building():
                dataset = self._dataset(input_fn, mode)
                runner.input = session_input.of_dataset(dataset)  # hooks may feed placeholders
                source = None
                if mode == ModeKeys.TRAIN and isinstance(dataset, tf.data.Dataset):
                    dataset = batched_slices.rebatched(dataset)  # whole batches from arrays
                if mode != ModeKeys.TRAIN:
                    source = cached_input.Input(dataset)
                    dataset = source.dataset
                iterator = dataset if self.coordinator is not None else iter(dataset)
            iterator_reaper.track(iterator)
            step = self.step(mode)
            with seeding.python_random(seed):  # where the model_fn's Keras layers take seeds
                step.start_call(runner)
                step.trace(iterator)
        with step.graph.as_default():
            runner.begin(step.spec, step.graph)  # a no-op when the trace already did it
        return iterator, step, source

    def initialise_from_checkpoints(self):
        """Applies the model_fn's init_from_checkpoint requests (when there is no checkpoint of
        its own to restore, as TF1 initializers only ran then)."""
        for ckpt, assignment_map in self.store.init_from_checkpoint_calls:
            warm_start.apply_init_from_checkpoint(self.store, ckpt, assignment_map)

    def _dataset(self, input_fn, mode):
        """input_fn's data, distributed over the strategy's replicas when there are several:
        an input_fn that takes `input_context` builds each pipeline itself (per-replica batch,
        sharding), as with tf.estimator's distribute strategies."""
        est = self.estimator

        def build(input_context=None):
            return input_pipeline.dataset_from_input_fn(input_fn, mode,
                                                        est._input_params_for_call(mode),
                                                        est.config, input_context)
        if self.coordinator is not None:
            return coordinated.per_worker_iterator(self.coordinator, self.strategy, build,
                                                   "input_context" in fn_args(input_fn))
        if self.strategy.num_replicas_in_sync == 1:
            return build()
        if "input_context" in fn_args(input_fn):
            return self.strategy.distribute_datasets_from_function(build)
        return self.strategy.experimental_distribute_dataset(build())

    def latest_for(self, mode, checkpoint_path):
        """At the start of an evaluate / predict call, as tf.estimator: the newest checkpoint
        when none is given, and its INFO line when there is none (initialised variables)."""
        if checkpoint_path:
            return None
        latest = checkpoints.latest_checkpoint(self.estimator.model_dir)
        if latest is None:
            logger.info("Could not find trained model in model_dir: %s, running initialization "
                        "to %s.", self.estimator.model_dir,
                        "evaluate" if mode == ModeKeys.EVAL else "predict")
        return latest

    def restore_for(self, mode, checkpoint_path, runner, latest=None):
        """Restores `checkpoint_path`, else `latest` (latest_for's), else the latest
        checkpoint; returns the path or None."""
        path = checkpoints.resolve(checkpoint_path) if checkpoint_path else \
            latest or checkpoints.latest_checkpoint(self.estimator.model_dir)
        if path is None:
            self.io.forget()
            self.initialise_from_checkpoints()
            return None
        if checkpoint_path:
            self.io.restore(path)
        else:
            path = self.io.restore_newest(path)
        if runner.has_hooks():  # a hook's session.run or a callback may change variables
            self.io.forget()
        return path

