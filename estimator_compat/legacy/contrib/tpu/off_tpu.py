"""The parts of tf.contrib.tpu that mean something without a TPU:

- `outside_compilation(computation, *args, **kwargs)`: outside a TPU computation (always, here)
  TF 1.15 simply called `computation(*args, **kwargs)`; so does this.
- `export_estimator_savedmodel(estimator, export_dir_base, serving_input_receiver_fn, ...)`:
  the TPUEstimator's model exported for CPU serving (a copy with `use_tpu=False`).
"""
import copy

from estimator_compat.tpu import TPUEstimator


def outside_compilation(computation, *args, **kwargs):
    """Runs `computation` on the host; off a TPU that is calling it here."""
    if not callable(computation):
        raise TypeError(f"outside_compilation takes a callable, given {computation!r}")
    return computation(*args, **kwargs)


def export_estimator_savedmodel(estimator, export_dir_base, serving_input_receiver_fn,
                                assets_extra=None, as_text=False, checkpoint_path=None):
    """Exports a TPUEstimator's latest (or `checkpoint_path`) checkpoint as a SavedModel for
    CPU serving; returns its directory (bytes)."""
    if not isinstance(estimator, TPUEstimator):
        raise TypeError("export_estimator_savedmodel takes a tf.contrib.tpu.TPUEstimator, "
                        f"given {type(estimator).__name__}")
    cpu = estimator
    if estimator._use_tpu:
        cpu = copy.copy(estimator)
        cpu._use_tpu = False
    return cpu.export_saved_model(export_dir_base, serving_input_receiver_fn,
                                  assets_extra=assets_extra, as_text=as_text,
                                  checkpoint_path=checkpoint_path)
