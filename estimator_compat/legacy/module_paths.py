"""The module paths estimator-era code imported from, registered in sys.modules by install().

- `tensorflow.python.estimator.<module>` (TF 1.x's forwarding copy of tensorflow_estimator:
  `from tensorflow.python.estimator.model_fn import ModeKeys`) and the original
  `tensorflow_estimator.python.estimator.<module>`: every module of tensorflow_estimator 2.15's
  tree, with the names it defined (legacy/estimator_tree/ maps them; the ones left out on
  purpose are in its DECLINED tables);
- `tensorflow.examples.tutorials.mnist.input_data` (`read_data_sets`, the TF 1.x tutorials').
The `tensorflow.contrib.*.python.*` paths are registered with tf.contrib (contrib/).
"""
import sys

from estimator_compat.legacy.namespaces import namespace


def _estimator_modules():
    """{module path under `.../python/estimator/`: {name: object}} (legacy/estimator_tree/)."""
    from estimator_compat.legacy import estimator_tree
    return estimator_tree.modules()


def register(prefix, modules):
    """Registers `prefix.<path>` for each path of `modules` (parents before children), each
    child also an attribute of its parent; returns the `prefix` module."""
    top = namespace(prefix, f"{prefix}, served by estimator_compat")
    made = {"": top}
    for path in sorted(modules, key=lambda p: p.count(".")):
        module = namespace(f"{prefix}.{path}", f"{prefix}.{path}, served by estimator_compat",
                           **modules[path])
        parent, _, child = path.rpartition(".")
        setattr(made[parent], child, module)
        made[path] = module
    return top


def install():
    """Registers every path above (idempotent)."""
    if "tensorflow.python.estimator.model_fn" in sys.modules:
        return
    modules = _estimator_modules()
    register("tensorflow.python.estimator", modules)
    estimator_v2 = register("tensorflow_estimator.python.estimator", modules)
    namespace("tensorflow_estimator.python", "tensorflow_estimator.python",
              estimator=estimator_v2)
    if "tensorflow_estimator" in sys.modules:  # (else install() links it when it makes it)
        sys.modules["tensorflow_estimator"].python = sys.modules["tensorflow_estimator.python"]
    from estimator_compat.learn import datasets
    register("tensorflow.examples", {
        "tutorials": {}, "tutorials.mnist": {},
        "tutorials.mnist.input_data": dict(read_data_sets=datasets.read_data_sets,
                                           DataSet=datasets.DataSet)})
