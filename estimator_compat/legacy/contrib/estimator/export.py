"""tf.contrib.estimator's export helpers: `export_saved_model_for_mode` (one mode's graph as a
SavedModel: TRAIN, EVAL or PREDICT, tagged 'train' / 'eval' / 'serve'),
`export_all_saved_models` (estimator_compat's `export/all_modes.py`), and the supervised
receiver builders (`build_raw_supervised_input_receiver_fn`, `export/receivers.py`;
`build_supervised_input_receiver_fn_from_input_fn`, here)."""
import tensorflow as tf

from estimator_compat.export.all_modes import export_all_saved_models
from estimator_compat.export.receivers import build_raw_supervised_input_receiver_fn
from estimator_compat.mode_keys import ModeKeys


def export_saved_model_for_mode(estimator, export_dir_base, input_receiver_fn,
                                assets_extra=None, as_text=False, checkpoint_path=None,
                                mode=ModeKeys.PREDICT):
    """Exports the graph of `mode` only, with `input_receiver_fn` (a serving receiver for
    PREDICT, a supervised one for TRAIN / EVAL); returns the export directory (bytes)."""
    if not isinstance(mode, str) or mode not in (ModeKeys.TRAIN, ModeKeys.EVAL,
                                                   ModeKeys.PREDICT):
        raise ValueError(f"mode must be a tf.estimator.ModeKeys value, given {mode!r}")
    return export_all_saved_models(estimator, export_dir_base, {mode: input_receiver_fn},
                                   assets_extra=assets_extra, as_text=as_text,
                                   checkpoint_path=checkpoint_path)


def build_supervised_input_receiver_fn_from_input_fn(input_fn, **input_fn_args):
    """A supervised receiver fn whose placeholders have the dtypes and shapes (batch
    dimension left open) of what `input_fn(**input_fn_args)` returns: (features, labels) or a
    dataset of them."""
    with tf.Graph().as_default():
        result = input_fn(**input_fn_args)
        if isinstance(result, tf.data.Dataset):
            result = tf.compat.v1.data.make_one_shot_iterator(result).get_next()
        if not isinstance(result, (tuple, list)) or len(result) != 2:
            raise ValueError("input_fn must return (features, labels) or a dataset of them to "
                             "build a supervised receiver; it returned "
                             f"{type(result).__name__}")
        features, labels = result
    return build_raw_supervised_input_receiver_fn(features, labels, default_batch_size=None)
