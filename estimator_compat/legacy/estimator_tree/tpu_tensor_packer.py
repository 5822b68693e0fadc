"""`tpu.tpu_estimator.TensorPacker` (tensorflow_estimator 2.15): packs a features dict's small
dense features ([batch, <= small_feature_dim_size]) into one `[batch, n]` tensor per dtype
(`_concatenated_small_features_<dtype>`) when at least `minimum_num_small_features_to_group`
share it, and splits them back. Graph ops only: it runs on any device."""
import tensorflow as tf

from estimator_compat.legacy.estimator_tree.tpu_estimator_helpers import (
    _extract_key_names,
)

_CONCATENATED_SMALL_FEATURES_KEY = "_concatenated_small_features"


class TensorPacker:
    """Packs and unpacks small dense features, in sorted key order, per dtype."""

    def __init__(self, small_feature_dim_size, minimum_num_small_features_to_group):
        self._small_feature_dim_size = small_feature_dim_size
        self._minimum_num_small_features_to_group = minimum_num_small_features_to_group

    def maybe_concatenate_features(self, features):
        """Replaces, in `features`, each dtype's small features by their concatenation, when
        enough of them share it; leaves `features` as is if a value is not a dense Tensor."""
        self._small_feature_names = {}
        self._small_feature_sizes = {}
        for name in _extract_key_names(features):
            tensor = features[name]
            if not isinstance(tensor, tf.Tensor):
                return  # a SparseTensor, a nested dict or a Python value: nothing is packed
            shape = tensor.get_shape().as_list()
            if len(shape) == 2 and shape[1] is not None and \
                    shape[1] <= self._small_feature_dim_size:
                self._small_feature_names.setdefault(tensor.dtype, []).append(name)
                self._small_feature_sizes.setdefault(tensor.dtype, []).append(shape[1])
        for dtype in list(self._small_feature_names):
            if len(self._small_feature_names[dtype]) < self._minimum_num_small_features_to_group:
                del self._small_feature_names[dtype]
                del self._small_feature_sizes[dtype]
        for dtype, names in self._small_feature_names.items():
            features[self._get_small_feature_key(dtype)] = tf.concat(
                [features.pop(name) for name in names], axis=1)

    def maybe_split_features(self, maybe_concatenated_features):
        """Puts back, in the dict, the features `maybe_concatenate_features` packed."""
        for dtype, names in self._small_feature_names.items():
            packed = maybe_concatenated_features.pop(self._get_small_feature_key(dtype))
            pieces = tf.split(packed, self._small_feature_sizes[dtype], axis=1)
            for name, piece in zip(names, pieces):
                maybe_concatenated_features[name] = piece

    def _get_small_feature_key(self, dtype):
        return f"{_CONCATENATED_SMALL_FEATURES_KEY}_{dtype}"
