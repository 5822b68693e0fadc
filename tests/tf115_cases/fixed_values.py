"""The fixed inputs and weights the recurrent and pruning cases load (Python 3.7 syntax: the
TF 1.15 side venv records with them), and the flattening of nested fetches the harness wants."""
import numpy as np


def fixed(shape, i):
    """A variable's fixed value: a sine pattern shifted by the variable's index `i`."""
    n = int(np.prod(shape)) if shape else 1
    return (np.sin(np.arange(n) * 0.7 + i) * 0.5).reshape(shape).astype(np.float32)


def inputs(*shape):
    """An input batch of this shape: a cosine pattern."""
    n = int(np.prod(shape))
    return (np.cos(np.arange(n) * 0.3) * 0.8).reshape(shape).astype(np.float32)


def flat(fetches, prefix=""):
    """{"out/1/0": tensor}: the harness compares flat dicts of arrays."""
    if isinstance(fetches, dict):
        items = sorted(fetches.items())
    elif isinstance(fetches, (list, tuple)):
        items = enumerate(fetches)
    else:
        return {prefix: fetches}
    out = {}
    for key, value in items:
        out.update(flat(value, "%s/%s" % (prefix, key) if prefix else str(key)))
    return out
