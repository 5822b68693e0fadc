"""`tf.contrib.rnn` as TF 1.15 had it (every public name), with its deep import paths.

Where TF 1.15's names live here:
- the core cells (BasicRNNCell, BasicLSTMCell, LSTMCell, GRUCell, MultiRNNCell, DropoutWrapper,
  ResidualWrapper, DeviceWrapper, RNNCell, LayerRNNCell, LSTMStateTuple): `legacy/rnn_cells.py`
  (they are `tf.nn.rnn_cell`'s too)
- LSTMBlockCell, LSTMBlockFusedCell, LSTMBlockWrapper, GRUBlockCell(V2): `block_cells.py`
- FusedRNNCell, FusedRNNCellAdaptor, TimeReversedFusedRNN: `fused.py`
- Input/OutputProjectionWrapper, EmbeddingWrapper, AttentionCellWrapper, HighwayWrapper,
  CompiledWrapper: `wrappers.py`
- LayerNormBasicLSTMCell, CoupledInputForgetGateLSTMCell, TimeFreqLSTMCell, GLSTMCell, NASCell,
  UGRNNCell, IntersectionRNNCell, PhasedLSTMCell, SRUCell, IndRNNCell, IndyGRUCell,
  IndyLSTMCell: `lstm_variants.py`; GridLSTMCell, BidirectionalGridLSTMCell: `grid_lstm.py`;
  ConvLSTMCell, Conv{1,2,3}DLSTMCell: `conv_lstm.py`
- stack_bidirectional_(dynamic_)rnn, static_(bidirectional_|state_saving_)rnn,
  transpose_batch_time, best_effort_input_batch_size: `functions.py`
"""
from estimator_compat.legacy.namespaces import namespace

_PREFIX = "tensorflow.contrib.rnn"


def build():
    from estimator_compat.legacy import rnn_cells
    from estimator_compat.legacy.contrib.rnn import (_common, block_cells, conv_lstm, functions,
                                                     fused, grid_lstm, lstm_variants, wrappers)

    def public(module, *names):
        return {n: getattr(module, n) for n in names}

    core = dict(rnn_cells.CLASSES)
    block = public(block_cells, "LSTMBlockCell", "LSTMBlockFusedCell", "LSTMBlockWrapper",
                   "GRUBlockCell", "GRUBlockCellV2")
    fused_names = public(fused, "FusedRNNCell", "FusedRNNCellAdaptor", "TimeReversedFusedRNN")
    core_wrappers = public(wrappers, "InputProjectionWrapper", "OutputProjectionWrapper",
                           "EmbeddingWrapper")
    cell_names = dict(
        public(wrappers, "AttentionCellWrapper", "HighwayWrapper", "CompiledWrapper"),
        **public(lstm_variants, "LayerNormBasicLSTMCell", "CoupledInputForgetGateLSTMCell",
                 "TimeFreqLSTMCell", "GLSTMCell", "NASCell", "UGRNNCell", "IntersectionRNNCell",
                 "PhasedLSTMCell", "SRUCell", "IndRNNCell", "IndyGRUCell", "IndyLSTMCell"),
        **public(grid_lstm, "GridLSTMCell", "BidirectionalGridLSTMCell"),
        **public(conv_lstm, "ConvLSTMCell", "Conv1DLSTMCell", "Conv2DLSTMCell",
                 "Conv3DLSTMCell"))
    stacked = public(functions, "stack_bidirectional_rnn", "stack_bidirectional_dynamic_rnn")
    helpers = public(functions, "static_rnn", "static_bidirectional_rnn",
                     "static_state_saving_rnn", "transpose_batch_time",
                     "best_effort_input_batch_size")

    ops = {
        "rnn_cell": namespace(f"{_PREFIX}.python.ops.rnn_cell", "contrib.rnn's rnn_cell.py",
                              **cell_names),
        "core_rnn_cell": namespace(f"{_PREFIX}.python.ops.core_rnn_cell",
                                   "contrib.rnn's core_rnn_cell.py", _linear=_common.linear,
                                   **core_wrappers),
        "lstm_ops": namespace(f"{_PREFIX}.python.ops.lstm_ops", "contrib.rnn's lstm_ops.py",
                              **{k: v for k, v in block.items() if "GRU" not in k}),
        "gru_ops": namespace(f"{_PREFIX}.python.ops.gru_ops", "contrib.rnn's gru_ops.py",
                             **{k: v for k, v in block.items() if "GRU" in k}),
        "fused_rnn_cell": namespace(f"{_PREFIX}.python.ops.fused_rnn_cell",
                                    "contrib.rnn's fused_rnn_cell.py", **fused_names),
        "rnn": namespace(f"{_PREFIX}.python.ops.rnn", "contrib.rnn's rnn.py", **stacked),
    }
    python_ops = namespace(f"{_PREFIX}.python.ops", "contrib.rnn's ops", **ops)
    python = namespace(f"{_PREFIX}.python", "contrib.rnn", ops=python_ops)
    return namespace(_PREFIX, "tf.contrib.rnn (TF 1.15's cells and RNN functions)",
                     __served_whole__=True, python=python, **core, **block, **fused_names,
                     **core_wrappers, **cell_names, **stacked, **helpers)
