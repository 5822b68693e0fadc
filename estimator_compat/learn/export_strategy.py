"""tf.contrib.learn's exports: ExportStrategy, `saved_model_export_utils.make_export_strategy`,
and `input_fn_utils` (InputFnOps, build_parsing_serving_input_fn).

An `Experiment(export_strategies=[...])` exported after each evaluation into
`model_dir/export/<strategy name>/<timestamp>` ('Servo' for make_export_strategy), keeping the
newest `exports_to_keep`; `as_exporter` runs a strategy where train_and_evaluate runs a
tf.estimator Exporter, so both kinds are served by the same evaluation loop. A serving
input_fn returning `InputFnOps(features, labels, default_inputs)` is read as a
ServingInputReceiver(features, default_inputs).
"""
import collections

import tensorflow as tf

from estimator_compat.exporters import Exporter, _check_exports_to_keep, _garbage_collect
from estimator_compat.fn_args import fn_args


class InputFnOps(collections.namedtuple("InputFnOps", ["features", "labels", "default_inputs"])):
    """A contrib.learn serving input_fn's result: features, labels (None) and the receiver
    tensors (`default_inputs`)."""


def build_parsing_serving_input_fn(feature_spec, default_batch_size=None):
    """A serving input_fn parsing serialized tf.Examples fed to `examples`."""
    def input_fn():
        examples = tf.compat.v1.placeholder(tf.string, [default_batch_size],
                                            name="input_example_tensor")
        features = tf.io.parse_example(examples, feature_spec)
        return InputFnOps(features, None, {"examples": examples})
    return input_fn


def build_default_serving_input_fn(features, default_batch_size=None):
    """A serving input_fn of raw placeholders shaped like `features`' tensors."""
    def input_fn():
        placeholders = {name: tf.compat.v1.placeholder(
            t.dtype, [default_batch_size] + t.shape.as_list()[1:], name=name)
            for name, t in features.items()}
        return InputFnOps(placeholders, None, placeholders)
    return input_fn


class ExportStrategy(collections.namedtuple("ExportStrategy",
                                            ["name", "export_fn", "strip_default_attrs"])):
    """A named export: `export_fn(estimator, export_path[, checkpoint_path[, eval_result]])`."""

    def __new__(cls, name, export_fn, strip_default_attrs=None):
        return super().__new__(cls, name, export_fn, strip_default_attrs)

    def export(self, estimator, export_path, checkpoint_path=None, eval_result=None):
        kwargs = {}
        args = fn_args(self.export_fn)
        if "checkpoint_path" in args or len(args) > 2:
            kwargs["checkpoint_path"] = checkpoint_path
        if "eval_result" in args or len(args) > 3:
            kwargs["eval_result"] = eval_result
        return self.export_fn(estimator, export_path, **kwargs)


def make_export_strategy(serving_input_fn, default_output_alternative_key=None,
                         assets_extra=None, as_text=False, exports_to_keep=5,
                         strip_default_attrs=None):
    """The 'Servo' strategy: a SavedModel of `serving_input_fn` per evaluation, the newest
    `exports_to_keep` kept (None: all)."""
    _check_exports_to_keep(exports_to_keep)

    def export_fn(estimator, export_dir_base, checkpoint_path=None, eval_result=None):
        path = estimator.export_savedmodel(export_dir_base, serving_input_fn,
                                           assets_extra=assets_extra, as_text=as_text,
                                           checkpoint_path=checkpoint_path)
        _garbage_collect(export_dir_base, exports_to_keep)
        return path

    return ExportStrategy("Servo", export_fn, strip_default_attrs)


class _StrategyExporter(Exporter):
    def __init__(self, strategy):
        self._strategy = strategy

    @property
    def name(self):
        return self._strategy.name

    def export(self, estimator, export_path, checkpoint_path, eval_result, is_the_final_export):
        return self._strategy.export(estimator, export_path, checkpoint_path, eval_result)


def as_exporter(strategy):
    """A tf.estimator Exporter running an ExportStrategy (Exporters pass through)."""
    if isinstance(strategy, Exporter):
        return strategy
    if isinstance(strategy, ExportStrategy):
        return _StrategyExporter(strategy)
    raise ValueError(f"export_strategies must hold ExportStrategy objects (from "
                     f"make_export_strategy) or tf.estimator Exporters, given {strategy!r}")
