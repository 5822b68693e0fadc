"""`tf.contrib.framework`: the global-step and variable helpers estimator-era model_fns called."""
import tensorflow as tf

v1 = tf.compat.v1


def get_variables(scope=None, suffix=None, collection=v1.GraphKeys.GLOBAL_VARIABLES):
    """The graph's variables in `collection` under `scope`, whose names end with `suffix`."""
    if isinstance(scope, v1.VariableScope):
        scope = scope.name
    found = v1.get_collection(collection, scope)
    return [v for v in found if suffix is None or v.op.name.endswith(suffix)]


def get_model_variables(scope=None, suffix=None):
    return get_variables(scope, suffix, v1.GraphKeys.MODEL_VARIABLES)


def get_trainable_variables(scope=None, suffix=None):
    return get_variables(scope, suffix, v1.GraphKeys.TRAINABLE_VARIABLES)


def get_variables_to_restore(include=None, exclude=None):
    """Global variables under the `include` scopes and not under the `exclude` ones."""
    variables = (get_variables() if include is None
                 else [v for scope in include for v in get_variables(scope)])
    excluded = {id(v) for scope in exclude or () for v in get_variables(scope)}
    return [v for v in variables if id(v) not in excluded]


FUNCTIONS = dict(get_global_step=v1.train.get_global_step,
                 get_or_create_global_step=v1.train.get_or_create_global_step,
                 create_global_step=v1.train.create_global_step,
                 get_variables=get_variables, get_model_variables=get_model_variables,
                 get_trainable_variables=get_trainable_variables,
                 get_variables_to_restore=get_variables_to_restore,
                 get_variable_full_name=lambda var: var.op.name,
                 init_from_checkpoint=v1.train.init_from_checkpoint,
                 list_variables=tf.train.list_variables, load_variable=tf.train.load_variable)


def build():
    from estimator_compat.legacy.namespaces import namespace
    return namespace("tensorflow.contrib.framework", "tf.contrib.framework", **FUNCTIONS)
