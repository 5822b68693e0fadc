"""The small tf.contrib modules against TF 1.15.5 (tests/tf115_cases/contrib_small_modules.py):
staging areas, batch_function, obtain_next, the memory_stats ops without a GPU, the XLA jit
scope / compile / estimator_model_fn, graph copying, StatSummarizer, tfprof's ProfileContext and
analyses, the testing helpers and FakeSummaryWriter, contrib.autograph."""
from tf115_cases import harness

MODULE = "contrib_small_modules"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def test_tf115_module_paths_import():
    """The deep paths TF 1.15 code imported these from."""
    import importlib

    from estimator_compat.legacy import tf1_view
    contrib = tf1_view.build().contrib
    paths = {"optimizer_v2.adam": "AdamOptimizer", "optimizer_v2.optimizer_v2": "OptimizerV2",
             "recurrent.python.ops.functional_rnn": "functional_rnn",
             "recurrent.python.ops.recurrent": "Recurrent",
             "copy_graph.python.util.copy_elements": "copy_op_to_graph",
             "memory_stats.python.ops.memory_stats_ops": "BytesLimit",
             "testing.python.framework.util_test": "latest_events",
             "tfprof.model_analyzer": "print_model_analysis", "compiler.xla": "compile"}
    for path, name in paths.items():
        module = importlib.import_module("tensorflow.contrib." + path)
        top = getattr(contrib, path.split(".")[0])
        assert getattr(module, name) is getattr(top, name, getattr(module, name)), path


def test_batching_registers_batch_and_unbatch_gradients():
    """Importing TF 1.15's contrib.batching registered gradients for the raw Batch / Unbatch
    ops (TensorFlow 2.21 has none)."""
    from tensorflow.python.framework import ops

    from estimator_compat.legacy.contrib import batching
    batching.build()
    assert ops._gradient_registry.lookup("Batch") is batching._batch_grad
    assert ops._gradient_registry.lookup("Unbatch") is batching._unbatch_grad
