"""`tf.contrib.testing`, served whole: `FakeSummaryWriter` and the event-file helpers
(testing_util.py), and the modules TF 1.15's namespace exported (`glob`, `np`, `os`,
`summary_io`, `summary_pb2`, `test_util`, `writer`, `writer_cache`, and its own `python` package
with `python.framework.fake_summary_writer` / `python.framework.util_test`)."""
import __future__
import glob
import os

import numpy as np
from tensorflow.core.framework import summary_pb2
from tensorflow.python.framework import test_util
from tensorflow.python.summary.writer import writer, writer_cache
from tensorflow.python.training import summary_io

from estimator_compat.legacy.contrib import testing_util as _util

_HELPERS = ("assert_summary", "latest_event_file", "latest_events", "latest_summaries",
            "simple_values_from_events", "to_summary_proto")


def build():
    from estimator_compat.legacy.namespaces import namespace
    prefix = "tensorflow.contrib.testing.python"
    fake = namespace(prefix + ".framework.fake_summary_writer", "fake_summary_writer",
                     FakeSummaryWriter=_util.FakeSummaryWriter, summary_pb2=summary_pb2,
                     test_util=test_util, writer=writer, writer_cache=writer_cache)
    util = namespace(prefix + ".framework.util_test", "util_test", glob=glob, os=os, np=np,
                     summary_pb2=summary_pb2, summary_io=summary_io,
                     **{name: getattr(_util, name) for name in _HELPERS})
    framework = namespace(prefix + ".framework", "framework", fake_summary_writer=fake,
                          util_test=util)
    python = namespace(prefix, "python", framework=framework)
    return namespace(
        "tensorflow.contrib.testing", __doc__, __served_whole__=True,
        FakeSummaryWriter=_util.FakeSummaryWriter, glob=glob, np=np, os=os,
        summary_io=summary_io, summary_pb2=summary_pb2, test_util=test_util, writer=writer,
        writer_cache=writer_cache, python=python,
        absolute_import=__future__.absolute_import, division=__future__.division,
        print_function=__future__.print_function,
        **{name: getattr(_util, name) for name in _HELPERS})
