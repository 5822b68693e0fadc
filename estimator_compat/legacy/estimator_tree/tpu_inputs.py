"""`tpu.tpu_estimator._Inputs` (tensorflow_estimator 2.15): what an input_fn returned —
`features`, `(features, labels)` or a tf.data.Dataset (then read through an initializable
iterator: `dataset_initializer()` before `features_and_labels()`) — and
`_InputsWithStoppingSignals`: a dataset whose batches carry `_StopSignals` (and, with
`add_padding`, are padded to the batch size), followed by stopping batches (2n - 1 of them
for `num_invocations_per_step` n > 1, all marked padding) so that a loop of evaluation or
prediction steps knows when the data ends. Graph and tf.data ops only."""
import tensorflow as tf

from estimator_compat.legacy.estimator_tree.tpu_loops import _StopSignals
from estimator_compat.legacy.estimator_tree.tpu_padding import _PaddingSignals

v1 = tf.compat.v1


class _Inputs:
    """The input_fn's return value: features and labels, or a dataset."""

    def __init__(self, features=None, labels=None, dataset=None, signals=None):
        if dataset is not None and (features is not None or labels is not None or
                                    signals is not None):
            raise RuntimeError("Internal Error: Either (features and labels) or dataset should "
                               "be provided, not both. Please file bug")
        self._features = features
        self._labels = labels
        self._signals = signals
        self._dataset = dataset
        self._iterator = None

    @staticmethod
    def from_input_fn(return_values):
        """An _Inputs of a Dataset, or of `features` / `(features, labels)`."""
        if isinstance(return_values, tf.data.Dataset):
            return _Inputs(dataset=return_values)
        features, labels = _Inputs._parse_inputs(return_values)
        return _Inputs(features, labels)

    @staticmethod
    def _parse_inputs(return_values):
        if isinstance(return_values, tuple):
            features, labels = return_values
        else:
            features, labels = return_values, None
        return features, labels

    @property
    def is_dataset(self):
        """Whether the input_fn returned a Dataset."""
        return self._dataset is not None

    def dataset_initializer(self):
        """Makes the dataset's initializable iterator; returns its initializer op."""
        self._iterator = v1.data.make_initializable_iterator(self._dataset)
        return self._iterator.initializer

    def features_and_labels(self):
        """(features, labels): the iterator's next element for a dataset."""
        if self._iterator is not None:
            return _Inputs._parse_inputs(self._iterator.get_next())
        if self._dataset is not None:
            raise RuntimeError("Internal error: Must run dataset_initializer before calling "
                               "features_and_labels(). Please file a bug!")
        return self._features, self._labels

    def signals(self):
        return self._signals

    @property
    def dataset(self):
        return self._dataset


class _InputsWithStoppingSignals(_Inputs):
    """The dataset's batches as {'features', 'labels', 'signals'}, then the stopping
    batches; `features_and_labels()` before `signals()` for each element."""

    def __init__(self, dataset, batch_size, add_padding=False, num_invocations_per_step=1):
        dataset_with_signals = dataset.map(_InputsWithStoppingSignals.insert_stopping_signal(
            stop=False, batch_size=batch_size, add_padding=add_padding))
        final_batch_dataset = dataset.take(1).map(
            _InputsWithStoppingSignals.insert_stopping_signal(
                stop=True, batch_size=batch_size, add_padding=add_padding))
        if num_invocations_per_step > 1:
            def _set_mask(data_dict):
                signals = data_dict["signals"]
                signals["padding_mask"] = tf.ones_like(signals["padding_mask"])
                data_dict["signals"] = signals
                return data_dict

            final_batch_dataset = final_batch_dataset.repeat(
                2 * num_invocations_per_step - 1).map(_set_mask)
        dataset_with_signals = dataset_with_signals.concatenate(final_batch_dataset)
        super().__init__(dataset=dataset_with_signals.prefetch(2))
        self._current_inputs = None

    def features_and_labels(self):
        """The next element's (features, labels); its signals come from `signals()`."""
        if self._current_inputs is not None:
            raise RuntimeError("Internal Error: The previous inputs have not been properly "
                               "consumed. First call features_and_labels, then call signals.")
        inputs_with_signals = self._iterator.get_next()
        self._current_inputs = inputs_with_signals
        return inputs_with_signals["features"], inputs_with_signals.get("labels")

    def signals(self):
        """The signals of the element `features_and_labels()` last returned."""
        if self._current_inputs is None:
            raise RuntimeError("Internal Error: The current inputs have not been properly "
                               "generated. First call features_and_labels, then call signals.")
        signals = self._current_inputs["signals"]
        self._current_inputs = None
        return signals

    @staticmethod
    def insert_stopping_signal(stop, batch_size, add_padding=False):
        """The map function turning (features[, labels]) into {'features'[, 'labels'],
        'signals'} (padded to `batch_size` with a padding_mask if `add_padding`)."""
        def _map_fn(*args):
            if len(args) == 1:
                features, labels = args[0], None
            else:
                features, labels = args
            padding_mask = None
            if add_padding:
                padding_mask, features, labels = _PaddingSignals.pad_features_and_labels(
                    features, labels, batch_size)
            new_input_dict = {"features": features}
            if labels is not None:
                new_input_dict["labels"] = labels
            new_input_dict["signals"] = _StopSignals(
                stop=stop, batch_size=batch_size, padding_mask=padding_mask).as_dict()
            return new_input_dict

        return _map_fn
