"""tensorflow_estimator 2.15's `tools.checkpoint_converter` privates: the steps its
convert_checkpoint took in a TF1 graph, which scripts converting their own canned models
reused. `_add_new_variable` makes a `tf.Variable` named as the V2 estimator reads it and
records it in two maps ({v2 name: variable}, {v2 name: v1 name}); `_add_opt_variable` adds an
optimizer slot as `training/<Opt>/<v1 name up to idx><slot>`; `_convert_variables_in_ckpt`
converts every checkpoint variable for one TF1 optimizer (Adam's beta powers as
`beta ** (1 / global_step)`, slots renamed, model variables as they were);
`_convert_hyper_params_in_graph` adds the Keras optimizer's hyperparameters (read from a
graph node `<Opt>/<name>` where one matches, which no TF1 graph has, so the defaults, as in
2.15). estimator_compat's own converter is estimator_compat/checkpoint_converter.py."""
import tensorflow as tf
from google.protobuf import text_format

from estimator_compat.checkpoint_converter import _HYPER_PARAMETERS

v1 = tf.compat.v1
OPT_NAME_V1_TO_V2 = {"Adagrad": "Adagrad", "RMSProp": "RMSprop", "Ftrl": "Ftrl",
                     "Adam": "Adam", "SGD": "SGD"}
HP_IN_CKPT = {"Adam": {"beta1_power": "training/Adam/beta_1",
                       "beta2_power": "training/Adam/beta_2"}}
OPT_VAR_NAME_V1_TO_V2 = {"Adam": {"Adam": "m", "Adam_1": "v"},
                         "Ftrl": {"Ftrl": "accumulator", "Ftrl_1": "linear"},
                         "RMSProp": {"RMSProp": "rms", "RMSProp_1": None},
                         "Adagrad": {"Adagrad": "accumulator"}}
# the hyperparameters each Keras optimizer keeps as variables
HP_IN_GRAPH = {"Adam": ["decay", "learning_rate"],
               "Ftrl": ["decay", "l1_regularization_strength", "l2_regularization_strength",
                        "beta", "learning_rate", "learning_rate_power"],
               "RMSProp": ["decay", "learning_rate", "momentum", "rho"],
               "Adagrad": ["decay", "learning_rate"],
               "SGD": ["decay", "learning_rate", "momentum"]}
_SLOT_MARKERS = {"dnn": "t_0", "linear": "part_0"}  # what TF1 put before a slot's name


def _add_new_variable(initial_value, var_name_v2, var_name_v1, var_map, var_names_map):
    """Creates `tf.Variable(initial_value, name=var_name_v2)` and records it in the maps."""
    var_map[var_name_v2] = tf.Variable(initial_value, name=var_name_v2)
    var_names_map[var_name_v2] = var_name_v1


def _add_opt_variable(opt_name_v2, var_name_v1, idx, suffix_v2, reader, var_map,
                      var_names_map):
    """Adds the checkpoint's `var_name_v1` as `training/<opt_name_v2>/<var_name_v1[:idx]>
    <suffix_v2>`."""
    name = f"training/{opt_name_v2}/{var_name_v1[:idx]}{suffix_v2}"
    _add_new_variable(reader.get_tensor(var_name_v1), name, var_name_v1, var_map,
                      var_names_map)


def _convert_variables_in_ckpt(opt_name_v1, reader, variable_names, var_map, var_names_map,
                               est_type):
    """Adds every one of `variable_names` (read with `reader`) converted for the TF1 optimizer
    `opt_name_v1` and estimator type ('dnn', 'linear' or 'combined')."""
    beta_powers = HP_IN_CKPT.get(opt_name_v1)
    global_step = reader.get_tensor("global_step") if opt_name_v1 == "Adam" else None
    opt_name_v2 = OPT_NAME_V1_TO_V2[opt_name_v1]
    for name in variable_names:
        power = next((p for p in (beta_powers or ()) if p in name), None)
        if power is not None:
            value = tf.math.pow(reader.get_tensor(name), 1.0 / global_step)
            _add_new_variable(value, beta_powers[power], name, var_map, var_names_map)
        elif opt_name_v1 in name:
            slot = name.rsplit("/")[-1]
            suffix = OPT_VAR_NAME_V1_TO_V2[opt_name_v1][slot]
            if suffix:
                idx = name.rfind(_SLOT_MARKERS.get(est_type, slot))
                _add_opt_variable(opt_name_v2, name, idx, suffix, reader, var_map,
                                  var_names_map)
        else:
            _add_new_variable(reader.get_tensor(name), name, name, var_map, var_names_map)


def _convert_hyper_params_in_graph(graph_from_path, opt_name_v1, var_map, var_names_map):
    """Adds the Keras optimizer's hyperparameter variables `training/<Opt>/<name>`: a graph
    node's value (the text GraphDef at `graph_from_path`) where its name matches, else the
    Keras (legacy) optimizer's default."""
    with tf.io.gfile.GFile(graph_from_path) as f:
        graph_def = text_format.Parse(f.read(), v1.GraphDef())
    wanted = HP_IN_GRAPH[opt_name_v1]
    opt_name_v2 = OPT_NAME_V1_TO_V2[opt_name_v1]
    found = []
    v1.logging.info("For hyper parameter variables that are in Graph:")
    for node in graph_def.node:
        short = node.name.rsplit("/")[-1]
        if f"{opt_name_v1}/{short}" in wanted:
            value = node.attr.get("value").tensor.float_val[0]
            name = f"training/{opt_name_v2}/{short}"
            v1.logging.info(f"Hyper parameter {name} with value {value} found in Graph.")
            _add_new_variable(value, name, short, var_map, var_names_map)
            found.append(short)
    defaults = _HYPER_PARAMETERS[opt_name_v2]
    v1.logging.info("For hyper parameter variables that are NOT in Graph:")
    for short in sorted(set(wanted) - set(found)):
        name = f"training/{opt_name_v2}/{short}"
        v1.logging.info(f"Hyper parameter {name} with default value {defaults[short]} is "
                        "added.")
        _add_new_variable(defaults[short], name, short, var_map, var_names_map)
