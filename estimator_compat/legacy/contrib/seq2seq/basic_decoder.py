"""`BasicDecoder`: one cell step, an optional output layer, and a `Helper` choosing the next
input (TF 1.15's `tf.contrib.seq2seq.BasicDecoder` and its `BasicDecoderOutput`)."""
import collections

import tensorflow as tf

from estimator_compat.legacy.contrib.seq2seq.decoder import Decoder
from estimator_compat.legacy.contrib.seq2seq.helpers import Helper


class BasicDecoderOutput(collections.namedtuple("BasicDecoderOutput",
                                                ("rnn_output", "sample_id"))):
    """One step's (or the stacked) cell outputs and sampled ids."""
    __slots__ = ()


def check_cell(cell):
    if not (hasattr(cell, "output_size") and hasattr(cell, "state_size") and callable(cell)):
        raise TypeError("The argument 'cell' (%s) is not an RNNCell: 'output_size' property is "
                        "missing, 'state_size' property is missing or is not callable." % cell)


def check_layer(layer):
    if layer is not None and not callable(layer):
        raise TypeError("output_layer must be a Layer, received: %s" % type(layer))


def layer_output_size(layer, size):
    """The output size a (TF1 or Keras) layer gives for inputs of width `size` (nest)."""
    def one(s):
        shape = tf.TensorShape([None]).concatenate(tf.TensorShape(s))
        try:
            return tf.TensorShape(layer.compute_output_shape(shape))[1:]
        except (AttributeError, NotImplementedError):
            pass
        units = getattr(layer, "units", None) or getattr(layer, "_config", {}).get("units")
        if units is None:
            raise ValueError("Cannot tell the output size of layer %r: give it "
                             "`compute_output_shape` or `units`." % (layer,))
        return tf.TensorShape(shape[1:-1].as_list() + [units])
    return tf.nest.map_structure(one, size)


class BasicDecoder(Decoder):
    """Sampling decoder: step = cell, then `output_layer`, then the helper's sample and next
    inputs. Outputs are `BasicDecoderOutput(rnn_output, sample_id)`."""

    def __init__(self, cell, helper, initial_state, output_layer=None):
        check_cell(cell)
        if not isinstance(helper, Helper):
            raise TypeError("helper must be a Helper, received: %s" % type(helper))
        check_layer(output_layer)
        self._cell, self._helper = cell, helper
        self._initial_state = initial_state
        self._output_layer = output_layer

    @property
    def batch_size(self):
        return self._helper.batch_size

    def _rnn_output_size(self):
        size = self._cell.output_size
        return size if self._output_layer is None else layer_output_size(self._output_layer, size)

    @property
    def output_size(self):
        return BasicDecoderOutput(rnn_output=self._rnn_output_size(),
                                  sample_id=self._helper.sample_ids_shape)

    @property
    def output_dtype(self):
        dtype = tf.nest.flatten(self._initial_state)[0].dtype
        return BasicDecoderOutput(
            tf.nest.map_structure(lambda _: dtype, self._rnn_output_size()),
            self._helper.sample_ids_dtype)

    def initialize(self, name=None):
        return self._helper.initialize() + (self._initial_state,)

    def step(self, time, inputs, state, name=None):
        with tf.name_scope(name or "BasicDecoderStep"):
            cell_outputs, cell_state = self._cell(inputs, state)
            if self._output_layer is not None:
                cell_outputs = self._output_layer(cell_outputs)
            sample_ids = self._helper.sample(time=time, outputs=cell_outputs, state=cell_state)
            finished, next_inputs, next_state = self._helper.next_inputs(
                time=time, outputs=cell_outputs, state=cell_state, sample_ids=sample_ids)
        return BasicDecoderOutput(cell_outputs, sample_ids), next_state, next_inputs, finished
