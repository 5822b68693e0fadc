"""`tf.contrib.tfprof`, served whole: `model_analyzer` and `tfprof_logger` (TF 1.15's thin
deprecated wrappers over the profiler TF 2.21 still has, `tensorflow.python.profiler`), and
`ProfileContext` (tfprof_context.py)."""
import __future__

from tensorflow.python.profiler import model_analyzer as _analyzer
from tensorflow.python.profiler import tfprof_logger as _logger
from tensorflow.python.util.deprecation import deprecated

from estimator_compat.legacy.contrib.tfprof_context import ProfileContext

_FUTURE = dict(absolute_import=__future__.absolute_import, division=__future__.division,
               print_function=__future__.print_function)


def _options(min_float_ops, order_by, account, select, min_bytes=0, min_micros=0):
    """One of TF 1.15's option dicts (every regex `.*`, displayed ops only, to stdout)."""
    return {"max_depth": 10000, "min_bytes": min_bytes, "min_micros": min_micros,
            "min_params": 0, "min_float_ops": min_float_ops, "order_by": order_by,
            "account_type_regexes": [account], "start_name_regexes": [".*"],
            "trim_name_regexes": [], "show_name_regexes": [".*"], "hide_name_regexes": [],
            "account_displayed_op_only": True, "select": select, "output": "stdout",
            "dump_to_file": ""}


TRAINABLE_VARS_PARAMS_STAT_OPTIONS = _options(0, "name", _logger.TRAINABLE_VARIABLES,
                                              ["params"])
FLOAT_OPS_OPTIONS = _options(1, "float_ops", ".*", ["float_ops"])
PRINT_ALL_TIMING_MEMORY = _options(0, "name", ".*", ["micros", "bytes"], min_bytes=1,
                                   min_micros=1)


@deprecated("2018-01-01", "Use `tf.profiler.advise(graph, run_meta, options)`. See README.md")
def advise(graph, run_meta=None, tfprof_options=0):
    return _analyzer.advise(graph, run_meta, tfprof_options)


@deprecated("2018-01-01", "Use `tf.profiler.profile(graph, run_meta, op_log, cmd, options)`. "
            "Build `options` with `tf.profiler.ProfileOptionBuilder`. See README.md for details")
def print_model_analysis(graph, run_meta=None, op_log=None, tfprof_cmd="scope",
                         tfprof_options=0):
    return _analyzer.profile(graph, run_meta, op_log, tfprof_cmd, tfprof_options)


@deprecated("2018-01-01", "Use `tf.profiler.write_op_log. go/tfprof`")
def write_op_log(graph, log_dir, op_log=None, run_meta=None, add_trace=True):
    _logger.write_op_log(graph, log_dir, op_log, run_meta, add_trace)


def build():
    from estimator_compat.legacy.namespaces import namespace
    tfprof_logger = namespace("tensorflow.contrib.tfprof.tfprof_logger", "tfprof_logger",
                              write_op_log=write_op_log, deprecated=deprecated, **_FUTURE)
    model_analyzer = namespace(
        "tensorflow.contrib.tfprof.model_analyzer", "model_analyzer", advise=advise,
        print_model_analysis=print_model_analysis, ALL_ADVICE=_analyzer.ALL_ADVICE,
        Profiler=_analyzer.Profiler, ProfileContext=ProfileContext,
        TRAINABLE_VARS_PARAMS_STAT_OPTIONS=TRAINABLE_VARS_PARAMS_STAT_OPTIONS,
        FLOAT_OPS_OPTIONS=FLOAT_OPS_OPTIONS, PRINT_ALL_TIMING_MEMORY=PRINT_ALL_TIMING_MEMORY,
        tfprof_logger=_logger, deprecated=deprecated, **_FUTURE)
    return namespace("tensorflow.contrib.tfprof", __doc__, __served_whole__=True,
                     ProfileContext=ProfileContext, model_analyzer=model_analyzer,
                     tfprof_logger=tfprof_logger)
