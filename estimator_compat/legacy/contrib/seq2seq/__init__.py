"""`tf.contrib.seq2seq` as TF 1.15 had it, on `tf.compat.v1` ops, `while_loop` and
`TensorArray` (TensorFlow 2 removed it; tensorflow_addons' TF2 port is not used).

Where TF 1.15's names live here:

- `decoder.py`: `Decoder`, `dynamic_decode`.
- `helpers.py`: `Helper`, `CustomHelper`, `TrainingHelper`, `ScheduledEmbeddingTrainingHelper`,
  `ScheduledOutputTrainingHelper`, `GreedyEmbeddingHelper`, `SampleEmbeddingHelper`,
  `InferenceHelper`.
- `basic_decoder.py`: `BasicDecoder`, `BasicDecoderOutput`.
- `attention.py`: `AttentionMechanism`, `BahdanauAttention`, `LuongAttention`,
  `BahdanauMonotonicAttention`, `LuongMonotonicAttention`, `monotonic_attention`,
  `safe_cumprod`, `hardmax`.
- `attention_wrapper.py`: `AttentionWrapper`, `AttentionWrapperState`.
- `beam_search.py`: `BeamSearchDecoder`, `BeamSearchDecoderOutput`, `BeamSearchDecoderState`,
  `FinalBeamSearchDecoderOutput`, `tile_batch`, `gather_tree`.
- `loss.py`: `sequence_loss`.

The deep TF 1.15 paths (`tensorflow.contrib.seq2seq.python.ops.attention_wrapper` & co.) are
registered too, with the names each of those modules had.
"""
import sys

from estimator_compat.legacy.contrib.seq2seq import (attention, attention_wrapper,
                                                     basic_decoder, beam_search, decoder,
                                                     helpers, loss)

_DEEP = {
    "attention_wrapper": (attention, attention_wrapper),
    "basic_decoder": (basic_decoder,),
    "beam_search_decoder": (beam_search, attention_wrapper),
    "decoder": (decoder,),
    "helper": (helpers,),
    "loss": (loss,),
}


_NAMES = frozenset((
    "AttentionMechanism", "AttentionWrapper", "AttentionWrapperState", "BahdanauAttention",
    "BahdanauMonotonicAttention", "BasicDecoder", "BasicDecoderOutput", "BeamSearchDecoder",
    "BeamSearchDecoderOutput", "BeamSearchDecoderState", "CustomHelper", "Decoder",
    "FinalBeamSearchDecoderOutput", "GreedyEmbeddingHelper", "Helper", "InferenceHelper",
    "LuongAttention", "LuongMonotonicAttention", "SampleEmbeddingHelper",
    "ScheduledEmbeddingTrainingHelper", "ScheduledOutputTrainingHelper", "TrainingHelper",
    "dynamic_decode", "gather_tree", "hardmax", "monotonic_attention", "safe_cumprod",
    "sequence_loss", "tile_batch"))


def _public(module):
    names = getattr(module, "__all__", None) or [
        n for n, v in vars(module).items()
        if not n.startswith("_") and getattr(v, "__module__", None) == module.__name__]
    return {n: getattr(module, n) for n in names}


def build():
    from estimator_compat.legacy.namespaces import namespace
    names = {}
    for module in (decoder, helpers, basic_decoder, attention, attention_wrapper, beam_search,
                   loss):
        names.update({n: v for n, v in _public(module).items() if n in _NAMES})
    for deep, modules in _DEEP.items():
        attrs = {}
        for module in modules:
            attrs.update(_public(module))
        namespace("tensorflow.contrib.seq2seq.python.ops." + deep,
                  "tf.contrib.seq2seq's %s module (TF 1.15 path)" % deep, **attrs)
    ops = namespace("tensorflow.contrib.seq2seq.python.ops",
                    "tf.contrib.seq2seq's ops (TF 1.15 path)",
                    **{deep: sys.modules["tensorflow.contrib.seq2seq.python.ops." + deep]
                       for deep in _DEEP})
    python = namespace("tensorflow.contrib.seq2seq.python", "tf.contrib.seq2seq (TF 1.15 path)",
                       ops=ops)
    return namespace("tensorflow.contrib.seq2seq", "tf.contrib.seq2seq (decoders, attention, "
                     "beam search), as TF 1.15 had it", __served_whole__=True, python=python,
                     **names)
