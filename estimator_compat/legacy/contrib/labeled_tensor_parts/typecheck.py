"""Argument type checks for labeled_tensor's functions: TF 1.15 checked every public argument and
raised a TypeError subclass for a wrong one, which programs (and their tests) rely on."""
import collections.abc
import functools
import inspect


class Error(TypeError):
    """A labeled_tensor argument of the wrong type."""


class Spec:
    """A type condition: `check(value)` and a readable name for the error."""

    def __init__(self, check, text):
        self.check, self.text = check, text

    def __repr__(self):
        return self.text


def ok(spec, value):
    if isinstance(spec, Spec):
        return spec.check(value)
    return isinstance(value, spec)


def _text(spec):
    return spec.text if isinstance(spec, Spec) else getattr(spec, "__name__", repr(spec))


def Union(*specs):
    return Spec(lambda v: any(ok(s, v) for s in specs),
                "Union(%s)" % ", ".join(_text(s) for s in specs))


def Optional(spec):
    return Spec(lambda v: v is None or ok(spec, v), "Optional(%s)" % _text(spec))


def _collection(kind, text, spec):
    def check(v):
        # a string is a collection of strings here too, as in TF 1.15
        return isinstance(v, kind) and all(ok(spec, x) for x in v)
    return Spec(check, "%s(%s)" % (text, _text(spec)))


def Collection(spec):
    return _collection(collections.abc.Collection, "Collection", spec)


def List(spec):
    return _collection(list, "List", spec)


def Tuple(*specs):
    return Spec(lambda v: isinstance(v, tuple) and len(v) == len(specs) and all(
        ok(s, x) for s, x in zip(specs, v)), "Tuple(%s)" % ", ".join(_text(s) for s in specs))


def Mapping(key, value):
    return Spec(lambda v: isinstance(v, collections.abc.Mapping) and all(
        ok(key, k) and ok(value, x) for k, x in v.items()),
        "Mapping(%s, %s)" % (_text(key), _text(value)))


def accepts(*specs):
    """Checks the positional arguments of the decorated function against `specs` (TF 1.15
    checked only those: keyword arguments pass unchecked)."""
    def decorate(f):
        names = list(inspect.signature(f).parameters)

        @functools.wraps(f)
        def checked(*args, **kwargs):
            for name, spec, value in zip(names, specs, args):
                if not ok(spec, value):
                    raise Error("%r of type %r is not an instance of the allowed type %s for "
                                "the %s argument to %s" % (value, type(value), _text(spec),
                                                           name, f.__name__))
            return f(*args, **kwargs)
        return checked
    return decorate
