"""`tf.contrib.model_pruning`, served whole (TF 1.15's names and deep import paths
`tensorflow.contrib.model_pruning.python.{pruning,pruning_utils,learning,
strip_pruning_vars_lib}`, `...python.layers.{layers,core_layers,rnn_cells}`).

Where TF 1.15's names live here:
- apply_mask, get_masks / get_thresholds / get_weights / get_masked_weights,
  get_weight_sparsity, get_pruning_hparams, Pruning: `pruning.py` (helpers: `pruning_utils.py`)
- masked_conv2d, masked_convolution, masked_fully_connected: `layers.py`
- MaskedBasicLSTMCell, MaskedLSTMCell: `rnn_cells.py` (on legacy/rnn_cells.py's cells)
- train: `learning.py` (tf_slim's loop); strip_pruning_vars_fn, graph_def_from_checkpoint:
  `strip_pruning_vars_lib.py`
"""
_PREFIX = "tensorflow.contrib.model_pruning"


def build():
    from estimator_compat.legacy.contrib.model_pruning import (
        layers, learning, pruning, pruning_utils, rnn_cells, strip_pruning_vars_lib)
    from estimator_compat.legacy.contrib.tf_slim_loader import deep_paths
    from estimator_compat.legacy.namespaces import namespace

    def names(module, *wanted):
        return {n: getattr(module, n) for n in wanted}

    pruning_names = names(pruning, "apply_mask", "get_masked_weights", "get_masks",
                          "get_pruning_hparams", "get_thresholds", "get_weight_sparsity",
                          "get_weights", "Pruning")
    layer_names = names(layers, "masked_conv2d", "masked_convolution", "masked_fully_connected")
    cells = names(rnn_cells, "MaskedBasicLSTMCell", "MaskedLSTMCell")
    strip = names(strip_pruning_vars_lib, "graph_def_from_checkpoint", "strip_pruning_vars_fn")
    constants = names(pruning, "MASK_COLLECTION", "THRESHOLD_COLLECTION",
                      "MASKED_WEIGHT_COLLECTION", "WEIGHT_COLLECTION", "MASKED_WEIGHT_NAME")
    paths = deep_paths(_PREFIX, {
        "python": {}, "python.layers": {},
        "python.pruning": dict(pruning_names, pruning_utils=pruning_utils),
        "python.pruning_utils": pruning_utils,
        "python.learning": names(learning, "train"),
        "python.strip_pruning_vars_lib": strip,
        "python.layers.layers": layer_names,
        "python.layers.core_layers": constants,
        "python.layers.rnn_cells": cells,
    })
    return namespace(_PREFIX, "tf.contrib.model_pruning (TF 1.15's magnitude pruning)",
                     __served_whole__=True, python=paths["python"],
                     train=learning.train, **pruning_names,
                     **layer_names, **cells, **strip)
