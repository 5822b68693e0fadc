"""`tpu.tpu_estimator._PaddingSignals` (tensorflow_estimator 2.15): pads a last, short batch up
to the fixed batch size (zeros, with a `padding_mask` of 1s on the added rows) and slices the
padding off results again (not on the stopping batch). Graph ops only: they run on any
device, as the public tests of TPUEstimator's inputs ran them on CPU."""
import tensorflow as tf

from estimator_compat.legacy.estimator_tree.tpu_loops import _StopSignals

v1 = tf.compat.v1


class _PaddingSignals:
    """Padding of features/labels to `batch_size`, and its inverse."""

    @staticmethod
    def pad_features_and_labels(features, labels, batch_size):
        """(padding_mask, padded features, padded labels): every tensor padded with zeros
        along the batch up to `batch_size` (a runtime error if the batch is bigger)."""
        real_batch_size = tf.shape(_PaddingSignals._find_any_tensor(features))[0]
        batch_size_tensor = tf.constant(batch_size, tf.int32)
        check_greater = v1.debugging.assert_greater_equal(
            batch_size_tensor, real_batch_size, data=(batch_size_tensor, real_batch_size),
            message="The real batch size should not be greater than batch_size.")
        with tf.control_dependencies([check_greater]):
            missing_count = batch_size_tensor - real_batch_size

        def pad_single_tensor(tensor):
            rank = len(tensor.shape)
            padding = tf.stack([[0, missing_count]] + [[0, 0]] * (rank - 1))
            padded = tf.pad(tensor, padding)
            padded.set_shape((batch_size,) + tuple(tensor.shape[1:]))
            return padded

        features = tf.nest.map_structure(pad_single_tensor, features)
        if labels is not None:
            labels = tf.nest.map_structure(pad_single_tensor, labels)
        padding_mask = _PaddingSignals._padding_mask(real_batch_size, missing_count, batch_size)
        return padding_mask, features, labels

    @staticmethod
    def slice_tensor_or_dict(tensor_or_dict, signals):
        """Each tensor cut to the batch's real rows (batch size minus the padding mask's
        sum); kept whole on the stopping batch."""
        scalar_stopping_signal = _StopSignals.as_scalar_stopping_signal(signals)
        padding_mask = signals["padding_mask"]
        batch_size = padding_mask.shape[0]

        def verify_batch_size(tensor):
            check_batch_size = tf.math.equal(batch_size, tensor.shape[0])
            with tf.control_dependencies([check_batch_size]):
                return tf.identity(tensor)

        def slice_single_tensor(tensor):
            real_batch_size = batch_size - tf.math.reduce_sum(padding_mask)
            return verify_batch_size(tensor)[0:real_batch_size]

        def slice_fn(tensor):
            return v1.cond(scalar_stopping_signal, lambda: verify_batch_size(tensor),
                           lambda: slice_single_tensor(tensor))

        return tf.nest.map_structure(slice_fn, tensor_or_dict)

    @staticmethod
    def _find_any_tensor(batch_features):
        tensors = [x for x in tf.nest.flatten(batch_features) if isinstance(x, tf.Tensor)]
        if not tensors:
            raise ValueError("Cannot find any Tensor in features dict.")
        return tensors[0]

    @staticmethod
    def _padding_mask(real_batch_size, missing_count, batch_size):
        padding_mask = tf.concat([tf.zeros((real_batch_size,), dtype=tf.int32),
                                  tf.ones((missing_count,), dtype=tf.int32)], axis=0)
        padding_mask.set_shape((batch_size,))
        return padding_mask
