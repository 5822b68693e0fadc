"""`tf.contrib.specs.specs` (TF 1.15's specs.py): evaluating parameter and spec strings, and
`LocalImport`, which lends the spec vocabulary to Python code for a `with` block."""
from __future__ import absolute_import, division, print_function

from six import exec_
from tensorflow.python.util import tf_inspect

from estimator_compat.legacy.contrib.specs_parts import params_ops, specs_lib, specs_ops


def eval_params(params, environment=None):
    """The bindings of executing the parameter string `params` (with `environment`'s) in the
    params_ops vocabulary."""
    specs_lib.check_keywords(params)
    bindings = dict(environment or {})
    exec_(params, vars(params_ops), bindings)
    return bindings


def eval_spec(spec, environment=None):
    """The bindings of executing the spec string `spec` (with `environment`'s) in the
    specs_ops vocabulary: one spec may define several networks (`left = ...; right = ...`)."""
    specs_lib.check_keywords(spec)
    bindings = dict(environment or {})
    exec_(spec, vars(specs_ops), bindings)
    return bindings


def create_net_fun(spec, environment=None):
    """The function building the spec's `net` binding on an input."""
    net = eval_spec(spec, environment).get("net", None)
    if net is None:
        raise ValueError("spec failed to create 'net': %s" % (spec,))
    return net.funcall


def create_net(spec, inputs, environment=None):
    """The output of the spec's `net` built on `inputs`."""
    return create_net_fun(spec, environment)(inputs)


class LocalImport(object):
    """A context manager binding `names` (a dict or a module's variables) in the calling
    module's globals for its block, then restoring them (names it added are removed; as in
    TF 1.15, so is a name whose earlier value was None)."""

    def __init__(self, names):
        self.names = names if isinstance(names, dict) else vars(names)

    def __enter__(self):
        self.frame = tf_inspect.currentframe()
        bindings = self.frame.f_back.f_globals
        self.old = {k: bindings.get(k, None) for k in self.names.keys()}
        bindings.update(self.names)

    def __exit__(self, some_type, value, traceback):
        del some_type, value, traceback
        bindings = self.frame.f_back.f_globals
        bindings.update(self.old)
        for k, v in self.old.items():
            if v is None:
                del bindings[k]
        del self.frame


ops = LocalImport(specs_ops)
