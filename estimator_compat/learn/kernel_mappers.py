"""tf.contrib.kernel_methods' kernel mappers: `DenseKernelMapper` (the interface
KernelLinearClassifier takes) and `RandomFourierFeatureMapper` (Rahimi & Recht 2007).

RandomFourierFeatureMapper maps x in R^d to sqrt(2 / D) cos(x Omega + b), Omega in R^{d x D}
drawn N(0, 1 / stddev^2) and b in R^D uniform in [0, 2 pi), so that the dot product of two
mapped vectors approximates the Gaussian kernel exp(-|x - y|^2 / (2 stddev^2)). Omega and b are
graph constants drawn by numpy's legacy generator seeded with `seed`, in TF 1.15's order
(Omega first, then b), so a seed gives TF 1.15's very mapping. (TF 1.15 reseeded numpy's
global generator to draw them; a generator of its own is used here, with the same values.)
"""
import abc
import math

import numpy as np
import tensorflow as tf


class InvalidShapeError(Exception):
    """A tensor to map whose shape is not [batch, input_dim]."""


class DenseKernelMapper(metaclass=abc.ABCMeta):
    """Maps dense [batch, input_dim] tensors to dense [batch, output_dim] ones."""

    @abc.abstractmethod
    def map(self, input_tensor):
        raise NotImplementedError(f"map is not implemented for {self}.")

    @property
    @abc.abstractmethod
    def name(self):
        """The mapper's name."""

    @property
    @abc.abstractmethod
    def output_dim(self):
        """The dimension of the mapped space."""


class RandomFourierFeatureMapper(DenseKernelMapper):
    """Random Fourier features approximating the RBF kernel of width `stddev`."""

    def __init__(self, input_dim, output_dim, stddev=1.0, seed=1, name=None):
        self._input_dim = input_dim
        self._output_dim = output_dim
        self._stddev = stddev
        self._seed = seed
        self._name = name

    @property
    def name(self):
        """The given name, else the object's id (as text)."""
        return self._name or str(id(self))

    @property
    def input_dim(self):
        return self._input_dim

    @property
    def output_dim(self):
        return self._output_dim

    def map(self, input_tensor):
        """[batch, input_dim] -> [batch, output_dim] random Fourier features."""
        shape = input_tensor.get_shape()
        if len(shape) != 2:
            raise InvalidShapeError(f"The shape of the tensor should be 2. Got {len(shape)} "
                                    "instead.")
        if shape[1] != self._input_dim:
            raise InvalidShapeError(f"Invalid dimension: expected {self._input_dim} input "
                                    f"features, got {shape[1]} instead.")
        draws = np.random.RandomState(self._seed)
        omega = draws.normal(scale=1.0 / self._stddev, size=[self._input_dim, self._output_dim])
        bias = draws.uniform(low=0.0, high=2 * np.pi, size=[self._output_dim])
        projected = tf.matmul(input_tensor, tf.constant(omega, tf.float32)) + \
            tf.constant(bias, tf.float32)
        return math.sqrt(2.0 / self._output_dim) * tf.cos(projected)
