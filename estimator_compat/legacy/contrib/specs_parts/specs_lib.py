"""`tf.contrib.specs.specs_lib`: the composable functions a spec is made of. `f | g` applies f
then g, `f ** n` applies f n times, `f + g` / `f * g` add / multiply the two outputs; a
`Function` curries its arguments (`Cr(64)([3, 3])`) until `funcall(x)` applies it to the input."""
from __future__ import absolute_import, division, print_function

import importlib
import operator
import re

from six import exec_

QUOTED = re.compile(r"""
"([^"\\]|\\.)*" |
'([^'\\]|\\.)*'
""", re.VERBOSE)
KEYWORDS = re.compile(r"""\b(import|while|def|exec)\b""")

debug_ = False


def check_keywords(spec):
    """Raise ValueError where `spec`, outside its string literals, uses import/while/def/exec
    (specs are meant to be expressions and assignments)."""
    found = re.search(KEYWORDS, re.sub(QUOTED, "", spec))
    if found:
        raise ValueError("keyword '%s' found in spec" % found.group(1))


def get_positional(args, kw, kw_overrides=False):
    """(args, kw) with the keywords `_0`, `_1`, ... moved into those argument positions (a
    position already given keeps its value unless `kw_overrides`)."""
    named = {k: v for k, v in kw.items() if k[0] != "_"}
    if len(named) == len(kw):
        return args, kw
    positional = list(args)
    for key, value in kw.items():
        if key[0] != "_":
            continue
        index = int(key[1:])
        positional += [None] * (index + 1 - len(positional))
        if kw_overrides or positional[index] is None:
            positional[index] = value
    return positional, named


class Composable(object):
    """The operators every spec object has: `|` (composition), `**` (repetition), and `+` / `*`
    applied to the two functions' outputs."""

    def __or__(self, f):
        return Composition(self, f)

    def __add__(self, g):
        return Operator(operator.add, self, g)

    def __mul__(self, g):
        return Operator(operator.mul, self, g)

    def __pow__(self, n):
        assert n >= 0
        if n == 0:
            return Function(lambda x, *args, **kw: x)
        result = self
        for _ in range(n - 1):
            result = Composition(result, self)
        return result


class Callable(Composable):
    """A spec object applying the one-argument function `f`."""

    def __init__(self, f):
        self.f = f

    def funcall(self, x):
        return self.f(x)


class Operator(Composable):
    """`op` applied to the outputs of each of the functions `args` on the same input."""

    def __init__(self, op, *args):
        self.op = op
        self.funs = args

    def funcall(self, x):
        return self.op(*[f.funcall(x) for f in self.funs])


class Function(Composable):
    """A Python function whose calls collect arguments (later calls' positional ones first);
    `funcall(x)` calls `f(x, *args, **kw)`."""

    def __init__(self, f, *args, **kw):
        if not callable(f):
            raise ValueError("%s: is not callable" % f)
        self.f = f
        self.args = list(args)
        self.kw = kw

    def __call__(self, *args, **kw):
        merged = self.kw.copy()
        merged.update(kw)
        return Function(self.f, *(list(args) + self.args), **merged)

    def funcall(self, x):
        args, kw = get_positional(self.args, self.kw)
        if debug_:
            print("DEBUG:", self.f, x, args, kw)
        return self.f(x, *args, **kw)


class Composition(Composable):
    """g after f."""

    def __init__(self, f, g):
        self.f = f
        self.g = g

    def funcall(self, x):
        return self.g.funcall(self.f.funcall(x))


def External(module_name, function_name):
    """The function `function_name` of the importable module `module_name`, as a spec
    Function (`"tf.nn"`-style aliases do not import)."""
    return Function(vars(importlib.import_module(module_name))[function_name])


def Import(statements):
    """The `f` that executing `statements` defines, as a spec Function."""
    environ = {}
    exec_(statements, environ)
    if "f" not in environ:
        raise ValueError("failed to define \"f\": %s", statements)
    return Function(environ["f"])


def debug(mode=True):
    """Print each Function application while building a network (or stop, mode=False)."""
    global debug_
    debug_ = mode
