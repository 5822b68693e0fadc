"""`export.*`, `exporter`, `gc`: receivers, export outputs, exporters and export garbage
collection (gc's functions were private in tensorflow_estimator: `_largest_export_versions`
is gc.largest_export_versions). export.export's receiver checks are receiver_checks.py,
exporter._verify_compare_fn_args fn_arg_checks.py, export.function's helpers
export_function_privates.py, its ModelFunction / EstimatorSpecFunction
export_model_function.py."""
import types


def _public(module):
    return {n: getattr(module, n) for n in dir(module) if not n.startswith("_")
            and not isinstance(getattr(module, n), types.ModuleType)}


def modules():
    import estimator_compat as api
    from estimator_compat import exporters, gc
    from estimator_compat.export import outputs, receivers, supervised_receivers
    from estimator_compat.legacy.estimator_tree import (export_function_privates,
                                                        export_model_function,
                                                        fn_arg_checks, receiver_checks)
    gc_names = {f"_{n}": getattr(gc, n) for n in (
        "get_paths", "largest_export_versions", "mod_export_version", "negation",
        "one_of_every_n_export_versions", "union")}
    return {
        "export": _public(api.export),
        "export.export": dict(_public(receivers), **_public(supervised_receivers), **{
            n: getattr(receiver_checks, n) for n in (
                "_check_tensor", "_check_tensor_key", "_placeholder_from_tensor",
                "_placeholders_from_receiver_tensors_dict")}),
        "export.export_lib": _public(api.export),
        "export.export_output": _public(outputs),
        "export.function": dict({n: getattr(export_function_privates, n) for n in (
            "_EstimatorWrappedGraph", "_canonicalize_receiver_tensors",
            "_filter_estimator_spec_outputs", "_input_receiver_fn_name",
            "_prune_receiver_tensors", "_wrap_and_verify_model_fn")}, **{
            n: getattr(export_model_function, n) for n in (
                "EstimatorSpecFunction", "ModelFunction", "_EstimatorSpecFunction")}),
        "exporter": dict(Exporter=exporters.Exporter, LatestExporter=exporters.LatestExporter,
                         BestExporter=exporters.BestExporter,
                         FinalExporter=exporters.FinalExporter,
                         _SavedModelExporter=exporters._SavedModelExporter,
                         _loss_smaller=exporters._loss_smaller,
                         _verify_compare_fn_args=fn_arg_checks._verify_compare_fn_args),
        "gc": dict(_public(gc), **gc_names),
    }


DECLINED = {}
