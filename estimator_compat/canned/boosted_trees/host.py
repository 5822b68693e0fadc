"""What a train step hands to the host: quantile sketches and the growth of each layer.

tf.estimator's kernels kept the quantile streams and the per-layer stat accumulators in
resources that lived as long as the training session; here they live on this object for one
`train` call (`reset` at its start, as a new session began empty). The step passes each
batch's sketch or stats in through `tf.numpy_function`; once `n_batches_per_layer` batches are
in, the layer is grown (or the bias centered) on the ensemble proto and the new proto, stamp
and dense arrays come back to be assigned.
"""
import numpy as np

from estimator_compat.canned.boosted_trees import (ensemble as ensemble_lib, quantiles,
                                                   splits as splits_lib)
from estimator_compat.canned.boosted_trees.state import ARRAY_NAMES, arrays_of, empty_arrays

F32 = np.float32


class Host:
    def __init__(self, layout, hparams, n_batches_per_layer, logits):
        self.layout, self.hparams, self.logits = layout, hparams, logits
        self.n = int(n_batches_per_layer)
        self.max_splits = (1 << hparams.max_depth) - 1
        self.reset()

    def reset(self):
        self.sketches = quantiles.Accumulator(self.hparams.quantile_sketch_epsilon,
                                              self.layout.num_streams)
        self.sketched = 0
        self.stats, self.stats_count = None, 0
        self.bias, self.bias_count = None, 0

    # -- quantiles ------------------------------------------------------------------------
    def add_sketch(self, weights, *values):
        """Adds one batch's sketch; (ready, boundaries per stream) once n batches are in."""
        eps = self.hparams.quantile_sketch_epsilon
        self.sketches.add([quantiles.batch_summary(v, weights, eps) for v in values])
        self.sketched += 1
        if self.sketched < self.n:
            return [np.bool_(False)] + [np.zeros([0], F32)] * len(values)
        self.sketched = 0
        return [np.bool_(True)] + self.sketches.flush(self.layout.num_quantiles)

    # -- layers -----------------------------------------------------------------------------
    def _unchanged(self, serialized, stamp, centering):
        empty = empty_arrays(self.logits)
        arrays = [empty[n] for n in ARRAY_NAMES]
        return [np.bool_(False), serialized, stamp, np.bool_(centering)] + arrays

    def _changed(self, ensemble, stamp, centering):
        serialized = ensemble.SerializeToString()
        arrays = arrays_of(serialized, self.logits)
        return [np.bool_(True), np.bytes_(serialized), np.int64(stamp + 1),
                np.bool_(centering)] + [arrays[n] for n in ARRAY_NAMES]

    def step(self, centering, serialized, stamp, mean_gradients, mean_hessians, *stats):
        """One batch's contribution; a grown layer or centered bias after n batches."""
        if centering:
            means = np.stack([mean_gradients, mean_hessians]).astype(F32)
            self.bias = means if self.bias is None else (self.bias + means).astype(F32)
            self.bias_count += 1
            if self.bias_count < self.n:
                return self._unchanged(serialized, stamp, centering)
            means = (self.bias / F32(self.bias_count)).astype(F32)
            self.bias, self.bias_count = None, 0
            ensemble = ensemble_lib.parse(serialized)
            keep_centering = ensemble_lib.center_bias(ensemble, means[0], means[1],
                                                      self.hparams.l1, self.hparams.l2)
            return self._changed(ensemble, stamp, keep_centering)
        if self.stats is None:
            self.stats = [np.array(s, F32) for s in stats]
        else:
            self.stats = [(a + s).astype(F32) for a, s in zip(self.stats, stats)]
        self.stats_count += 1
        if self.stats_count < self.n:
            return self._unchanged(serialized, stamp, centering)
        averaged = [(s / F32(self.stats_count)).astype(F32) for s in self.stats]
        self.stats, self.stats_count = None, 0
        ensemble = ensemble_lib.parse(serialized)
        self.grow(ensemble, averaged)
        return self._changed(ensemble, stamp, False)

    def grow(self, ensemble, stats):
        h = self.hparams
        start, end = ensemble_lib.states(ensemble)[3:5]
        node_range = (start, min(end, self.max_splits))
        found = []
        for ids, types in zip(self.layout.feature_ids, self.layout.split_types):
            group = [stats[i] for i in ids]
            found.append(splits_lib.best_splits(
                group, node_range, ids, types, h.l1, h.l2, h.tree_complexity,
                h.min_node_weight, self.logits))
        ensemble_lib.grow_layer(ensemble, splits_lib.best_per_node(found), h.learning_rate,
                                h.max_depth, ensemble_lib.PRUNING_MODES[h.pruning_mode],
                                self.logits)
