"""tf.contrib.opt's parameter-server averaging optimizers (ElasticAverage*, ModelAverage*, AGN*)
against TF 1.15.5's record (tests/tf115_cases/contrib_opt_ps.py): on a local cluster of
in-process servers, the local / global centre / snapshot / gradient-sum variables' names,
devices and collections, and every variable's value after each step, with one worker and, for
the synchronous model average, two; with TF1's reference variables (an `estimator-compat run`
program) and TensorFlow 2's resource variables."""
import pytest

from tf115_cases import harness

MODULE = "contrib_opt_ps"

ours, test_case_matches_tf115 = harness.case_tests(MODULE)


@pytest.fixture(scope="module")
def ours_resource():
    """The one-worker cases on a plain thread: TensorFlow 2's resource variables in a TF1 graph
    (the two-worker case turns its own threads into TF 1.x's)."""
    from estimator_compat.legacy import tf1_view
    tf = tf1_view.build()
    return {name: harness.run_case(tf, case) for name, case in harness.cases(MODULE).items()
            if name != "model_average_two_workers"}


def test_cases_match_tf115_with_resource_variables(ours_resource):
    for name, record in ours_resource.items():
        harness.compare(record, harness.recorded(MODULE)[name], harness.cases(MODULE)[name])


def test_getters_and_optimizers_reject_misuse():
    from estimator_compat.legacy.contrib.opt import agn, elastic_average, model_average
    with pytest.raises(TypeError, match="custom_getter"):
        agn.AGNOptimizer(None, 1, custom_getter=object())
    getter = elastic_average.ElasticAverageCustomGetter("/job:worker/task:0")
    with pytest.raises(ValueError, match="communication_period"):
        elastic_average.ElasticAverageOptimizer(None, 1, getter, communication_period=0)
    with pytest.raises(ValueError, match="interval_steps"):
        model_average.ModelAverageOptimizer(
            None, 1, True, model_average.ModelAverageCustomGetter("/job:worker/task:0"),
            interval_steps=2.5)


def test_served_at_tf115_module_paths():
    import importlib

    from estimator_compat.legacy import tf1_view
    contrib_opt = tf1_view.build().contrib.opt
    prefix = "tensorflow.contrib.opt.python.training."
    for module, names in (("elastic_average_optimizer", ["ElasticAverageOptimizer",
                                                         "ElasticAverageCustomGetter"]),
                          ("model_average_optimizer", ["ModelAverageOptimizer",
                                                       "ModelAverageCustomGetter"]),
                          ("agn_optimizer", ["AGNOptimizer", "AGNCustomGetter"])):
        deep = importlib.import_module(prefix + module)
        for name in names:
            assert getattr(deep, name) is getattr(contrib_opt, name)
