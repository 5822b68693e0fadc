"""Time series readers (TF 1.15's `TimeSeriesReader`, `NumpyReader`, `CSVReader`): `read()`
returns a chunk of consecutive records (each feature `[chunk, ...]`) for the windowing input
fns, `read_full()` the whole series, both as TF 1.x queue pipelines, so an Estimator runs them
in a TF1 session of their own (engine/session_input.py) and a program's own `tf.Session`
with `tf.train.start_queue_runners` as it did.

`NumpyReader` feeds a FIFO queue from the arrays (`read`: rows in order, wrapping around at
the end of the series; `read_full`: the whole series per element), as TF 1.15's
`numpy_input_fn` did, with the same queue-fill summary. `CSVReader` takes its files from a
filename queue (TF 1.15's `epoch_limiter` local variable ends a pipeline that finds no records
instead of looping forever): `read` is up to `read_num_records_hint` lines of one file through
a `TextLineReader`; `read_full` takes the list of files once and reads each whole
(`tf.io.read_file`; TF 1.15 looped over single records until the first came round again, and
a second full read could end in OutOfRangeError when its epoch limiter raced the queue)."""
import abc

import tensorflow as tf

from estimator_compat.legacy.contrib.timeseries import numpy_data
from estimator_compat.legacy.contrib.timeseries.feature_keys import TrainEvalFeatures

v1 = tf.compat.v1
TIMES, VALUES = TrainEvalFeatures.TIMES, TrainEvalFeatures.VALUES


class TimeSeriesReader(metaclass=abc.ABCMeta):
    """Reads a series into dictionaries of Tensors (`read`: a chunk; `read_full`: all)."""

    def check_dataset_size(self, minimum_dataset_size):
        """Raises where the reader knows the series has fewer records (default: unknown)."""

    @abc.abstractmethod
    def read(self):
        """{feature: Tensor [chunk, ...]} of consecutive records."""

    @abc.abstractmethod
    def read_full(self):
        """{feature: Tensor [series length, ...]}: the whole series, at every run."""


def _needs_graph():
    """Queue pipelines need a TF1 graph: in eager mode, the error that sends an Estimator's
    input_fn to a session of its own (engine/session_input.py)."""
    if tf.executing_eagerly():
        raise RuntimeError("tf.contrib.timeseries readers are queue pipelines, not supported "
                           "when eager execution is enabled: call them in a TF1 graph")


def _fed_queue(element, capacity, many):
    """A FIFO queue of `element`'s dict, filled by a queue runner (one thread: in order)."""
    keys = sorted(element)
    with tf.name_scope("enqueue_input"):
        shapes = [element[k].shape[1:] if many else element[k].shape for k in keys]
        queue = v1.FIFOQueue(capacity, [element[k].dtype for k in keys], shapes=shapes)
        tensors = [element[k] for k in keys]
        enqueue = queue.enqueue_many(tensors) if many else queue.enqueue(tensors)
        v1.train.add_queue_runner(v1.train.QueueRunner(queue, [enqueue]))
        full = tf.cast(queue.size(), tf.float32) * (1.0 / capacity)
        v1.summary.scalar(f"queue/{queue.name}fraction_over_0_of_{capacity}_full", full)
    return queue, keys


def _next_element(dataset):
    return v1.data.make_one_shot_iterator(dataset).get_next()


class NumpyReader(TimeSeriesReader):
    """A series held as numpy arrays ({`times`: [length], `values`: [length] or
    [length, features], exogenous features: [length, ...]})."""

    def __init__(self, data, read_num_records_hint=4096):
        self._features = numpy_data.canonicalize(data, require_single_batch=True)
        self._read_num_records_hint = read_num_records_hint

    def check_dataset_size(self, minimum_dataset_size):
        size = self._features[TIMES].shape[1]
        if size < minimum_dataset_size:
            raise ValueError(
                f"A TimeSeriesInputFn is configured to create windows of size "
                f"{minimum_dataset_size}, but only {size} records were available in the "
                f"dataset. Either decrease the window size or provide more records.")

    def read(self):
        """`read_num_records_hint` consecutive records, wrapping around the series' end."""
        _needs_graph()
        rows = {key: value[0] for key, value in self._features.items()}
        hint = self._read_num_records_hint
        chunks = tf.data.Dataset.from_tensor_slices(rows).repeat().batch(hint)
        queue, keys = _fed_queue(_next_element(chunks), capacity=1000, many=True)
        return dict(zip(keys, queue.dequeue_many(hint)))

    def read_full(self):
        _needs_graph()
        whole = tf.data.Dataset.from_tensors(self._features).repeat()
        queue, keys = _fed_queue(_next_element(whole), capacity=2, many=True)
        batch = queue.dequeue_many(1)
        return {key: tf.squeeze(value, axis=0) for key, value in zip(keys, batch)}


class ReaderBaseTimeSeriesParser(TimeSeriesReader):
    """A reader over files: `read` through a `tf.compat.v1.ReaderBase` (`_get_reader`),
    `read_full` through `_read_whole_files`; records parsed by `_process_records(records)`."""

    def __init__(self, filenames, read_num_records_hint=4096):
        self._filenames = filenames
        self._read_num_records_hint = read_num_records_hint

    @abc.abstractmethod
    def _get_reader(self):
        """A new `tf.compat.v1.ReaderBase` for these files."""

    @abc.abstractmethod
    def _process_records(self, lines):
        """{feature: Tensor [records, ...]} of a string Tensor of records."""

    def _get_filename_queue(self, epoch_limit):
        """(filename queue, epoch limiter): the files, in order, forever; each pass over the
        list counts up the limiter, which a read resets, so `epoch_limit` passes without a
        record end the input with OutOfRangeError."""
        _needs_graph()
        limiter = v1.Variable(tf.constant(0, tf.int64), name="epoch_limiter", trainable=False,
                              collections=[v1.GraphKeys.LOCAL_VARIABLES], use_resource=True)
        names = tf.reshape(tf.convert_to_tensor(self._filenames), [-1])
        counted = tf.cond(v1.is_variable_initialized(limiter),
                          lambda: limiter.count_up_to(epoch_limit),
                          lambda: tf.constant(0, tf.int64))
        with tf.control_dependencies([counted]):
            names = tf.identity(names)
        return v1.train.string_input_producer(names, shuffle=False, capacity=1), limiter

    def read(self):
        """Up to `read_num_records_hint` records of the next file (fewer at its end)."""
        queue, limiter = self._get_filename_queue(epoch_limit=self._read_num_records_hint)
        reader = self._get_reader()
        with tf.control_dependencies([limiter.assign(0)]):
            _, records = reader.read_up_to(queue, self._read_num_records_hint)
        return self._process_records(records)

    def read_full(self):
        """Every record of every file, in order: each pass takes the list of files once from
        the filename queue and reads them whole."""
        queue, limiter = self._get_filename_queue(epoch_limit=2)
        with tf.control_dependencies([limiter.assign(0)]):
            files = queue.dequeue_many(tf.size(tf.convert_to_tensor(self._filenames)))
        return self._process_records(self._read_whole_files(files))

    @abc.abstractmethod
    def _read_whole_files(self, files):
        """The records of every file in `files` (a string vector), in order."""


class CSVReader(ReaderBaseTimeSeriesParser):
    """CSV files, one record a line: `column_names` (one `times` column, `values` once or
    repeated for a multivariate series, other names for exogenous features), `column_dtypes`
    (default int64 times, float32 otherwise), `skip_header_lines` per file."""

    def __init__(self, filenames, column_names=(TIMES, VALUES), column_dtypes=None,
                 skip_header_lines=None, read_num_records_hint=4096):
        if TIMES not in column_names:
            raise ValueError(f"'{TIMES}' is a required column (column_names={column_names}).")
        if VALUES not in column_names:
            raise ValueError(f"'{VALUES}' is a required column (column_names={column_names}).")
        if column_dtypes is not None and len(column_dtypes) != len(column_names):
            raise ValueError(
                f"If specified, the length of column_dtypes must match the length of "
                f"column_names (got column_dtypes={column_dtypes} and "
                f"column_names={column_names}).")
        if sum(1 for name in column_names if name == TIMES) != 1:
            raise ValueError(f"Got more than one times column ('{TIMES}'), but exactly one is "
                             "required.")
        self._column_names = column_names
        self._column_dtypes = column_dtypes
        self._skip_header_lines = skip_header_lines
        super().__init__(filenames=filenames, read_num_records_hint=read_num_records_hint)

    def _get_reader(self):
        return v1.TextLineReader(skip_header_lines=self._skip_header_lines)

    def _read_whole_files(self, files):
        """Each file's lines in order, less its header lines (as TextLineReader reads them:
        no trailing newline, no carriage return)."""
        contents = tf.map_fn(tf.io.read_file, files, fn_output_signature=tf.string)
        ended = tf.strings.regex_replace(contents, "([^\\n])$", "\\1\n")  # end last line
        lines = tf.strings.split(ended, "\n")[:, :-1][:, self._skip_header_lines or 0:]
        return tf.strings.regex_replace(lines.flat_values, "\r$", "")

    def _process_records(self, lines):
        if self._column_dtypes is None:  # times default to 0, other columns are required
            defaults = [[tf.zeros([], tf.int64)] if name == TIMES else []
                        for name in self._column_names]
        else:
            defaults = [[tf.zeros([], tf.as_dtype(dtype))] for dtype in self._column_dtypes]
        columns = tf.io.decode_csv(lines, defaults)
        grouped = {}
        for name, column in zip(self._column_names, columns):
            grouped.setdefault(name, []).append(column)
        return {name: columns[0] if name == TIMES else tf.stack(columns, axis=1)
                for name, columns in grouped.items()}
