"""tensorflow_estimator 2.15's `tpu.util` checks of TPUConfig values, which TPU programs
imported: `check_positive_integer(value, name)`, `parse_iterations_per_loop(value)` and the
`IterationsPerLoopCounter(value, unit)` it returns (a count of steps, or a time budget in
seconds written `<N>s`, `<N>m` or `<N>h`)."""
import collections
import re

import numpy as np

IterationsPerLoopCounter = collections.namedtuple("IterationsPerLoopCounter", ["value", "unit"])

_PATTERN = re.compile(r"^([1-9]\d*)((s|m|h)?)$")
_SECONDS = {"s": 1, "m": 60, "h": 3600}


def check_positive_integer(value, name):
    """Raises TypeError unless `value` is an int (numpy ints too), ValueError unless > 0."""
    if not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be int, got {type(value)}")
    if value <= 0:
        raise ValueError(f"{name} must be positive, got {value}")


def parse_iterations_per_loop(iterations_per_loop):
    """IterationsPerLoopCounter(value, 'count') for a positive integer (or its digits), or
    (seconds, 'seconds') for '<N>s' / '<N>m' / '<N>h'; anything else is a ValueError."""
    match = _PATTERN.match(str(iterations_per_loop))
    if match is None or isinstance(iterations_per_loop, float):
        raise ValueError(
            "Invalid TPUConfig `iterations_per_loop` value. Value must be positive integer "
            "value or time-based value `<N><s|m|h>` where <N> is anypositive integer and `s`, "
            "`m`, `h` are unit of time in seconds, minutes, hours respectively. Examples of "
            "valid values: `3600s`, `60m`, `1h`.")
    value, unit = int(match.group(1)), match.group(2)
    if not unit:
        return IterationsPerLoopCounter(value=value, unit="count")
    return IterationsPerLoopCounter(value=value * _SECONDS[unit], unit="seconds")
