"""`api._v2.estimator*` (tf.estimator's generated API modules) and `api._v1.estimator*`
(tf.compat.v1.estimator's): the same objects as estimator_compat's tf.estimator and
legacy/estimator_v1.py's tf.compat.v1.estimator."""
import types


def _public(module):
    return {n: getattr(module, n) for n in dir(module) if not n.startswith("_")
            and not isinstance(getattr(module, n), types.ModuleType)}


def modules():
    import estimator_compat as v2
    from estimator_compat.legacy import estimator_v1 as v1
    from estimator_compat import experimental, export, inputs, tpu
    from estimator_compat.tpu import experimental as tpu_experimental
    return {
        "api": {}, "api._v1": {}, "api._v1.v1": {}, "api._v2": {}, "api._v2.v2": {},
        "api._v1.estimator": {n: getattr(v1, n) for n in dir(v1) if not n.startswith("_")
                              and not isinstance(getattr(v1, n), types.ModuleType)},
        "api._v1.estimator.experimental": _public(experimental),
        "api._v1.estimator.export": _public(export),
        "api._v1.estimator.inputs": _public(inputs),
        "api._v1.estimator.tpu": _public(tpu),
        "api._v1.estimator.tpu.experimental": _public(tpu_experimental),
        "api._v2.estimator": _public(v2),
        "api._v2.estimator.experimental": _public(experimental),
        "api._v2.estimator.export": _public(export),
        "api._v2.estimator.inputs": {},
    }
