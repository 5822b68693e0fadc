"""tensorflow_estimator 2.15's `tpu.*` privates that run without a TPU
(legacy/estimator_tree/tpu_*.py) behave as 2.15's: the cases of tests/tpu_privates_cases.py
give what tests/fixtures/tf215_tpu_privates.json recorded under tensorflow-estimator 2.15
(tests/fixtures/make_tf215_tpu_privates.py)."""
import importlib
import json
import pathlib

import pytest
import tpu_privates_cases

import estimator_compat

FIXTURE = pathlib.Path(__file__).parent / "fixtures" / "tf215_tpu_privates.json"


def _get(path):
    return importlib.import_module("tensorflow_estimator.python.estimator." + path)


@pytest.fixture(scope="module")
def ours():
    estimator_compat.install()
    return tpu_privates_cases.run_all(_get)


@pytest.mark.parametrize("case", sorted(tpu_privates_cases.cases()))
def test_matches_tf215(ours, case):
    theirs = json.loads(FIXTURE.read_text())[case]
    assert ours[case] == theirs


def test_served_from_both_prefixes():
    estimator_compat.install()
    for name in ("IterationCountEstimator", "RuntimeCounter"):
        a = getattr(_get("tpu.iteration_count_estimator"), name)
        b = getattr(importlib.import_module(
            "tensorflow.python.estimator.tpu.iteration_count_estimator"), name)
        assert a is b


# What TF 1.15's tf.contrib.tpu.profiler wrote for a Trace of one device (id 7, resource 2
# "Steps") and one event ("step" at 1000 ps for 250 ps, args {"k": "v"}).
TF115_TRACE = (b'\n$\x08\x07\x12 \n\r/device:TPU:0\x10\x07\x1a\r\x08\x02\x12\t\n\x05Steps\x10'
               b'\x02"\x18\x08\x07\x10\x02\x1a\x04stepH\xe8\x07P\xfa\x01Z\x06\n\x01k\x12\x01v')


def test_contrib_tpu_profiler_protos_read_and_write_tf115_bytes():
    estimator_compat.install()
    profiler = importlib.import_module("tensorflow.contrib.tpu.profiler")
    trace = profiler.Trace.FromString(TF115_TRACE)
    device = trace.devices[7]
    assert (device.name, device.device_id, device.resources[2].name) == ("/device:TPU:0", 7,
                                                                        "Steps")
    event = trace.trace_events[0]
    assert (event.name, event.timestamp_ps, event.duration_ps, dict(event.args)) == (
        "step", 1000, 250, {"k": "v"})
    rebuilt = profiler.Trace()
    rebuilt.devices[7].CopyFrom(profiler.Device(name="/device:TPU:0", device_id=7))
    rebuilt.devices[7].resources[2].CopyFrom(profiler.Resource(name="Steps", resource_id=2))
    rebuilt.trace_events.add().CopyFrom(profiler.TraceEvent(
        device_id=7, resource_id=2, name="step", timestamp_ps=1000, duration_ps=250,
        args={"k": "v"}))
    assert rebuilt.SerializeToString() == TF115_TRACE
