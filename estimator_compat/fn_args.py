"""Which of tf.estimator's optional arguments a user function accepts."""
import functools
import inspect


def fn_args(fn):
    """Names of the parameters of `fn` (functools.partial and callables included), minus bound self."""
    if isinstance(fn, functools.partial):
        bound = set(fn.keywords or {})
        return tuple(a for a in fn_args(fn.func)[len(fn.args):] if a not in bound)
    target = fn if inspect.isfunction(fn) or inspect.ismethod(fn) else getattr(fn, "__call__", fn)
    try:
        sig = inspect.signature(target)
    except (TypeError, ValueError):
        return ()
    return tuple(name for name, p in sig.parameters.items()
                 if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))


def accepted_kwargs(fn, **candidates):
    """The subset of `candidates` that `fn` declares as parameters."""
    args = fn_args(fn)
    return {k: v for k, v in candidates.items() if k in args}
