"""`tf.contrib.autograph`, served whole: TF 1.15's module was `from tensorflow.python.autograph
import *`, and TF 2.21 still has that AutoGraph (`tensorflow.python.autograph`), so its own
objects are served (the directives keep their identity, which the converter looks for).

One call changed its argument order since: TF 1.15's `converted_call(f, options, args, kwargs,
caller_fn_scope=None)` is TF 2.21's `converted_call(f, args, kwargs, caller_fn_scope, options)`.
"""
import __future__

from tensorflow.python.autograph import operators, utils
from tensorflow.python.autograph.core import converter
from tensorflow.python.autograph.impl import api
from tensorflow.python.autograph.lang import directives, special_functions


def converted_call(f, options, args, kwargs, caller_fn_scope=None):
    """Calls `f(*args, **kwargs)` converted by AutoGraph with `options` (TF 1.15's order)."""
    return api.converted_call(f, args, kwargs, caller_fn_scope=caller_fn_scope,
                              options=options)


def build():
    from estimator_compat.legacy.namespaces import namespace
    return namespace(
        "tensorflow.contrib.autograph", __doc__, __served_whole__=True,
        AutoGraphError=api.AutoGraphError, ConversionOptions=converter.ConversionOptions,
        Feature=converter.Feature, StackTraceMapper=api.StackTraceMapper, convert=api.convert,
        converted_call=converted_call, do_not_convert=api.do_not_convert, operators=operators,
        set_element_type=directives.set_element_type,
        set_loop_options=directives.set_loop_options, stack=special_functions.stack,
        to_code=api.to_code, to_graph=api.to_graph, utils=utils,
        absolute_import=__future__.absolute_import, division=__future__.division,
        print_function=__future__.print_function)
