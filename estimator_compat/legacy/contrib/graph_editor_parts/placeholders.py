"""The placeholders the graph editor makes where it cuts a graph, named `geph__<op>_<index>`
(Graph-Editor PlaceHolder) in the cut tensor's scope, and the scope-name helpers they use."""
import re

import tensorflow as tf

_PREFIX = "geph"
_INTERNAL = re.compile(r"^__\w+__$")


def scope_finalize(scope):
    """`scope` ending in "/" (the empty scope left empty)."""
    return scope + "/" if scope and not scope.endswith("/") else scope


def scope_dirname(scope):
    """The part of `scope` up to and with its last "/" ("" if none)."""
    return scope[:scope.rfind("/") + 1]


def scope_basename(scope):
    """The part of `scope` after its last "/"."""
    return scope[scope.rfind("/") + 1:]


def placeholder_name(t=None, scope=None, prefix=_PREFIX):
    """The name for a placeholder standing for `t`: `<scope><prefix>__<op basename>_<index>`
    (a name already made so is kept), `scope` None meaning t's own scope; without `t`,
    `<scope><prefix>`."""
    if scope is not None:
        scope = scope_finalize(scope)
    if t is None:
        return (scope or "") + prefix
    if not isinstance(t, tf.Tensor):
        raise TypeError(f"Expected a tf.Tenfor, got: {type(t)}")
    basename = scope_basename(t.op.name)
    if scope is None:
        scope = scope_dirname(t.op.name)
    if basename.startswith(prefix + "__"):
        return scope + basename
    return f"{scope}{prefix}__{basename}_{t.value_index}"


def make_placeholder_from_tensor(t, scope=None, prefix=_PREFIX):
    """A tf.compat.v1.placeholder with `t`'s dtype and shape, named by `placeholder_name`."""
    return tf.compat.v1.placeholder(dtype=t.dtype, shape=t.get_shape(),
                                    name=placeholder_name(t, scope=scope, prefix=prefix))


def make_placeholder_from_dtype_and_shape(dtype, shape=None, scope=None, prefix=_PREFIX):
    """A tf.compat.v1.placeholder named `<scope><prefix>` (uniquified by the graph)."""
    return tf.compat.v1.placeholder(dtype=dtype, shape=shape,
                                    name=placeholder_name(scope=scope, prefix=prefix))


def get_predefined_collection_names():
    """The values of tf.compat.v1.GraphKeys' attributes (the collections TF itself names)."""
    keys = tf.compat.v1.GraphKeys
    return [getattr(keys, name) for name in dir(keys) if not _INTERNAL.match(name)]
