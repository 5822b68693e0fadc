"""Is this a TF 1.x program? Decided by the names it uses, read from its source.

A program is TF 1.x when, through `import tensorflow as <alias>`, it uses a name TensorFlow 2
does not have but `tf.compat.v1` does (`tf.flags`, `tf.app.run`, `tf.layers.dense`,
`tf.train.AdamOptimizer`, …), or `tf.contrib`, or a TF1 dataset method
(`make_one_shot_iterator()`). `tf.estimator` proves nothing: both generations had it. The script
and the modules it imports from its own directory are read.
"""
import ast
import functools
import os

_TF1_METHODS = ("make_one_shot_iterator", "make_initializable_iterator")


def _tf_aliases(tree):
    aliases = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "tensorflow":
                    aliases.add(a.asname or "tensorflow")
    return aliases


def _chain(node):
    """'a.b.c' for an Attribute chain rooted at a Name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None, None
    return node.id, list(reversed(parts))


@functools.lru_cache(maxsize=None)
def _resolves(root, path):
    import tensorflow as tf
    module = {"tf2": tf, "v1": tf.compat.v1}[root]
    try:
        functools.reduce(getattr, path, module)
        return True
    except Exception:  # noqa: BLE001 - any failure to resolve (AttributeError, ImportError)
        return False


def _is_data_module(node):
    """`<...>.data`: the receiver of `tf.compat.v1.data.make_one_shot_iterator(ds)`, a function
    TF2 programs call (through a plain `tensorflow` alias, the name check below decides)."""
    return isinstance(node, ast.Attribute) and node.attr == "data"


def _tf1_names(tree):
    aliases = _tf_aliases(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in _TF1_METHODS and \
                not _is_data_module(node.value):
            found.append(f".{node.attr}()")
        if not isinstance(node, ast.Attribute) or isinstance(getattr(node, "_parent", None),
                                                             ast.Attribute):
            continue
        root, parts = _chain(node)
        if root not in aliases or not parts or parts[0] == "estimator":
            continue
        if parts[0] == "contrib":
            found.append("tf." + ".".join(parts[:2]))
            continue
        for n in range(1, len(parts) + 1):
            path = tuple(parts[:n])
            if not _resolves("tf2", path):
                if _resolves("v1", path):
                    found.append("tf." + ".".join(path))
                break
    return found


def _mark_parents(tree):
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            child._parent = node
    return tree


def _local_modules(tree, directory):
    """The source files of the modules `tree` imports from the script's directory or from the
    working directory (a package run with `-m`): `import model`, `import trainer.model`,
    `from trainer import model`, `from . import model`, `from .model import f`."""
    dotted = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            dotted.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: the script's own package
                base = node.module or ""
                dotted.update(f".{base}.{a.name}".replace("..", ".") for a in node.names)
                if base:
                    dotted.add("." + base)
            elif node.module:
                dotted.add(node.module)
                dotted.update(f"{node.module}.{a.name}" for a in node.names)
    found = []
    for name in sorted(dotted):
        roots = [directory] if name.startswith(".") else [directory, os.getcwd()]
        relative = name.lstrip(".").replace(".", os.sep)
        for root in roots:
            for path in (os.path.join(root, relative + ".py"),
                         os.path.join(root, relative, "__init__.py")):
                if relative and os.path.isfile(path) and path not in found:
                    found.append(path)
    return found


def tf1_names(script):
    """The TF 1.x-only names `script` (and its sibling modules) use, in order of appearance."""
    with open(script, "rb") as f:
        tree = _mark_parents(ast.parse(f.read(), filename=script))
    trees = [tree]
    for path in _local_modules(tree, os.path.dirname(os.path.abspath(script))):
        try:
            with open(path, "rb") as f:
                trees.append(_mark_parents(ast.parse(f.read(), filename=path)))
        except (SyntaxError, OSError, ValueError):
            continue
    return list(dict.fromkeys(name for t in trees for name in _tf1_names(t)))


def decide(script, force=None):
    """(tf1: bool, reason: str) for running `script`; `force` is 'tf1', 'tf2' or None."""
    if force == "tf1":
        return True, "forced by --tf1"
    if force == "tf2":
        return False, "forced by --tf2"
    names = tf1_names(script)
    if names:
        shown = ", ".join(names[:5]) + (", …" if len(names) > 5 else "")
        return True, f"it uses {shown}, which TensorFlow 2 does not have (--tf2 to override)"
    return False, "it uses no TF 1.x-only name (--tf1 to override)"
