"""OneHotCategorical (a Categorical whose events are one-hot vectors), gone from TensorFlow 2
with tf.contrib, with its KL divergence registered in TF 2.21's KL registry."""
import tensorflow as tf
from tensorflow.python.ops.distributions import kullback_leibler
from tensorflow.python.ops.distributions import util
from tensorflow.python.util import deprecation

from estimator_compat.legacy.contrib.distributions_parts import _common as c


class OneHotLogits(c.Distribution):
    """What the one-hot families share: `logits` / `probs` over the last axis (the event), and
    TF 1.15's `validate_args` check of a sample (non-positive, logsumexp 0: a log-simplex
    point; TF 1.15 applied it to OneHotCategorical's samples too)."""

    def _init_logits(self, name, logits, probs, validate_args):
        self._logits, self._probs = util.get_logits_and_probs(
            name=name, logits=logits, probs=probs, validate_args=validate_args,
            multidimensional=True)
        static = self._logits.shape.with_rank_at_least(1)
        if static.ndims is not None:
            self._batch_rank = tf.convert_to_tensor(static.ndims - 1, dtype=tf.int32,
                                                    name="batch_rank")
        else:
            with tf.compat.v1.name_scope(name="batch_rank"):
                self._batch_rank = tf.rank(self._logits) - 1
        with tf.compat.v1.name_scope(name="event_size"):
            self._event_size = tf.shape(self._logits)[-1]

    @property
    def event_size(self):
        """Scalar `int32` tensor: the number of classes."""
        return self._event_size

    @property
    def logits(self):
        """Vector of coordinatewise logits."""
        return self._logits

    @property
    def probs(self):
        """Vector of coordinatewise probabilities."""
        return self._probs

    def _batch_shape_tensor(self):
        return tf.shape(self._logits)[:-1]

    def _batch_shape(self):
        return self.logits.shape[:-1]

    def _event_shape_tensor(self):
        return tf.shape(self.logits)[-1:]

    def _event_shape(self):
        return self.logits.shape.with_rank_at_least(1)[-1:]

    def _broadcast_to_logits(self, x):
        """`x` and the logits, broadcast to one shape, flattened to [-1, event_size]; and
        the batch shape to put the result back into."""
        logits = self.logits
        if (not x.shape.is_fully_defined() or not logits.shape.is_fully_defined()
                or x.shape != logits.shape):
            logits = tf.ones_like(x, dtype=logits.dtype) * logits
            x = tf.ones_like(logits, dtype=x.dtype) * x
        shape = tf.shape(tf.reduce_sum(logits, axis=[-1]))
        return (tf.reshape(x, [-1, self.event_size]),
                tf.reshape(logits, [-1, self.event_size]), shape)

    def _checked_sample(self, x):
        if not self.validate_args:
            return x
        return c.with_checks([
            tf.debugging.assert_non_positive(x),
            tf.debugging.assert_near(tf.zeros([], dtype=self.dtype),
                                     tf.reduce_logsumexp(x, axis=[-1]))], x)


class OneHotCategorical(OneHotLogits):
    """A categorical distribution over `event_size` classes whose samples are one-hot
    vectors of `dtype`."""

    def __init__(self, logits=None, probs=None, dtype=tf.int32, validate_args=False,
                 allow_nan_stats=True, name="OneHotCategorical"):
        parameters = c.params(locals())
        with c.scope(name, [logits, probs]) as name:
            self._init_logits(name, logits, probs, validate_args)
        super().__init__(dtype=dtype, reparameterization_type=c.NOT_REPARAMETERIZED,
                         validate_args=validate_args, allow_nan_stats=allow_nan_stats,
                         parameters=parameters, graph_parents=[self._logits, self._probs],
                         name=name)

    def _sample_n(self, n, seed=None):
        shape = tf.concat([[n], tf.shape(self.logits)], 0)
        logits = self.logits
        if logits.shape.ndims != 2:
            logits = tf.reshape(logits, [-1, self.event_size])
        draws = tf.transpose(tf.random.categorical(logits, n, seed=seed))
        return tf.reshape(tf.one_hot(draws, self.event_size, dtype=self.dtype), shape)

    def _log_prob(self, x):
        x = self._checked_sample(x)
        x_2d, logits_2d, shape = self._broadcast_to_logits(x)
        return tf.reshape(-tf.nn.softmax_cross_entropy_with_logits(
            labels=tf.stop_gradient(x_2d), logits=logits_2d), shape)

    def _entropy(self):
        return -tf.reduce_sum(tf.nn.log_softmax(self.logits) * self.probs, axis=-1)

    def _mode(self):
        mode = tf.one_hot(tf.argmax(self.logits, axis=self._batch_rank), self.event_size,
                          dtype=self.dtype)
        mode.set_shape(self.logits.shape)
        return mode

    def _covariance(self):
        p = self.probs
        return tf.linalg.set_diag(-tf.matmul(p[..., None], p[..., None, :]), self._variance())

    def _variance(self):
        return self.probs * (1. - self.probs)


def _kl_onehot_onehot(a, b, name=None):
    """KL(a || b) = sum_k p_a(k) (log p_a(k) - log p_b(k))."""
    with tf.compat.v1.name_scope(name, "kl_categorical_categorical",
                                 values=[a.logits, b.logits]):
        return tf.reduce_sum(tf.nn.softmax(a.logits) * (
            tf.nn.log_softmax(a.logits) - tf.nn.log_softmax(b.logits)), axis=-1)


with deprecation.silence():  # RegisterKL's deprecation notice, logged at import otherwise
    kullback_leibler.RegisterKL(OneHotCategorical, OneHotCategorical)(_kl_onehot_onehot)
