"""What Python 3.11 removed that estimator-era libraries call: `inspect.getargspec`.

TF-GAN 2.1, TensorFlow 1.x model code and their helpers read a function's arguments with
`inspect.getargspec`, deprecated since Python 3.0 and removed in 3.11. `use()` (run by
`install()`) puts it back where it is missing, with Python 3.10's behaviour: the
`ArgSpec(args, varargs, keywords, defaults)` of `inspect.getfullargspec`, and the same
ValueError for a function with keyword-only arguments or annotations.
"""
import collections
import inspect

ArgSpec = collections.namedtuple("ArgSpec", "args varargs keywords defaults")


def getargspec(func):
    """Python 3.10's `inspect.getargspec`."""
    spec = inspect.getfullargspec(func)
    if spec.kwonlyargs or spec.annotations:
        raise ValueError("Function has keyword-only parameters or annotations, use "
                         "inspect.signature() API which can support them")
    return ArgSpec(spec.args, spec.varargs, spec.varkw, spec.defaults)


def use():
    if not hasattr(inspect, "getargspec"):
        inspect.getargspec = getargspec
        inspect.ArgSpec = ArgSpec
