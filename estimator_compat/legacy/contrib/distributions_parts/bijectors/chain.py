"""`Chain`: bijectors composed, the last in the list applied first on `forward`."""
import itertools

import tensorflow as tf

from ._checks import Bijector


def _min_event_ndims(bijectors, forward=True):
    """The fewest event dims the whole chain needs on its input side: walking the bijectors in
    the order they see the input, each may need more dims than the ones before left it, and
    a rank-changing bijector moves the count of dims the next one sees."""
    needed = 0
    seen = 0  # event dims the current bijector sees that were already counted
    for b in (reversed(bijectors) if forward else bijectors):
        into = b.forward_min_event_ndims if forward else b.inverse_min_event_ndims
        out = b.inverse_min_event_ndims if forward else b.forward_min_event_ndims
        if seen < into:
            needed += into - seen
        seen = max(into, seen) - (into - out)
    return needed


def _static(x, event_ndims):
    return x.shape.is_fully_defined() and isinstance(event_ndims, int)


class Chain(Bijector):
    """`Chain([f, g]).forward(x) == f.forward(g.forward(x))`; an empty chain is the identity.
    Keyword arguments reach each bijector by its name: `forward(x, **{b.name: {...}})`."""

    def __init__(self, bijectors=None, validate_args=False, name=None):
        bijectors = () if bijectors is None else bijectors
        self._bijectors = bijectors
        for b in bijectors:
            if not b._is_injective:  # pylint: disable=protected-access
                raise NotImplementedError(
                    "Invert is not implemented for non-injective bijector ({})".format(b.name))
        dtypes = list(set(b.dtype for b in bijectors))
        if len(dtypes) > 2:
            raise ValueError("incompatible dtypes: %s" % dtypes)
        if len(dtypes) == 2:
            dtype = dtypes[1] if dtypes[0] is None else dtypes[0]
        else:
            dtype = dtypes[0] if dtypes else None
        super().__init__(
            graph_parents=list(itertools.chain.from_iterable(b.graph_parents for b in bijectors)),
            forward_min_event_ndims=_min_event_ndims(bijectors, forward=True),
            inverse_min_event_ndims=_min_event_ndims(bijectors, forward=False),
            is_constant_jacobian=all(b.is_constant_jacobian for b in bijectors),
            validate_args=validate_args, dtype=dtype,
            name=name or ("identity" if not bijectors
                          else "_of_".join(["chain"] + [b.name for b in bijectors])))

    @property
    def bijectors(self):
        return self._bijectors

    def _shapes_through(self, method, shape, reverse):
        for b in (reversed(self._bijectors) if reverse else self._bijectors):
            call = getattr(b, method, None)
            if call is None:
                raise ValueError("unable to call %s on bijector %s (%s)" % (method, b.name, call))
            shape = call(shape)
        return shape

    def _forward_event_shape(self, input_shape):
        return self._shapes_through("forward_event_shape", input_shape, True)

    def _forward_event_shape_tensor(self, input_shape):
        return self._shapes_through("forward_event_shape_tensor", input_shape, True)

    def _inverse_event_shape(self, output_shape):
        return self._shapes_through("inverse_event_shape", output_shape, False)

    def _inverse_event_shape_tensor(self, output_shape):
        return self._shapes_through("inverse_event_shape_tensor", output_shape, False)

    def _forward(self, x, **kwargs):
        for b in reversed(self._bijectors):
            x = b.forward(x, **kwargs.get(b.name, {}))
        return x

    def _inverse(self, y, **kwargs):
        for b in self._bijectors:
            y = b.inverse(y, **kwargs.get(b.name, {}))
        return y

    def _forward_log_det_jacobian(self, x, **kwargs):
        return self._sum_log_det(x, kwargs, forward=True)

    def _inverse_log_det_jacobian(self, y, **kwargs):
        return self._sum_log_det(y, kwargs, forward=False)

    def _sum_log_det(self, x, kwargs, forward):
        """The log-det-Jacobians of the bijectors at the points the chain passes through, each
        over the event dims the chain's minimal event has become by then."""
        x = tf.convert_to_tensor(x, name="x" if forward else "y")
        total = tf.cast(0., dtype=x.dtype.base_dtype)
        if not self._bijectors:
            return total
        event_ndims = self._maybe_get_static_event_ndims(
            self.forward_min_event_ndims if forward else self.inverse_min_event_ndims)
        if _static(x, event_ndims):
            event_shape = x.shape[x.shape.ndims - event_ndims:]
        else:
            event_shape = tf.shape(x)[tf.rank(x) - event_ndims:]
        for b in (reversed(self._bijectors) if forward else self._bijectors):
            args = kwargs.get(b.name, {})
            if forward:
                total += b.forward_log_det_jacobian(x, event_ndims=event_ndims, **args)
            else:
                total += b.inverse_log_det_jacobian(x, event_ndims=event_ndims, **args)
            if _static(x, event_ndims):
                event_shape = (b.forward_event_shape if forward
                               else b.inverse_event_shape)(event_shape)
                event_ndims = self._maybe_get_static_event_ndims(event_shape.ndims)
            else:
                event_shape = (b.forward_event_shape_tensor if forward
                               else b.inverse_event_shape_tensor)(event_shape)
                event_ndims = tf.size(event_shape)
                known = self._maybe_get_static_event_ndims(event_ndims)
                if known is not None:
                    event_ndims = known
            x = b.forward(x, **args) if forward else b.inverse(x, **args)
        return total
