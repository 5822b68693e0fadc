"""`export.*`, `exporter`, `gc`: receivers, export outputs, exporters and export garbage
collection (gc's functions were private in tensorflow_estimator: `_largest_export_versions`
is gc.largest_export_versions)."""
import types

from estimator_compat.legacy.estimator_tree.reasons import PRIVATE, declined


def _public(module):
    return {n: getattr(module, n) for n in dir(module) if not n.startswith("_")
            and not isinstance(getattr(module, n), types.ModuleType)}


def modules():
    import estimator_compat as api
    from estimator_compat import exporters, gc
    from estimator_compat.export import outputs, receivers, supervised_receivers
    gc_names = {f"_{n}": getattr(gc, n) for n in (
        "get_paths", "largest_export_versions", "mod_export_version", "negation",
        "one_of_every_n_export_versions", "union")}
    return {
        "export": _public(api.export),
        "export.export": dict(_public(receivers), **_public(supervised_receivers)),
        "export.export_lib": _public(api.export),
        "export.export_output": _public(outputs),
        "export.function": {},
        "exporter": dict(Exporter=exporters.Exporter, LatestExporter=exporters.LatestExporter,
                         BestExporter=exporters.BestExporter,
                         FinalExporter=exporters.FinalExporter,
                         _SavedModelExporter=exporters._SavedModelExporter,
                         _loss_smaller=exporters._loss_smaller),
        "gc": dict(_public(gc), **gc_names),
    }


DECLINED = {
    "export.export": dict(
        declined(PRIVATE, ("_check_tensor", "_check_tensor_key", "_placeholder_from_tensor",
                           "_placeholders_from_receiver_tensors_dict"))),
    "export.function": declined(
        "tensorflow_estimator's experimental tf.function export of model_fns; estimator_compat "
        "exports with Estimator.export_saved_model (export/saved_model.py)",
        ("EstimatorSpecFunction", "ModelFunction", "_EstimatorSpecFunction",
         "_EstimatorWrappedGraph", "_canonicalize_receiver_tensors",
         "_filter_estimator_spec_outputs", "_input_receiver_fn_name", "_prune_receiver_tensors",
         "_wrap_and_verify_model_fn")),
    "exporter": declined(PRIVATE, ("_verify_compare_fn_args",)),
}
