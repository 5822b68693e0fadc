"""tf.contrib.model_pruning against TF 1.15.5 (tests/tf115_cases/contrib_model_pruning.py):
masked layers and LSTM cells (values, variable names and order, collections, output names),
mask updates over global steps (schedule, threshold decay, gating, block pruning with AVG / MAX
and TPU's factorized pooling, weight_sparsity_map, block_dims_map, an external sparsity),
summary tags, the hparams and their errors, and the stripped / checkpoint inference graphs."""
from tf115_cases import harness

MODULE = "contrib_model_pruning"


ours, test_case_matches_tf115 = harness.case_tests(MODULE)


def test_pruned_mlp_program_prunes_as_tf115(tmp_path):
    """tests/programs/model_pruning (masked_fully_connected layers, hparams parsed from a
    string, Pruning's conditional mask update grouped with the train op in a tf.estimator
    model_fn, its summaries, then graph_def_from_checkpoint + strip_pruning_vars_fn) through
    `estimator-compat run`. TF 1.15.5 on the same program (5 runs): accuracy 0.885-0.906,
    sparsity 0.75 (hidden) and 0.5 (logits, weight_sparsity_map), last update at step 50, the
    same masked-weight constants, summary tags and 20 checkpoint names."""
    import json
    import os

    from helpers import PROGRAMS, run_program
    out, _ = run_program(os.path.join(PROGRAMS, "model_pruning", "pruned_mlp.py"),
                         "--model_dir", tmp_path / "model")
    result = json.loads([x for x in out.splitlines() if x.startswith("RESULT ")][-1][7:])
    assert result["accuracy"] >= 0.87
    assert result["sparsity"] == {"hidden": 0.75, "logits": 0.5}
    assert result["last_update"] == 50
    assert result["pruned_graph"] == {
        "masked_weight_consts": {"hidden/weights/masked_weight": 0.75,
                                 "logits/weights/masked_weight": 0.5}, "masks_left": []}
    assert result["summary_tags"] == ["mlp_pruning_summaries/" + t for t in (
        "hidden/mask/sparsity", "hidden/threshold/threshold", "last_mask_update_step",
        "logits/mask/sparsity", "logits/threshold/threshold", "sparsity")]
    layer_names = [f"{layer}/{v}" for layer in ("hidden", "logits") for v in (
        "biases", "biases/Adam", "biases/Adam_1", "mask", "threshold", "weights",
        "weights/Adam", "weights/Adam_1")]
    assert result["variables"] == sorted(["beta1_power", "beta2_power", "global_step",
                                          "mlp_pruning/last_mask_update_step"] + layer_names)
