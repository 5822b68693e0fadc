"""`head.*`: tf.estimator's (V2) heads, estimator_compat's canned/heads; `head.base_head`'s
helper functions (canned/head_helpers.py) and `head.head_utils.binary_or_multi_class_head`;
the multi_head / sequential_head / head_utils privates are head_privates.py."""


def modules():
    from estimator_compat.canned import head_helpers, heads
    from estimator_compat.canned.base import classification_head
    from estimator_compat.canned.heads.sequential import SequentialHeadWrapper
    from estimator_compat.legacy.estimator_tree import head_privates as privates

    def binary_or_multi_class_head(n_classes, weight_column, label_vocabulary, loss_reduction):
        """BinaryClassHead for n_classes == 2, else MultiClassHead."""
        return classification_head(n_classes, weight_column, label_vocabulary, loss_reduction)

    return {
        "head": {},
        "head.base_head": dict(Head=heads.Head, **{
            n: getattr(head_helpers, n) for n in dir(head_helpers)
            if not n.startswith("_") and callable(getattr(head_helpers, n))
            and getattr(head_helpers, n).__module__ == head_helpers.__name__}),
        "head.binary_class_head": dict(BinaryClassHead=heads.BinaryClassHead),
        "head.multi_class_head": dict(MultiClassHead=heads.MultiClassHead),
        "head.multi_label_head": dict(MultiLabelHead=heads.MultiLabelHead),
        "head.multi_head": dict(MultiHead=heads.MultiHead,
                                _default_export_output=privates._default_export_output,
                                _no_op_train_fn=privates._no_op_train_fn),
        "head.regression_head": dict(RegressionHead=heads.RegressionHead,
                                     PoissonRegressionHead=heads.PoissonRegressionHead,
                                     LogisticRegressionHead=heads.LogisticRegressionHead),
        "head.sequential_head": dict(SequentialHeadWrapper=SequentialHeadWrapper,
                                     _SequentialHead=privates._SequentialHead,
                                     _flatten_tensor=privates._flatten_tensor),
        "head.head_utils": dict(binary_or_multi_class_head=binary_or_multi_class_head,
                                _assert_no_hooks=privates._assert_no_hooks,
                                _assert_simple_summaries=privates._assert_simple_summaries,
                                _initialize_variables=privates._initialize_variables),
    }

