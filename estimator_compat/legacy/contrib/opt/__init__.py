"""`tf.contrib.opt`, served whole: `tf.compat.v1.train.Optimizer` subclasses with TF 1.15's slot
names (checkpoint keys such as `w/AdamW`, `w/AdamW_1`, `beta1_power`) and update math.

- `weight_decay.py`: `AdamWOptimizer`, `MomentumWOptimizer`, `DecoupledWeightDecayExtension`,
  `extend_with_decoupled_weight_decay`.
- `adam_variants.py`: `LazyAdamOptimizer`, `NadamOptimizer`, `AdaMaxOptimizer`,
  `AdamGSOptimizer`, `LazyAdamGSOptimizer`.
- `sign.py`: `AddSignOptimizer`, `PowerSignOptimizer`; `lars.py`: `LARSOptimizer`;
  `reg_adagrad.py`: `RegAdagradOptimizer`.
- `wrappers.py`: `MovingAverageOptimizer`, `DropStaleGradientOptimizer`,
  `MultitaskOptimizerWrapper`, `clip_gradients_by_global_norm`, `VariableClippingOptimizer`.
- `external.py`: `ExternalOptimizerInterface`, `ScipyOptimizerInterface` (scipy).
- `ggt.py`: `GGTOptimizer`; `shampoo.py`: `ShampooOptimizer`, whose roots of PSD matrices
  (`matrix_inverse_pth_root`, `matrix_square_root`) are in `matrix_functions.py`.

- Between-graph replication (worker-local copies averaged through parameter servers, run with
  `tf.train.Server`s and the optimizer's `make_session_run_hook`): `elastic_average.py`:
  `ElasticAverageOptimizer`, `ElasticAverageCustomGetter`; `model_average.py`:
  `ModelAverageOptimizer`, `ModelAverageCustomGetter`; `agn.py`: `AGNOptimizer`,
  `AGNCustomGetter`; what they share (`local_step`, the init hook) in `ps_common.py`.

Deep paths `tensorflow.contrib.opt.python.training.<module>` are registered too.
"""
from estimator_compat.legacy.contrib.opt import (
    adam_variants,
    agn,
    elastic_average,
    external,
    ggt,
    lars,
    matrix_functions,
    model_average,
    reg_adagrad,
    shampoo,
    sign,
    weight_decay,
    wrappers,
)

_MODULES = {  # TF 1.15's module under tensorflow.contrib.opt.python.training: its names here
    "weight_decay_optimizers": (weight_decay, [
        "DecoupledWeightDecayExtension", "extend_with_decoupled_weight_decay",
        "AdamWOptimizer", "MomentumWOptimizer"]),
    "lazy_adam_optimizer": (adam_variants, ["LazyAdamOptimizer"]),
    "nadam_optimizer": (adam_variants, ["NadamOptimizer"]),
    "adamax": (adam_variants, ["AdaMaxOptimizer"]),
    "adam_gs_optimizer": (adam_variants, ["AdamGSOptimizer"]),
    "lazy_adam_gs_optimizer": (adam_variants, ["LazyAdamGSOptimizer"]),
    "addsign": (sign, ["AddSignOptimizer"]),
    "powersign": (sign, ["PowerSignOptimizer"]),
    "lars_optimizer": (lars, ["LARSOptimizer"]),
    "reg_adagrad_optimizer": (reg_adagrad, ["RegAdagradOptimizer"]),
    "moving_average_optimizer": (wrappers, ["MovingAverageOptimizer"]),
    "drop_stale_gradient_optimizer": (wrappers, ["DropStaleGradientOptimizer"]),
    "multitask_optimizer_wrapper": (wrappers, ["MultitaskOptimizerWrapper",
                                               "clip_gradients_by_global_norm"]),
    "variable_clipping_optimizer": (wrappers, ["VariableClippingOptimizer"]),
    "external_optimizer": (external, ["ExternalOptimizerInterface",
                                      "ScipyOptimizerInterface"]),
    "ggt": (ggt, ["GGTOptimizer"]),
    "shampoo": (shampoo, ["ShampooOptimizer"]),
    "elastic_average_optimizer": (elastic_average, ["ElasticAverageOptimizer",
                                                    "ElasticAverageCustomGetter"]),
    "model_average_optimizer": (model_average, ["ModelAverageOptimizer",
                                                "ModelAverageCustomGetter"]),
    "agn_optimizer": (agn, ["AGNOptimizer", "AGNCustomGetter"]),
}
# deep-path-only modules: {module name: (our module, its names)}
_DEEP_ONLY = {"matrix_functions": (matrix_functions, ["matrix_inverse_pth_root",
                                                      "matrix_square_root"])}

FUNCTIONS = {name: getattr(module, name)
             for module, names in _MODULES.values() for name in names}


def build():
    from estimator_compat.legacy.namespaces import namespace
    prefix = "tensorflow.contrib.opt.python.training"
    training = namespace(prefix, "tf.contrib.opt's optimizers", **{
        module_name: namespace(f"{prefix}.{module_name}", f"tf.contrib.opt's {module_name}",
                               **{n: FUNCTIONS[n] for n in names})
        for module_name, (_, names) in _MODULES.items()},
        **{module_name: namespace(f"{prefix}.{module_name}", f"tf.contrib.opt's {module_name}",
                                  **{n: getattr(module, n) for n in names})
           for module_name, (module, names) in _DEEP_ONLY.items()})
    python = namespace("tensorflow.contrib.opt.python", "tf.contrib.opt", training=training)
    return namespace("tensorflow.contrib.opt", "tf.contrib.opt", python=python,
                     __served_whole__=True, **FUNCTIONS)
