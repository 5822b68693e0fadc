"""Exporters run by train_and_evaluate after each evaluation: Latest, Best, Final."""
import abc
import glob
import logging
import os

import tensorflow as tf

from estimator_compat import summaries
from estimator_compat.fn_args import fn_args

logger = logging.getLogger("tensorflow")


class Exporter(abc.ABC):
    """Base class: `export(estimator, export_path, checkpoint_path, eval_result,
    is_the_final_export)` returns the export's path or None."""

    @property
    @abc.abstractmethod
    def name(self):
        """Directory name under model_dir/export/ for this exporter's SavedModels."""

    @abc.abstractmethod
    def export(self, estimator, export_path, checkpoint_path, eval_result, is_the_final_export):
        """Exports (or not) the model at `checkpoint_path` under `export_path`."""


class _SavedModelExporter(Exporter):
    def __init__(self, name, serving_input_receiver_fn, assets_extra=None, as_text=False):
        if not name:
            raise ValueError("An exporter needs a name (its directory under export/).")
        if not callable(serving_input_receiver_fn):
            raise ValueError(f"serving_input_receiver_fn must be callable, given: "
                             f"{serving_input_receiver_fn!r}")
        self._name = name
        self._serving_input_receiver_fn = serving_input_receiver_fn
        self._assets_extra, self._as_text = assets_extra, as_text

    @property
    def name(self):
        return self._name

    def _export(self, estimator, export_path, checkpoint_path):
        return estimator.export_saved_model(export_path, self._serving_input_receiver_fn,
                                            assets_extra=self._assets_extra,
                                            as_text=self._as_text,
                                            checkpoint_path=checkpoint_path)


def _check_exports_to_keep(exports_to_keep):
    if exports_to_keep is not None and exports_to_keep <= 0:
        raise ValueError("`exports_to_keep`, if provided, must be a positive number. Got "
                         f"{exports_to_keep}")
    return exports_to_keep


def _garbage_collect(export_path, exports_to_keep):
    """Deletes all but the newest `exports_to_keep` timestamped exports in export_path."""
    if exports_to_keep is None or not tf.io.gfile.isdir(export_path):
        return
    stamps = sorted(int(d) for d in tf.io.gfile.listdir(export_path) if d.strip("/").isdigit())
    for stamp in stamps[:-exports_to_keep]:
        tf.io.gfile.rmtree(os.path.join(export_path, str(stamp)))


class FinalExporter(_SavedModelExporter):
    """Exports once, at the end of training."""

    def export(self, estimator, export_path, checkpoint_path, eval_result, is_the_final_export):
        if not is_the_final_export:
            return None
        logger.info("Performing the final export in the end of training.")
        return self._export(estimator, export_path, checkpoint_path)


class LatestExporter(_SavedModelExporter):
    """Exports after every evaluation, keeping the newest `exports_to_keep` exports."""

    def __init__(self, name, serving_input_receiver_fn, assets_extra=None, as_text=False,
                 exports_to_keep=5):
        super().__init__(name, serving_input_receiver_fn, assets_extra, as_text)
        self._exports_to_keep = _check_exports_to_keep(exports_to_keep)

    def export(self, estimator, export_path, checkpoint_path, eval_result, is_the_final_export):
        path = self._export(estimator, export_path, checkpoint_path)
        _garbage_collect(export_path, self._exports_to_keep)
        return path


def _loss_smaller(best_eval_result, current_eval_result):
    """The default BestExporter comparison: a smaller `loss` is better."""
    for result in (best_eval_result, current_eval_result):
        if not result or "loss" not in result:
            raise ValueError("best_eval_result cannot be empty or no loss is found in it.")
    return best_eval_result["loss"] > current_eval_result["loss"]


class BestExporter(_SavedModelExporter):
    """Exports when an evaluation beats every earlier one (by `compare_fn`), read from the eval
    event files, so the record survives a restart. The first export into an empty export dir
    always happens."""

    def __init__(self, name="best_exporter", serving_input_receiver_fn=None,
                 event_file_pattern="eval/*.tfevents.*", compare_fn=_loss_smaller,
                 assets_extra=None, as_text=False, exports_to_keep=5):
        super().__init__(name, serving_input_receiver_fn, assets_extra, as_text)
        if not callable(compare_fn):
            raise ValueError("`compare_fn` must be callable.")
        args = set(fn_args(compare_fn))
        if not {"best_eval_result", "current_eval_result"} <= args:
            raise ValueError("`compare_fn` must have the arguments best_eval_result and "
                             f"current_eval_result, given: {sorted(args)}")
        self._compare_fn = compare_fn
        self._event_file_pattern = event_file_pattern
        self._exports_to_keep = _check_exports_to_keep(exports_to_keep)
        self._best_eval_result = None
        self._model_dir = None

    def export(self, estimator, export_path, checkpoint_path, eval_result, is_the_final_export):
        if self._model_dir != estimator.model_dir and self._event_file_pattern:
            logger.info("Loading best metric from event files.")
            self._model_dir = estimator.model_dir
            self._best_eval_result = self._best_in_events(
                os.path.join(estimator.model_dir, self._event_file_pattern))
        has_exports = tf.io.gfile.isdir(export_path) and any(
            d.strip("/").isdigit() for d in tf.io.gfile.listdir(export_path))
        better = self._best_eval_result is None or self._compare_fn(
            best_eval_result=self._best_eval_result, current_eval_result=eval_result)
        if has_exports and not better:
            return None
        logger.info("Performing best model export.")
        path = self._export(estimator, export_path, checkpoint_path)
        _garbage_collect(export_path, self._exports_to_keep)
        self._best_eval_result = eval_result
        return path

    def _best_in_events(self, pattern):
        """The best evaluation recorded in the event files (a cut-off file: what it holds up
        to the cut, with a warning)."""
        best = None
        reader = f"BestExporter {self.name!r}"
        for logdir in sorted({os.path.dirname(p) for p in glob.glob(pattern)}):
            for _, result in summaries.read_scalars(logdir, reader).items():
                if best is None or self._compare_fn(best_eval_result=best,
                                                    current_eval_result=result):
                    best = result
        return best
