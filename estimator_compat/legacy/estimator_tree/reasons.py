"""The reasons the DECLINED tables give, and small helpers the area files share."""
PRIVATE = "a private helper of tensorflow_estimator's implementation, imported by no library"
MODEL_FN = ("a private piece of tensorflow_estimator's model_fn; estimator_compat builds the "
            "canned models its own way (use the estimator class or its logit_fn_builder)")
NOT_SERVED = "not served by estimator_compat"
TPU = ("TPUEstimator's TPU-only machinery (infeed/outfeed, TPU contexts and loops); "
       "estimator_compat's TPUEstimator runs model_fn off TPU and has none of it")


def declined(reason, names):
    return {n: reason for n in names}


def names(module, *wanted):
    return {n: getattr(module, n) for n in wanted}


def instances_of(cls, items, message, container=list):
    """`items` (None: none) as `container`, TypeError "<message>, given: <item>" for the first
    that is not a `cls`: the shape of 2.15's hook / listener checks, each with its own words."""
    items = container(items or [])
    for item in items:
        if not isinstance(item, cls):
            raise TypeError(f"{message}, given: {item}")
    return items
